// Node-only test helper. The label-isolation check of SCIENCE.md §1 as reusable pieces (groundTruth.test.ts runs it, and
// groundTruth.mutation.test.ts runs it against a deliberately leaky reward to show it can fail): train a
// toy cohort a few steps on the real task and on a task whose problems carry ANOTHER problem's key,
// values and answer while showing the agents the real prompt; a method that reads no truth ends bit-identical.
import { CpuBackend } from '../engine/cpu/cpuBackend';
import { deriveRng, type Problem, type Task } from '../tasks';
import { KIND_DEFS } from '../tasks/kinds';
import { DEFAULT_EVAL, DEFAULT_TRAIN } from './config';
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

/** The check's toy cohort: A (plain view, seed 11) and B (words, seed 12), 100 supervised steps each. */
export async function isolationToys(): Promise<ToyAgent[]> {
  return [
    await pretrainToy({ id: 'A', view: 'plain', seed: 11, steps: 100 }),
    await pretrainToy({ id: 'B', view: 'words', seed: 12, steps: 100 }),
  ];
}

/** Parameters of a toy cohort after `steps` steps of `method` on `task` (CPU, fixed seed and recipe). */
export async function paramsAfter(
  toys: readonly ToyAgent[],
  method: RewardMethod,
  task: Task,
  steps = 3,
): Promise<Float32Array[]> {
  const be = new CpuBackend();
  const agents = toys.map((t) => toyAgent(be, t));
  const tr = new CohortTrainer(be, agents, {
    method,
    seed: 21,
    task,
    train: { ...DEFAULT_TRAIN, batchPrompts: 8, samples: 4, lr: 3e-3 },
    eval: { ...DEFAULT_EVAL, problems: 10 },
  });
  for (let s = 0; s < steps; s++) await tr.step();
  await tr.evaluate(); // evaluation renders through the task too
  const out = await Promise.all(agents.map((a) => a.model.readParams()));
  tr.dispose();
  return out;
}

/** Verdict of the check for one method: did it train at all, and are the two runs bit-identical? */
export async function isolationVerdict(
  toys: readonly ToyAgent[],
  method: RewardMethod,
  real: Task,
  spoiled: Task,
): Promise<{ trained: boolean; identical: boolean }> {
  const a = await paramsAfter(toys, method, real);
  const b = await paramsAfter(toys, method, spoiled);
  const trained = a.some((p, n) => p.some((x, i) => x !== toys[n].params[i]));
  const identical = a.every((p, n) => Buffer.from(p.buffer).equals(Buffer.from(b[n].buffer)));
  return { trained, identical };
}
