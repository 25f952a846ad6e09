// The peer teachers inside the real trainer (docs/method.md ("Extensions from the public code")): with three toy agents each teacher trains,
// never reads the ground truth (garbage truth gives bit-identical parameters), and every label-based
// step record carries the co-labeling diagnostics; two agents refuse a peer teacher.
import { beforeAll, describe, expect, it } from 'vitest';
import { CpuBackend } from '../engine/cpu/cpuBackend';
import { makeTask, type Problem, type Task } from '../tasks';
import type { TeacherMode } from './coLabeling';
import { DEFAULT_EVAL, DEFAULT_TRAIN } from './config';
import type { StepRecord } from './records';
import type { RewardMethod } from './rewards';
import { pretrainToy, toyAgent, TOY_TASK } from './toyAgents';
import { CohortTrainer } from './trainer';

const be = new CpuBackend();
const real = makeTask(TOY_TASK);
const garbage = (t: Task): Task => {
  const spoil = (ps: Problem[]): Problem[] => ps.map((p, i) => ({ ...p, answer: `garbage-${i}` }));
  return { ...t, sampleTrain: (rng, n) => spoil(t.sampleTrain(rng, n)), evalSet: (n) => spoil(t.evalSet(n)) };
};

type Toy = Awaited<ReturnType<typeof pretrainToy>>;
let toys: Toy[] = [];
beforeAll(async () => {
  toys = [
    await pretrainToy({ id: 'A', view: 'plain', seed: 11, steps: 100 }),
    await pretrainToy({ id: 'B', view: 'words', seed: 12, steps: 100 }),
    await pretrainToy({ id: 'C', view: 'plain', seed: 13, steps: 100 }),
  ];
}, 90_000);

async function run(method: RewardMethod, teacher: TeacherMode, task: Task, steps = 2) {
  const agents = toys.map((t) => toyAgent(be, t));
  const tr = new CohortTrainer(be, agents, {
    method,
    seed: 5,
    task,
    train: { ...DEFAULT_TRAIN, batchPrompts: 8, samples: 4, lr: 3e-3, teacher },
    eval: { ...DEFAULT_EVAL, problems: 10 },
  });
  const records: StepRecord[] = [];
  for (let s = 0; s < steps; s++) records.push(await tr.step());
  const params = await Promise.all(agents.map((a) => a.model.readParams()));
  tr.dispose();
  return { records, params };
}

const same = (a: Float32Array[], b: Float32Array[]) =>
  a.every((p, n) => Buffer.from(p.buffer).equals(Buffer.from(b[n].buffer)));

describe('peer teachers in the trainer', () => {
  for (const teacher of ['strict_majority', 'self_plus_peers', 'union'] as const) {
    it(`${teacher}: trains, ignores the ground truth, and logs its diagnostics`, async () => {
      const a = await run('co-rl', teacher, real);
      const b = await run('co-rl', teacher, garbage(real));
      expect(
        same(
          a.params,
          toys.map((t) => t.params),
        ),
      ).toBe(false); // it did train
      expect(same(a.params, b.params)).toBe(true);
      const co = a.records[0].coLabeling!;
      expect(co.teacher).toBe(teacher);
      expect(co.agents.map((x) => x.agent)).toEqual(['A', 'B', 'C']);
      for (const x of co.agents) expect(x.supervisionFraction).toBeGreaterThanOrEqual(0);
      // the garbage truth is never in the supervision: the diagnostic does read the truth (measurement)
      expect(
        b.records[0].coLabeling!.agents.every(
          (x) => x.supervisionContainsTruth === null || x.supervisionContainsTruth === 0,
        ),
      ).toBe(true);
    }, 60_000);
  }

  it('the ring default logs teacher ring; union accepts at least as many prompts as strict_majority', async () => {
    const ring = await run('co-rl', 'ring', real, 1);
    expect(ring.records[0].coLabeling!.teacher).toBe('ring');
    const strict = await run('co-rl', 'strict_majority', real, 1);
    const union = await run('co-rl', 'union', real, 1);
    strict.records[0].coLabeling!.agents.forEach((s, n) => {
      expect(union.records[0].coLabeling!.agents[n].supervisionFraction).toBeGreaterThanOrEqual(
        s.supervisionFraction,
      );
    });
  }, 60_000);

  it('label-less methods carry no co-labeling record; ttrl does', async () => {
    expect((await run('random', 'ring', real, 1)).records[0].coLabeling).toBeUndefined();
    expect(
      (await run('ttrl', 'ring', real, 1)).records[0].coLabeling!.agents[0].supervisionFraction,
    ).toBeGreaterThan(0);
  }, 60_000);

  it('two agents refuse a peer teacher with the reason', () => {
    const agents = toys.slice(0, 2).map((t) => toyAgent(be, t));
    expect(
      () =>
        new CohortTrainer(be, agents, {
          method: 'co-rl',
          seed: 1,
          task: real,
          train: { ...DEFAULT_TRAIN, teacher: 'union' },
          eval: DEFAULT_EVAL,
        }),
    ).toThrow(/needs N >= 3 agents/);
  });
});
