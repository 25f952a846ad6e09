// The in-page pretraining row of `npm run bench` (issue 20, "The cohort in parallel"): the wall time to build
// the base agents of a preset with two distinct builds (natural-addw-different-arch: nat-rope.s and
// nat-deep.s) with a reduced recipe, one after the other in the bench's thread (1 worker) and side by side on
// 2 workers: the bench's thread and a pool of 1 worker thread, as the page builds in its training worker and
// the pool (src/rl/pool/poolBuilds.ts, rung by rung; the page adds only its IndexedDB store). The pool's start (thread,
// engine) is timed apart; the two builds' bytes are compared (they must be the same).
import { buildKey, pretrainSpecOf } from '../cohort/axes';
import { engineCacheKey } from '../cohort/cacheEntry';
import type { PretrainRecipe } from '../cohort/familySpec';
import { NATURAL_PRESETS, naturalPresetSpecs } from '../cohort/naturalPresets';
import { engineId } from '../engine/backend';
import { makeNodeBackend, type NodeBackendName } from '../engine/wasm/nodeBackend';
import { startNodePool } from '../rl/pool/nodePool';
import { buildAgents, buildThreads, type BuildJob } from '../rl/pool/poolBuilds';

const PRESET = 'natural-addw-different-arch';
/** Short enough for seconds a build, long enough that the compute outweighs the messages. */
export const PRETRAIN_RECIPE: Partial<PretrainRecipe> = {
  maxSteps: 120,
  evalEvery: 40,
  valSize: 32,
  bandSamples: 1,
};

export interface PretrainRow {
  row: string;
  engine: string;
  builds: number;
  workers: number;
  oneWorkerMs: number;
  poolMs: number;
  /** Starting the pool's workers (not in poolMs). */
  poolStartMs: number;
  /** oneWorkerMs / poolMs. */
  speedup: number;
  /** The pool's bytes equal the 1-worker bytes, build by build. */
  bytesIdentical: boolean;
  /** Each build's ms in the 1-worker run (one after the other). */
  buildMs: number[];
  /** Rungs run in the 1-worker run (every build's, in turn). */
  rungs: number;
  /**
   * About the most the pool can give: the 1-worker total over the busiest builder's share when the rungs are
   * packed on the builders largest first (rungs are indivisible: 3 equal rungs on 2 builders give 1.5x).
   */
  bound: number;
}

/** What a row builds: a natural preset's distinct builds, with a recipe (default: the short one above). */
export interface PretrainWork {
  preset: string;
  recipe: Partial<PretrainRecipe>;
}

/**
 * The `pretrain-ladder` row's work: the natural recipe itself (a corpus ladder of 6,000-step rungs, each kept
 * or not by the plateau rule) on a preset with one build, whose rungs alone can spread over the builders.
 */
export const LADDER_WORK: PretrainWork = { preset: 'natural-addw-seed-only', recipe: {} };

/** The busiest builder's ms when rungs of `ms` are packed on `builders`, each on the least loaded, largest first. */
export function packedMs(ms: readonly number[], builders: number): number {
  const load = new Array<number>(Math.max(1, builders)).fill(0);
  for (const m of [...ms].sort((a, b) => b - a)) load[load.indexOf(Math.min(...load))] += m;
  return Math.max(...load);
}

/** The row on `engine` with `workers` building (this thread and workers - 1 in the pool). */
export async function pretrainRow(
  engine: NodeBackendName = 'wasm',
  workers = 2,
  log: (s: string) => void = () => {},
  work: PretrainWork = { preset: PRESET, recipe: PRETRAIN_RECIPE },
): Promise<PretrainRow> {
  const be = await makeNodeBackend(engine);
  const task = NATURAL_PRESETS[work.preset].task;
  const jobs: BuildJob[] = [];
  for (const s of naturalPresetSpecs(work.preset)) {
    const cacheKey = engineCacheKey(buildKey(s, task, work.recipe), engineId(be.info));
    if (jobs.some((j) => j.cacheKey === cacheKey)) continue; // agents of one build (seed-only) are built once
    jobs.push({
      who: `${s.id}: ${s.family}.${s.size}`,
      spec: pretrainSpecOf(s),
      task,
      recipe: work.recipe,
      cacheKey,
    });
  }
  try {
    let t0 = performance.now();
    const rungEnds: number[] = []; // one thread runs the rungs in turn: each ends where the next starts
    const one = (await buildAgents(jobs, {
      backend: be,
      onProgress: (_, p) => void (p.step === p.maxSteps && !p.done && rungEnds.push(performance.now() - t0)),
    }))!;
    const oneWorkerMs = performance.now() - t0;
    const rungMs = rungEnds.map((t, i) => t - (i ? rungEnds[i - 1] : 0));
    // a build's `seconds` run from the start of the builds: one after the other, each ends where the next starts
    const buildMs = one.map((b, i) => 1000 * (b.seconds - (i ? one[i - 1].seconds : 0)));
    t0 = performance.now();
    const pool = await startNodePool(Math.max(1, Math.min(workers, rungMs.length) - 1), engine); // this thread builds too
    const poolStartMs = performance.now() - t0;
    let poolMs: number;
    let bytesIdentical: boolean;
    try {
      t0 = performance.now();
      const two = (await buildAgents(jobs, { backend: be, pool }))!;
      poolMs = performance.now() - t0;
      bytesIdentical = two.every((b, i) => Buffer.from(b.bytes).equals(Buffer.from(one[i].bytes)));
    } finally {
      pool.close();
    }
    const r0workers = buildThreads(be, pool);
    const r: PretrainRow = {
      row: `pretrain ${work.preset} (${jobs.length} build${jobs.length > 1 ? 's' : ''}, ${work.recipe.maxSteps ? `${work.recipe.maxSteps} steps a rung` : 'the natural recipe'})`,
      engine: engineId(be.info),
      builds: jobs.length,
      workers: buildThreads(be, pool),
      oneWorkerMs,
      poolMs,
      poolStartMs,
      buildMs,
      rungs: rungMs.length,
      bound: oneWorkerMs / packedMs(rungMs, r0workers),
      speedup: oneWorkerMs / poolMs,
      bytesIdentical,
    };
    log(
      `${r.row} on ${r.engine}: ${oneWorkerMs.toFixed(0)} ms on 1 worker, ${poolMs.toFixed(0)} ms on ${r.workers} (+${poolStartMs.toFixed(0)} ms to start them): ${r.speedup.toFixed(2)}x of about ${r.bound.toFixed(2)}x at most (builds ${buildMs.map((m) => m.toFixed(0)).join(' + ')} ms, ${r.rungs} rungs), bytes ${bytesIdentical ? 'identical' : 'DIFFER'}`,
    );
    return r;
  } finally {
    be.destroy();
  }
}
