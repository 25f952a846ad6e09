// Mutation check of the label-isolation test (groundTruth.test.ts): plant a leak of the ground truth
// through the problems' `values` and show that the check FAILS on it (the scrambled task changes the
// leaky run's parameters), while the check as it was before (only `answer` spoiled) passes it unnoticed,
// and the same check passes the real, unmutated reward code. Three leaks, each switched on alone: into the
// ttrl reward, into the co-rl-frozen control's reward, and into co-rl's peer teachers (strict_majority,
// self_plus_peers, union; 3 agents), which then also pay for the true answer.
// The leak: rollouts (which are handed the problems, to render prompts) copy them to a side channel, and
// the mutated reward reads their values and pays 1 for the sum a + b, i.e. the true answer.
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { makeTask, type Problem } from '../tasks';
import {
  answerOnlyGarbageTask,
  isolationToys,
  isolationVerdict,
  PEER_TEACHERS,
  scrambledTask,
} from './isolationCheck';
import { TOY_TASK, type ToyAgent } from './toyAgents';

const leak = vi.hoisted(() => ({ on: false, method: 'ttrl', teacher: false, problems: [] as Problem[] }));
const truthOf = (p: Problem): string => String(p.values[0] + p.values[1]);

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
      const truth = leak.problems.map(truthOf); // the planted leak
      const rewards = x.cohort.answers.map((a) =>
        a.map((ans, i) => (ans === truth[Math.floor(i / x.cohort.K)] ? 1 : 0)),
      );
      return { ...res, rewards };
    },
  };
});

vi.mock('./coLabeling', async (importOriginal) => {
  const orig = await importOriginal<typeof import('./coLabeling')>();
  return {
    ...orig,
    peerTeacherRewards: (...args: Parameters<typeof orig.peerTeacherRewards>) => {
      const res = orig.peerTeacherRewards(...args);
      if (!leak.teacher) return res;
      const [answers, , K] = args;
      const truth = leak.problems.map(truthOf); // the planted leak: the true answer pays too
      const rewards = answers.map((a, n) =>
        a.map((ans, i) => (ans === truth[Math.floor(i / K)] ? 1 : res.rewards[n][i])),
      );
      return { ...res, rewards };
    },
  };
});

const real = makeTask(TOY_TASK);
let trio: ToyAgent[] = [];
let toys: ToyAgent[] = []; // the pair A, B of the trio
beforeAll(async () => {
  trio = await isolationToys(3);
  toys = trio.slice(0, 2);
}, 90_000);

describe("mutation check: a ground-truth leak through the problems' values", () => {
  it('without the leak the check passes (ttrl bit-identical under the scramble)', async () => {
    leak.on = false;
    const v = await isolationVerdict(toys, 'ttrl', real, scrambledTask(real));
    expect(v).toMatchObject({ trained: true, identical: true });
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

describe("mutation check: a ground-truth leak into co-rl's peer teachers (3 agents)", () => {
  for (const teacher of PEER_TEACHERS) {
    it(`with the leak planted in ${teacher} the check fails (the scramble changes the leaky run)`, async () => {
      leak.teacher = true;
      const v = await isolationVerdict(trio, 'co-rl', real, scrambledTask(real), teacher);
      leak.teacher = false;
      expect(v).toEqual({
        trained: true,
        identical: false,
        labelFrom: Array(3).fill(`peers (${teacher})`),
      });
    });
  }

  it('the older check (only answers spoiled) let the same teacher leak through', async () => {
    leak.teacher = true;
    const v = await isolationVerdict(trio, 'co-rl', real, answerOnlyGarbageTask(real), 'union');
    leak.teacher = false;
    expect(v.identical).toBe(true);
  });
});
