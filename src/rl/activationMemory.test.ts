// Activation memory does not grow with the number of methods (or models) of a lock step. Every trained copy
// and every frozen reference copy hands its activation buffers back to the backend once its backward (or,
// for a reference, its forward) is done, so the next model reuses them. Before, each model kept its own
// sets: the registered test's five methods of two agents at 512 rows took the wasm engine past 4 GiB.
import { beforeAll, describe, expect, it } from 'vitest';
import { CpuBackend } from '../engine/cpu/cpuBackend';
import type { Tensor } from '../engine/tensor';
import { makeTask } from '../tasks';
import { DEFAULT_EVAL, DEFAULT_TRAIN, type ExperimentConfig } from './config';
import type { RewardMethod } from './rewards';
import { runExperiment } from './experiment';
import { toyAgent, TOY_TASK, toyCohort, type ToyAgent } from './toyAgents';

const task = makeTask(TOY_TASK);
let toys: ToyAgent[] = [];
beforeAll(async () => {
  toys = await toyCohort(40);
}, 60_000);

/** The labels src/model/activations.ts gives a forward/backward set's buffers. */
const ACTIVATION = /^(h\d+\.|lnf|logits$|dlogits$|encoded$|dres$|dbtc$|datty$|dqkvr?$|dfchg?$)/;

/** Peak bytes of live activation buffers over a run of `methods` (a CPU backend that counts them). */
async function peakActivationBytes(methods: RewardMethod[], rowsPerPass?: number): Promise<number> {
  const be = new CpuBackend();
  const live = new Map<Tensor, number>();
  let now = 0;
  let peak = 0;
  const alloc = be.alloc.bind(be);
  const free = be.free.bind(be);
  be.alloc = (shape, dtype, label) => {
    const t = alloc(shape, dtype, label);
    if (label && ACTIVATION.test(label)) {
      live.set(t, t.size * 4);
      now += t.size * 4;
      peak = Math.max(peak, now);
    }
    return t;
  };
  be.free = (t) => {
    now -= live.get(t) ?? 0;
    live.delete(t);
    free(t);
  };
  const config: ExperimentConfig = {
    name: 'activation-memory',
    seed: 3,
    steps: 2,
    methods,
    cohort: { preset: 'toy' },
    task: TOY_TASK,
    train: {
      ...DEFAULT_TRAIN,
      batchPrompts: 4,
      samples: 4,
      lr: 1e-3,
      beta: 0.05,
      innerEpochs: 2,
      rowsPerPass,
    },
    eval: { ...DEFAULT_EVAL, every: 0, problems: 6, ensembleSamples: 2 },
  };
  const r = await runExperiment(be, config, async () => toys.map((t) => toyAgent(be, t)), { task });
  expect(r.error).toBeNull();
  return peak;
}

describe('activation memory over the methods of a lock step', () => {
  it('five methods hold no more activation memory at their peak than one', async () => {
    const one = await peakActivationBytes(['gt']);
    const five = await peakActivationBytes(['gt', 'co-rl', 'ttrl', 'random', 'co-rl-frozen']);
    expect(one).toBeGreaterThan(0); // the counter sees the sets
    expect(five).toBe(one);
  }, 120_000);

  it('train.rowsPerPass bounds it by the pass: 16 rows in passes of 4 hold a quarter of one pass of 16', async () => {
    const one = await peakActivationBytes(['gt', 'random']);
    const quarter = await peakActivationBytes(['gt', 'random'], 4);
    // every forward of the step (the agents', their frozen copies', the second inner epoch's) goes in passes
    expect(quarter).toBe(one / 4);
  }, 120_000);
});
