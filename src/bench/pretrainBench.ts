// The in-page pretraining row of `npm run bench` (issue 20, "The cohort in parallel"): the wall time to build
// the base agents of a preset with two distinct builds (natural-addw-different-arch: nat-rope.s and
// nat-deep.s) with a reduced recipe, one after the other in the bench's thread (1 worker) and side by side on
// 2 workers: the bench's thread and a pool of 1 worker thread, as the page builds in its training worker and
// the pool (src/rl/pool/poolBuilds.ts; the page adds only its IndexedDB store). The pool's start (thread,
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
  /**
   * The most the pool can give: the 1-worker total over the longest build placed alone (builds of unequal
   * size bound the speedup below the worker count).
   */
  bound: number;
}

/** The row on `engine` with `workers` building (2: one per build; this thread and workers - 1 in the pool). */
export async function pretrainRow(
  engine: NodeBackendName = 'wasm',
  workers = 2,
  log: (s: string) => void = () => {},
): Promise<PretrainRow> {
  const be = await makeNodeBackend(engine);
  const task = NATURAL_PRESETS[PRESET].task;
  const jobs: BuildJob[] = naturalPresetSpecs(PRESET).map((s) => ({
    who: `${s.id}: ${s.family}.${s.size}`,
    spec: pretrainSpecOf(s),
    task,
    recipe: PRETRAIN_RECIPE,
    cacheKey: engineCacheKey(buildKey(s, task, PRETRAIN_RECIPE), engineId(be.info)),
  }));
  try {
    let t0 = performance.now();
    const one = (await buildAgents(jobs, { backend: be }))!;
    const oneWorkerMs = performance.now() - t0;
    // a build's `seconds` run from the start of the builds: one after the other, each ends where the next starts
    const buildMs = one.map((b, i) => 1000 * (b.seconds - (i ? one[i - 1].seconds : 0)));
    t0 = performance.now();
    const pool = await startNodePool(Math.max(1, Math.min(workers, jobs.length) - 1), engine); // this thread builds too
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
    const r: PretrainRow = {
      row: `pretrain ${PRESET} (${jobs.length} builds, ${PRETRAIN_RECIPE.maxSteps} steps each)`,
      engine: engineId(be.info),
      builds: jobs.length,
      workers: buildThreads(be, pool),
      oneWorkerMs,
      poolMs,
      poolStartMs,
      buildMs,
      bound: buildMs.reduce((a, b) => a + b, 0) / Math.max(...buildMs),
      speedup: oneWorkerMs / poolMs,
      bytesIdentical,
    };
    log(
      `${r.row} on ${r.engine}: ${oneWorkerMs.toFixed(0)} ms on 1 worker, ${poolMs.toFixed(0)} ms on ${r.workers} (+${poolStartMs.toFixed(0)} ms to start them): ${r.speedup.toFixed(2)}x of at most ${r.bound.toFixed(2)}x (builds ${buildMs.map((m) => m.toFixed(0)).join(' + ')} ms), bytes ${bytesIdentical ? 'identical' : 'DIFFER'}`,
    );
    return r;
  } finally {
    be.destroy();
  }
}
