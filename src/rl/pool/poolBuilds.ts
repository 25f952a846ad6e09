// Pretraining agents in the pool (docs/architecture-runtime.md, "The cohort in parallel" and "Rungs in
// parallel"): the builds a run needs (the page's axis agents not in its cache, src/worker/axisBuilds.ts) run
// rung by rung on every builder, each rung with the same deterministic code as Node's cache build
// (src/cohort/ladder.ts), so the bytes are those of a build on one worker of the same engine and kernel
// variant. The builders are this thread (whose engine is warm and which would otherwise only wait) when it
// runs the pool's engine, and the pool's workers; a free builder takes the next rung of ./rungQueue.ts (sure
// work first, then rungs ahead of need), and a build decided by its ladder cancels its rungs still running.
// Without a pool this thread runs every rung, the builds one after the other. A rung whose worker stops runs
// again on another builder of the same engine (the same bytes), or, where this thread runs another engine,
// its build starts again here; a failure names the agents of the build.
import type { BaseMeta } from '../../cohort/baseMeta';
import type { PretrainRecipe } from '../../cohort/familySpec';
import { agentBuild, planAgent, runRung, type AgentPlan, type RungOutcome } from '../../cohort/ladder';
import type { PretrainProgress, PretrainSpec } from '../../cohort/pretrainSpec';
import { engineId, type Backend } from '../../engine/backend';
import type { TaskConfig } from '../../tasks';
import { breather } from '../../util/breathe';
import type { ModelPool } from './poolModels';
import { RungQueue } from './rungQueue';

/** One agent to pretrain. */
export interface BuildJob {
  /** Who is built, as progress and errors name it (e.g. "A, B: nat-rope.s seed 1, plain view"). */
  who: string;
  spec: PretrainSpec;
  task: TaskConfig;
  recipe?: Partial<PretrainRecipe>;
  /** Recorded in the checkpoint's meta (the cache's content address). */
  cacheKey: string;
}

/**
 * A build's bytes and meta, the seconds from the start of the builds to its end, and where each rung its
 * meta records ran: the pool's worker index, or null for this thread.
 */
export interface BuiltAgent {
  /** The checkpoint (src/model/checkpoint.ts format). */
  bytes: Uint8Array;
  meta: BaseMeta;
  seconds: number;
  ran: (number | null)[];
}

/** Threads that build side by side with `pool` on `be`: this one too when it runs the pool's engine. */
export function buildThreads(be: Backend, pool: ModelPool): number {
  return pool.size + (engineId(be.info) === pool.engine ? 1 : 0);
}

/**
 * Where a build's rungs ran, as a notice says it: "built in model worker 0", "built in this worker", or "its
 * rungs ran in this worker and model worker 0" (`ran`: per rung the pool's worker, null for this thread).
 */
export function builtWhere(ran: readonly (number | null)[], here = 'this worker'): string {
  const names = [...new Set(ran)]
    .sort((a, b) => (a ?? -1) - (b ?? -1))
    .map((w) => (w === null ? here : `model worker ${w}`));
  if (names.length <= 1) return `built in ${names[0] ?? here}`;
  return `its rungs ran in ${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

export interface BuildRun {
  /** Builds here when there is no pool (and with one, when it runs the pool's engine). */
  backend: Backend;
  pool?: ModelPool;
  /** Polled: true stops the builds (a pool's workers are stopped; the result is null). */
  aborted?: () => boolean;
  onProgress?: (job: number, p: PretrainProgress) => void;
  /**
   * A build's rung whose worker stopped, run again elsewhere (once per build): `where` says where it goes on
   * ("here", "here and in the other model workers", or "here, from its first rung").
   */
  onRetry?: (job: number, reason: string, where: string) => void;
  /** Each build's notices (src/cohort/pretrainSpec.ts PretrainOptions.notice), its job first. */
  notice?: (job: number, s: string) => void;
  /** Each build as soon as it is decided (before the others end), e.g. to store it whatever happens next. */
  onBuilt?: (job: number, agent: BuiltAgent) => void;
}

const message = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/** A builder: this thread (worker null) or a pool worker. */
interface Builder {
  worker: number | null;
  busy: boolean;
  dead: boolean;
}

/** Build every job (see the file's head); the outcomes in job order, or null if aborted. */
export async function buildAgents(jobs: readonly BuildJob[], run: BuildRun): Promise<BuiltAgent[] | null> {
  const t0 = performance.now();
  const named = (j: number, e: unknown) => new Error(`could not pretrain ${jobs[j].who}: ${message(e)}`);
  const plans: AgentPlan[] = jobs.map((job, j) => {
    try {
      return planAgent(job.spec, job.task, { recipe: job.recipe, notice: (s) => run.notice?.(j, s) });
    } catch (e) {
      throw named(j, e);
    }
  });
  const pool = run.pool;
  const sameEngine = !!pool && engineId(run.backend.info) === pool.engine;
  const builders: Builder[] = [];
  if (!pool || sameEngine) builders.push({ worker: null, busy: false, dead: false });
  for (let w = 0; w < (pool?.size ?? 0); w++) builders.push({ worker: w, busy: false, dead: false });
  const queue = new RungQueue(plans.map((p) => p.rungs));
  const outcomes: RungOutcome[][] = jobs.map(() => []);
  const ranOn: (number | null)[][] = jobs.map(() => []);
  const out: (BuiltAgent | undefined)[] = jobs.map(() => undefined);
  /** Builds restarted here (this thread runs another engine than the pool): only this thread runs their rungs. */
  const hereOnly = new Set<number>();
  const generation = jobs.map(() => 0);
  const retried = new Set<number>();
  const running = new Map<string, () => void>(); // `${build}:${index}` -> cancel
  let failure: Error | null = null;
  let stopped = false;
  let wake: () => void = () => undefined;

  const cancelAll = () => {
    for (const c of running.values()) c();
  };

  const finish = (j: number, kept: number) => {
    const recorded = queue.recorded(j);
    const { avg } = outcomes[j][kept];
    const { meta, bytes } = agentBuild(
      plans[j],
      jobs[j].spec,
      recorded.map((i) => outcomes[j][i]),
      kept,
      outcomes[j][kept].params,
      jobs[j].cacheKey,
    );
    out[j] = {
      bytes,
      meta,
      seconds: (performance.now() - t0) / 1000,
      ran: recorded.map((i) => ranOn[j][i]),
    };
    outcomes[j] = []; // the parameters are in the bytes now
    run.onProgress?.(j, {
      agent: jobs[j].spec.id,
      step: meta.steps,
      maxSteps: plans[j].recipe.maxSteps,
      loss: avg,
      valAccuracy: meta.valAccuracy,
      valSampledAccuracy: meta.valSampledAccuracy,
      done: true,
    });
    run.onBuilt?.(j, out[j]);
  };

  /** Run rung `index` of build `j` on builder `b`; resolves when it is over, whatever happened. */
  const runOn = async (b: Builder, j: number, index: number): Promise<void> => {
    const key = `${j}:${index}`;
    const gen = generation[j];
    const progress = (p: PretrainProgress) => run.onProgress?.(j, p);
    let cancelled = false;
    let cancel: () => void = () => (cancelled = true);
    try {
      let r: RungOutcome;
      if (b.worker === null) {
        running.set(key, cancel);
        const halt = () => cancelled || stopped || !!run.aborted?.();
        r = await runRung(run.backend, plans[j], jobs[j].spec, index, {
          shouldStop: halt,
          // with workers beside it, this thread lets their replies in between its steps
          ...(builders.length > 1 ? { breathe: breather() } : {}),
          onProgress: progress,
        });
        if (halt()) return; // a rung stopped early is no result
      } else {
        const { spec, task: t, recipe } = jobs[j];
        const task = pool!.rung(b.worker, { spec, task: t, recipe, index }, progress);
        cancel = () => ((cancelled = true), task.cancel());
        running.set(key, cancel);
        r = await task.done;
      }
      if (gen !== generation[j] || cancelled || stopped || queue.kept(j) !== undefined) return;
      outcomes[j][index] = r;
      ranOn[j][index] = b.worker;
      const decided = queue.finished(j, index, r);
      if (decided) {
        for (const i of decided.cancel) running.get(`${j}:${i}`)?.();
        finish(j, decided.kept);
      }
    } catch (e) {
      if (stopped || cancelled || gen !== generation[j]) return;
      if (b.worker !== null && pool!.laneStopped(b.worker)) {
        b.dead = true;
        const others = builders.some((x) => x.worker !== null && !x.dead);
        const where = !sameEngine
          ? 'here, from its first rung'
          : others
            ? 'here and in the other model workers'
            : 'here';
        if (!retried.has(j)) run.onRetry?.(j, message(e), where);
        retried.add(j);
        if (sameEngine) queue.retry(j, index);
        else {
          // this thread runs another engine: the build starts again here, all of it (one engine's bytes)
          generation[j]++;
          for (const i of queue.restart(j)) running.get(`${j}:${i}`)?.();
          outcomes[j] = [];
          hereOnly.add(j);
          if (!builders.some((x) => x.worker === null))
            builders.push({ worker: null, busy: false, dead: false });
        }
      } else failure ??= named(j, e);
    } finally {
      if (running.get(key) === cancel) running.delete(key); // not a rerun's of the same rung
    }
  };

  /** This thread runs the pool's engine (or there is no pool): it may take any build's rungs. */
  const hereAny = !pool || sameEngine;
  const pump = () => {
    if (failure || stopped) return;
    for (const b of builders) {
      if (b.busy || b.dead) continue;
      const next = queue.next((j) => (hereOnly.has(j) ? b.worker === null : b.worker !== null || hereAny));
      if (!next) continue;
      b.busy = true;
      void runOn(b, next.build, next.index).finally(() => {
        b.busy = false;
        wake();
      });
    }
  };

  const watch = run.aborted ? setInterval(() => run.aborted!() && wake(), 50) : undefined;
  try {
    for (;;) {
      if (run.aborted?.()) {
        stopped = true;
        cancelAll();
        pool?.close(); // the workers stop mid-rung; the next run starts new ones
        return null;
      }
      if (failure) {
        stopped = true;
        cancelAll();
        throw failure;
      }
      if (queue.done) return out as BuiltAgent[];
      pump();
      if (!builders.some((b) => b.busy))
        throw new Error('pretraining: rungs are left but no builder may run them');
      await new Promise<void>((r) => (wake = r));
    }
  } finally {
    if (watch) clearInterval(watch);
  }
}
