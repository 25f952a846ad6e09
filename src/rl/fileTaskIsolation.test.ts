// Label isolation on a file task (docs/method.md "Setting"; issue 21): the scrambled-truth check of
// src/rl/groundTruth.test.ts on a task read from a file, and its mutation check: a leak planted through
// the row (the reward looks up the problem's row in the loaded file and pays its answer) makes it fail.
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { Problem } from '../tasks';
import { makeTask, type TaskConfig } from '../tasks';
import { isolationVerdict, scrambledTask } from './isolationCheck';
import { pretrainToy, type ToyAgent } from './toyAgents';
import { fileOf } from '../tasks/file/kind';
import { loadTaskFile } from '../tasks/file/load';
import { registerTaskFile } from '../tasks/file/registry';
import { bytesOf } from '../tasks/file/testFiles';

const leak = vi.hoisted(() => ({ on: false, problems: [] as Problem[] }));

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
      if (!leak.on || x.method !== 'ttrl') return res;
      // the planted leak: the row of each problem, read from the loaded file
      const truth = leak.problems.map((p) => fileOf(p.config).rows[p.values[0]].answer);
      const rewards = x.cohort.answers.map((a) =>
        a.map((ans, i) => (ans === truth[Math.floor(i / x.cohort.K)] ? 1 : 0)),
      );
      return { ...res, rewards };
    },
  };
});

/** A file of 625 one- and two-digit sums "a+b=" (a, b < 25). */
function sumsTask(): TaskConfig {
  const rows: string[] = [];
  for (let a = 0; a < 25; a++)
    for (let b = 0; b < 25; b++) rows.push(JSON.stringify({ prompt: `${a}+${b}=`, answer: String(a + b) }));
  const f = loadTaskFile(bytesOf(rows), { name: 'sums.jsonl' });
  registerTaskFile(f);
  return { kind: 'file', hash: f.hash };
}

const config = sumsTask();
const real = makeTask(config);
let toys: ToyAgent[] = [];
beforeAll(async () => {
  toys = [
    await pretrainToy({ id: 'A', view: 'plain', seed: 11, steps: 100 }, config),
    await pretrainToy({ id: 'B', view: 'plain', seed: 12, steps: 100 }, config),
  ];
}, 90_000);

describe('label isolation on a file task', () => {
  for (const method of ['co-rl', 'ttrl'] as const)
    it(`${method}: scrambled truth gives bit-identical parameters`, async () => {
      const v = await isolationVerdict(toys, method, real, scrambledTask(real));
      expect(v.trained).toBe(true);
      expect(v.identical).toBe(true);
    }, 60_000);
  it('gt does read the truth (the scramble changes its training)', async () => {
    const v = await isolationVerdict(toys, 'gt', real, scrambledTask(real));
    expect(v.trained).toBe(true);
    expect(v.identical).toBe(false);
  }, 60_000);
  it('a leak planted through the row fails the check', async () => {
    leak.on = true;
    try {
      const v = await isolationVerdict(toys, 'ttrl', real, scrambledTask(real));
      expect(v.trained).toBe(true);
      expect(v.identical).toBe(false);
    } finally {
      leak.on = false;
    }
  }, 60_000);
});
