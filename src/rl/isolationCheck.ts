// Node-only test helper. The label-isolation check of docs/method.md ("Setting") as reusable pieces (groundTruth.test.ts runs it, and
// groundTruth.mutation.test.ts runs it against a deliberately leaky reward to show it can fail): train a
// toy cohort (a pair, or a trio for co-rl's peer teachers) a few steps on the real task and on a task
// whose problems carry ANOTHER problem's key, values and answer while showing the agents the real
// prompt; a method that reads no truth ends bit-identical.
import { CpuBackend } from '../engine/cpu/cpuBackend';
import type { Problem, Task } from '../tasks';
import { deriveRng } from '../util/rng';
import { KIND_DEFS } from '../tasks/kinds';
import { DEFAULT_EVAL, DEFAULT_TRAIN } from './config';
import { TEACHER_MODES, type TeacherMode } from './coLabeling';
import type { RewardMethod } from './rewards';
import { pretrainToy, toyAgent, type ToyAgent } from './toyAgents';
import { CohortTrainer } from './trainer';

/**
 * The same task, but every problem handed out (train batches and held-out sets) has the truth-bearing
 * fields of a different problem: `key`, `values` and `answer` all describe another problem drawn from a
 * seeded stream, so a leak through any of them yields a plausible but wrong truth. The agents still see
 * the real prompt: `prompt()` renders the problem the scrambled one stands for (and refuses any other).
 * `kind` and `config` are the task's, shared by every problem, and stay.
 */
export function scrambledTask(t: Task): Task {
  const real = new WeakMap<Problem, Problem>();
  const rng = deriveRng(7, 'scramble', t.name);
  const radices = KIND_DEFS[t.config.kind].radices(t.config);
  const other = (p: Problem): Problem => {
    for (;;) {
      const q = t.problem(radices.map((r) => rng.int(r)));
      if (q.key !== p.key && q.answer !== p.answer) return { ...q };
    }
  };
  const spoil = (ps: Problem[]): Problem[] =>
    ps.map((p) => {
      const q = other(p);
      real.set(q, p);
      return q;
    });
  return {
    ...t,
    sampleTrain: (r, n) => spoil(t.sampleTrain(r, n)),
    sampleSplit: (s, r, n) => spoil(t.sampleSplit(s, r, n)),
    heldOut: (s, n) => spoil(t.heldOut(s, n)),
    evalSet: (n) => spoil(t.evalSet(n)),
    prompt: (q, view) => {
      const p = real.get(q);
      if (!p) throw new Error(`scrambledTask: asked to render a problem it did not hand out (${q.key})`);
      return t.prompt(p, view);
    },
  };
}

/** The check as it was before: only `answer` spoiled, key and values left true (a leak through values passed it). */
export function answerOnlyGarbageTask(t: Task): Task {
  const spoil = (ps: Problem[]): Problem[] => ps.map((p, i) => ({ ...p, answer: `garbage-${i}-${p.key}` }));
  return { ...t, sampleTrain: (rng, n) => spoil(t.sampleTrain(rng, n)), evalSet: (n) => spoil(t.evalSet(n)) };
}

/** co-rl's teachers for N >= 3 that build labels from all peers' votes (every teacher but the ring). */
export const PEER_TEACHERS = TEACHER_MODES.filter((m): m is Exclude<TeacherMode, 'ring'> => m !== 'ring');

/**
 * The check's toy cohort: A (plain view, seed 11) and B (words, seed 12), 100 supervised steps each;
 * for n = 3 also C (plain, seed 13), the cohort of co-rl's peer teachers.
 */
export async function isolationToys(n: 2 | 3 = 2): Promise<ToyAgent[]> {
  const recipes = [
    { id: 'A', view: 'plain', seed: 11 },
    { id: 'B', view: 'words', seed: 12 },
    { id: 'C', view: 'plain', seed: 13 },
  ] as const;
  const out: ToyAgent[] = [];
  for (const r of recipes.slice(0, n)) out.push(await pretrainToy({ ...r, steps: 100 }));
  return out;
}

/** One run of the check: every agent's parameters and who each agent's trained labels came from. */
interface IsolationRun {
  params: Float32Array[];
  labelFrom: (string | null)[];
}

/** Parameters of a toy cohort after `steps` steps of `method` (co-rl graded by `teacher`) on `task` (CPU, fixed seed and recipe). */
export async function paramsAfter(
  toys: readonly ToyAgent[],
  method: RewardMethod,
  task: Task,
  teacher: TeacherMode = 'ring',
  steps = 3,
): Promise<IsolationRun> {
  const be = new CpuBackend();
  const agents = toys.map((t) => toyAgent(be, t));
  const tr = new CohortTrainer(be, agents, {
    method,
    seed: 21,
    task,
    train: { ...DEFAULT_TRAIN, batchPrompts: 8, samples: 4, lr: 3e-3, teacher },
    eval: { ...DEFAULT_EVAL, problems: 10 },
  });
  for (let s = 0; s < steps; s++) await tr.step();
  const labelFrom = tr.latestInspection?.labelFrom ?? [];
  await tr.evaluate(); // evaluation renders through the task too
  const params = await Promise.all(agents.map((a) => a.model.readParams()));
  tr.dispose();
  return { params, labelFrom };
}

/**
 * Verdict of the check for one method (and co-rl teacher): did it train at all, are the two runs
 * bit-identical, and where did the trained labels come from (so a test sees the teacher it meant ran).
 */
export async function isolationVerdict(
  toys: readonly ToyAgent[],
  method: RewardMethod,
  real: Task,
  spoiled: Task,
  teacher: TeacherMode = 'ring',
): Promise<{ trained: boolean; identical: boolean; labelFrom: (string | null)[] }> {
  const a = await paramsAfter(toys, method, real, teacher);
  const b = await paramsAfter(toys, method, spoiled, teacher);
  const trained = a.params.some((p, n) => p.some((x, i) => x !== toys[n].params[i]));
  const identical = a.params.every((p, n) => Buffer.from(p.buffer).equals(Buffer.from(b.params[n].buffer)));
  return { trained, identical, labelFrom: a.labelFrom };
}
