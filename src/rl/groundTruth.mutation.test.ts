// Mutation check of the label-isolation test (groundTruth.test.ts): plant a leak of the ground truth
// through the problems' `values` into the ttrl (and co-rl-frozen) reward and show that the check FAILS on it (the scrambled
// task changes the leaky run's parameters), while the check as it was before (only `answer` spoiled)
// passes it unnoticed, and the same check passes the real, unmutated reward code.
// The leak: rollouts (which are handed the problems, to render prompts) copy them to a side channel, and
// the mutated ttrl reward reads their values and pays 1 for the sum a + b, i.e. the true answer.
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { makeTask, type Problem } from '../tasks';
import { answerOnlyGarbageTask, isolationToys, isolationVerdict, scrambledTask } from './isolationCheck';
import { TOY_TASK, type ToyAgent } from './toyAgents';

const leak = vi.hoisted(() => ({ on: false, method: 'ttrl', problems: [] as Problem[] }));

vi.mock('./rollout', async (importOriginal) => {
  const orig = await importOriginal<typeof import('./rollout')>();
  return {
    ...orig,
    rolloutCohort: (...args: Parameters<typeof orig.rolloutCohort>) => {
      leak.problems = [...args[1]];
      return orig.rolloutCohort(...args);
    },
  };
});

vi.mock('./methodRewards', async (importOriginal) => {
  const orig = await importOriginal<typeof import('./methodRewards')>();
  return {
    ...orig,
    stepRewards: (...args: Parameters<typeof orig.stepRewards>) => {
      const res = orig.stepRewards(...args);
      const [x] = args;
      if (!leak.on || x.method !== leak.method) return res;
      const truth = leak.problems.map((p) => String(p.values[0] + p.values[1])); // the planted leak
      const rewards = x.cohort.answers.map((a) =>
        a.map((ans, i) => (ans === truth[Math.floor(i / x.cohort.K)] ? 1 : 0)),
      );
      return { ...res, rewards };
    },
  };
});

const real = makeTask(TOY_TASK);
let toys: ToyAgent[] = [];
beforeAll(async () => {
  toys = await isolationToys();
}, 60_000);

describe("mutation check: a ground-truth leak through the problems' values", () => {
  it('without the leak the check passes (ttrl bit-identical under the scramble)', async () => {
    leak.on = false;
    const v = await isolationVerdict(toys, 'ttrl', real, scrambledTask(real));
    expect(v).toEqual({ trained: true, identical: true });
  });

  it('with the leak planted the check fails (the scramble changes the leaky ttrl run)', async () => {
    leak.on = true;
    const v = await isolationVerdict(toys, 'ttrl', real, scrambledTask(real));
    leak.on = false;
    expect(v.trained).toBe(true);
    expect(v.identical).toBe(false);
  });

  it('the same leak planted in the co-rl-frozen control fails the check too', async () => {
    leak.on = true;
    leak.method = 'co-rl-frozen';
    const v = await isolationVerdict(toys, 'co-rl-frozen', real, scrambledTask(real));
    leak.on = false;
    leak.method = 'ttrl';
    expect(v.trained).toBe(true);
    expect(v.identical).toBe(false);
  });

  it('the older check (only answers spoiled) let the same leak through', async () => {
    leak.on = true;
    const v = await isolationVerdict(toys, 'ttrl', real, answerOnlyGarbageTask(real));
    leak.on = false;
    expect(v.identical).toBe(true);
  });
});
