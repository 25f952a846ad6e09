// Pretraining agents in the pool (docs/architecture-runtime.md, "The cohort in parallel"): the builds a run needs
// (the page's axis agents not in its cache, src/worker/axisBuilds.ts) run side by side, each with the same
// deterministic code as Node's cache build (pretrainAgent, src/cohort/pretrain.ts), so the bytes are those
// of a build on one worker of the same engine and kernel variant. The builders are this thread (whose engine
// is warm and which would otherwise only wait) and the pool's workers: build j on builder j mod builders,
// builder 0 being this thread when it runs the pool's engine (else the workers alone). Without a pool they
// are built one after the other on the given backend. A build whose worker stops is built again on that
// backend (the same bytes); a failure names the agents of the build.
import type { PretrainRecipe } from '../../cohort/familySpec';
import { pretrainAgent } from '../../cohort/pretrain';
import type { PretrainProgress, PretrainSpec } from '../../cohort/pretrainSpec';
import { engineId, type Backend } from '../../engine/backend';
import { releaseDecoders } from '../../model/generate';
import type { TaskConfig } from '../../tasks';
import type { ModelPool } from './poolModels';
import type { BuildOutcome } from './protocol';

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
 * A build's bytes and meta, the seconds from the start of the builds to its end, and where it was built:
 * the pool's worker index, or null for this thread (no pool, a builder of the pool's, or a retry).
 */
export type BuiltAgent = BuildOutcome & { seconds: number; worker: number | null };

/** Threads that build side by side with `pool` on `be`: this one too when it runs the pool's engine. */
export function buildThreads(be: Backend, pool: ModelPool): number {
  return pool.size + (engineId(be.info) === pool.engine ? 1 : 0);
}

export interface BuildRun {
  /** Builds here when there is no pool, and a build whose worker stopped. */
  backend: Backend;
  pool?: ModelPool;
  /** Polled: true stops the builds (a pool's workers are stopped; the result is null). */
  aborted?: () => boolean;
  onProgress?: (job: number, p: PretrainProgress) => void;
  /** A build whose worker stopped, built again on `backend`. */
  onRetry?: (job: number, reason: string) => void;
}

const message = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/** Pretrain `job` on `be` (the local build). */
async function buildHere(be: Backend, job: BuildJob, run: BuildRun, j: number): Promise<BuildOutcome> {
  const r = await pretrainAgent(be, job.spec, job.task, {
    recipe: job.recipe,
    cacheKey: job.cacheKey,
    shouldStop: run.aborted,
    onProgress: run.onProgress && ((p) => run.onProgress!(j, p)),
  });
  releaseDecoders(r.agent.model);
  r.agent.model.free();
  return { bytes: r.bytes, meta: r.meta };
}

/** Resolves when `aborted()` turns true (polled every 50 ms) until `stop()`. */
function abortWatch(aborted: () => boolean): { hit: Promise<null>; stop: () => void } {
  let timer: ReturnType<typeof setInterval> | undefined;
  const hit = new Promise<null>((resolve) => {
    timer = setInterval(() => aborted() && resolve(null), 50);
  });
  return { hit, stop: () => clearInterval(timer) };
}

/** Build every job (see the file's head); the outcomes in job order, or null if aborted. */
export async function buildAgents(jobs: readonly BuildJob[], run: BuildRun): Promise<BuiltAgent[] | null> {
  const t0 = performance.now();
  const done =
    (worker: number | null) =>
    (o: BuildOutcome): BuiltAgent => ({ ...o, seconds: (performance.now() - t0) / 1000, worker });
  const named = (job: BuildJob) => (e: unknown) => {
    throw new Error(`could not pretrain ${job.who}: ${message(e)}`);
  };
  /** Local builds one at a time (a stopped worker's builds join this queue). */
  let here: Promise<unknown> = Promise.resolve();
  const local = (job: BuildJob, j: number): Promise<BuiltAgent> => {
    const r = here.then(() => buildHere(run.backend, job, run, j)).then(done(null), named(job));
    here = r.catch(() => undefined);
    return r;
  };
  const pool = run.pool;
  if (!pool) {
    const out: BuiltAgent[] = [];
    for (const [j, job] of jobs.entries()) {
      out.push(await local(job, j));
      if (run.aborted?.()) return null;
    }
    return out;
  }
  const threads = buildThreads(run.backend, pool);
  const hereToo = threads > pool.size; // builder 0 is this thread
  const all = Promise.all(
    jobs.map((job, j) => {
      const b = j % threads;
      if (hereToo && b === 0) return local(job, j);
      const w = hereToo ? b - 1 : b;
      return pool
        .build(w, { spec: job.spec, task: job.task, recipe: job.recipe, cacheKey: job.cacheKey }, (p) =>
          run.onProgress?.(j, p),
        )
        .then(done(w), (e: unknown) => {
          if (!pool.broken || run.aborted?.()) return named(job)(e);
          run.onRetry?.(j, message(e));
          return local(job, j);
        });
    }),
  );
  if (!run.aborted) return all;
  const watch = abortWatch(run.aborted);
  try {
    const r = await Promise.race([all, watch.hit]);
    if (r === null) {
      pool.close(); // the workers stop mid-build; the next run starts new ones
      all.catch(() => undefined);
    }
    return r;
  } finally {
    watch.stop();
  }
}
