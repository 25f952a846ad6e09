// SCIENCE.md §1: no label-free method may read the ground truth. Proof by experiment: train with every
// ground-truth answer replaced by garbage and get bit-identical parameters after a few steps of co-rl,
// ttrl, intuitor, rent and random; gt (which must read it) does change.
import { beforeAll, describe, expect, it } from 'vitest';
import { CpuBackend } from '../engine/cpu/cpuBackend';
import { makeTask, type Problem, type Task } from '../tasks';
import { DEFAULT_EVAL, DEFAULT_TRAIN } from './config';
import type { RewardMethod } from './rewards';
import { pretrainToy, toyAgent, TOY_TASK } from './toyAgents';
import { CohortTrainer } from './trainer';

const be = new CpuBackend();
const real = makeTask(TOY_TASK);

/** The same task with every problem's answer replaced by a string no completion can produce. */
function garbageTask(t: Task): Task {
  const spoil = (ps: Problem[]): Problem[] => ps.map((p, i) => ({ ...p, answer: `garbage-${i}-${p.key}` }));
  return { ...t, sampleTrain: (rng, n) => spoil(t.sampleTrain(rng, n)), evalSet: (n) => spoil(t.evalSet(n)) };
}

type Toy = Awaited<ReturnType<typeof pretrainToy>>;
let toys: Toy[] = [];
beforeAll(async () => {
  toys = [await pretrainToy({ id: 'A', view: 'plain', seed: 11, steps: 100 }), await pretrainToy({ id: 'B', view: 'words', seed: 12, steps: 100 })];
}, 60_000);

async function paramsAfter(method: RewardMethod, task: Task, steps = 3): Promise<Float32Array[]> {
  const agents = toys.map((t) => toyAgent(be, t));
  const tr = new CohortTrainer(be, agents, {
    method, seed: 21, task, train: { ...DEFAULT_TRAIN, batchPrompts: 8, samples: 4, lr: 3e-3 }, eval: { ...DEFAULT_EVAL, problems: 10 },
  });
  for (let s = 0; s < steps; s++) await tr.step();
  const out = await Promise.all(agents.map((a) => a.model.readParams()));
  tr.dispose();
  return out;
}

describe('label-free methods never read the ground truth', () => {
  for (const method of ['co-rl', 'ttrl', 'intuitor', 'rent', 'random'] as const) {
    it(`${method}: garbage ground truth gives bit-identical parameters`, async () => {
      const a = await paramsAfter(method, real);
      const b = await paramsAfter(method, garbageTask(real));
      const base = toys.map((t) => t.params);
      expect(a.some((p, n) => p.some((x, i) => x !== base[n][i]))).toBe(true); // it did train
      for (let n = 0; n < a.length; n++) expect(Buffer.from(b[n].buffer).equals(Buffer.from(a[n].buffer))).toBe(true);
    });
  }

  it('gt does read it (the garbage changes its training)', async () => {
    const a = await paramsAfter('gt', real);
    const b = await paramsAfter('gt', garbageTask(real));
    expect(a.some((p, n) => p.some((x, i) => x !== b[n][i]))).toBe(true);
  });
});
