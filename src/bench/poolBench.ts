// The pool rows of `npm run bench` (issue 20, "The cohort in parallel"): the wall time of one lock step
// with every model in the bench's thread (1 worker, today's run) and with the models in a pool of N
// worker threads (src/rl/pool; N = the machine's cores, at most one per model), for the default preset's
// lock step (paper-demo's shapes, co-rl + ttrl + gt: 6 models) and the 200k row of the scaling table
// (co-rl, 2 agents). Freshly initialised preset-shaped agents, as the scaling table; the figures depend on
// shapes only. The speedup is the 1-worker median over the N-worker median of the same run, the two sides
// timed in alternating rounds (lockStepPair).
import type { Backend } from '../engine/backend';
import type { NodeBackendName } from '../engine/wasm/nodeBackend';
import { makeNodeBackend } from '../engine/wasm/nodeBackend';
import { releaseDecoders } from '../model/generate';
import { DEFAULT_EVAL, DEFAULT_TRAIN } from '../rl/config';
import { presetShapedAgents } from '../rl/leanFigures';
import { defaultWorkers, withNodePool } from '../rl/pool/nodePool';
import type { RewardMethod } from '../rl/rewards';
import { CohortTrainer, type ModelsFactory } from '../rl/trainer';
import { SCALING_SIZES } from './scaling';

/** One row: the lock step's median wall ms on 1 worker and on `workers`. */
export interface PoolRow {
  row: string;
  engine: string;
  /** Models in the lock step (methods x agents). */
  models: number;
  workers: number;
  oneWorkerMs: number;
  poolMs: number;
  /** oneWorkerMs / poolMs. */
  speedup: number;
  timedSteps: number;
}

interface PoolCase {
  row: string;
  methods: RewardMethod[];
  arch: { nLayer: number; nEmbd: number; nHead: number } | Record<string, never>;
  timed: number;
}

const big = SCALING_SIZES.find((s) => s.label === '200k')!;
/** The rows measured. */
export const POOL_CASES: readonly PoolCase[] = [
  {
    row: 'default preset lock step (paper-demo, co-rl + ttrl + gt)',
    methods: ['co-rl', 'ttrl', 'gt'],
    arch: {},
    timed: 6,
  },
  {
    row: '200k scaling row (co-rl, 2 agents)',
    methods: ['co-rl'],
    arch: { nLayer: big.nLayer, nEmbd: big.nEmbd, nHead: big.nHead },
    timed: 3,
  },
];

/** Untimed lock steps first: a fresh worker's wasm starts in baseline code and tiers up as it runs. */
const WARMUP = 3;
/** Alternating rounds of timed steps on each side (lockStepPair). */
const ROUNDS = 4;

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** The lock step's trainers: one per method, every model in this thread or (`models`) in the pool. */
function lockStepTrainers(be: Backend, c: PoolCase, models?: ModelsFactory): CohortTrainer[] {
  const train = { ...DEFAULT_TRAIN, maxNewTokens: null };
  return c.methods.map((method) => {
    const { agents, task } = presetShapedAgents(be, 'paper-demo', c.arch);
    return new CohortTrainer(
      be,
      agents,
      { method, seed: 3, task, train, eval: { ...DEFAULT_EVAL, problems: 8 } },
      models,
    );
  });
}

/** Wall ms of each of `n` lock steps: the methods side by side when pooled, one after the other when not. */
async function lockSteps(trainers: CohortTrainer[], pooled: boolean, n: number): Promise<number[]> {
  const times: number[] = [];
  for (let s = 0; s < n; s++) {
    const t0 = performance.now();
    if (pooled) await Promise.all(trainers.map((t) => t.step()));
    else for (const t of trainers) await t.step();
    times.push(performance.now() - t0);
  }
  return times;
}

function disposeAll(trainers: CohortTrainer[]): void {
  for (const t of trainers) {
    t.dispose();
    for (const a of t.agents) {
      releaseDecoders(a.model);
      a.model.free();
    }
  }
}

/**
 * Median wall ms of a lock step on 1 worker and in the pool, measured in alternating rounds (WARMUP untimed
 * steps each, then ROUNDS x `timed` steps on each side, one side after the other): a load that comes and
 * goes on a shared machine falls on both sides alike instead of on whichever side ran while it lasted.
 */
async function lockStepPair(
  be: Backend,
  c: PoolCase,
  factory: ModelsFactory | undefined,
): Promise<{ oneWorkerMs: number; poolMs: number }> {
  const one = lockStepTrainers(be, c);
  const pooled = lockStepTrainers(be, c, factory);
  const a: number[] = [];
  const b: number[] = [];
  try {
    await lockSteps(one, false, WARMUP);
    await lockSteps(pooled, !!factory, WARMUP);
    for (let r = 0; r < ROUNDS; r++) {
      a.push(...(await lockSteps(one, false, c.timed)));
      b.push(...(await lockSteps(pooled, !!factory, c.timed)));
    }
  } finally {
    disposeAll(one);
    disposeAll(pooled);
  }
  return { oneWorkerMs: median(a), poolMs: median(b) };
}

/** Every pool row on `engine` with `workers` (default: the machine's cores). */
export async function poolRows(
  engine: NodeBackendName = 'wasm',
  workers = defaultWorkers(),
  log: (s: string) => void = () => {},
): Promise<PoolRow[]> {
  const rows: PoolRow[] = [];
  for (const c of POOL_CASES) {
    const be = await makeNodeBackend(engine);
    try {
      const n = c.methods.length * 2;
      const size = Math.min(workers, n);
      const { oneWorkerMs, poolMs } = await withNodePool(size, engine, n, (f) => lockStepPair(be, c, f));
      const r = {
        row: c.row,
        engine,
        models: n,
        workers: size,
        oneWorkerMs,
        poolMs,
        speedup: oneWorkerMs / poolMs,
        timedSteps: c.timed * ROUNDS,
      };
      log(
        `pool ${engine} ${c.row}: ${oneWorkerMs.toFixed(0)} ms on 1 worker, ${poolMs.toFixed(0)} ms on ${size}: ${r.speedup.toFixed(2)}x`,
      );
      rows.push(r);
    } finally {
      be.destroy();
    }
  }
  return rows;
}
