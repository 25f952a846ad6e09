import { describe, expect, it } from 'vitest';
import { makeDataPool, type AgentSpec } from '../cohort';
import { makeTask, type TaskConfig } from '../tasks';
import { deriveRng } from '../util/rng';
import { parseExperimentConfig } from './config';
import { resolveCohortRef } from './cohortEnv';
import { pretrainingKeys, rlTask, seenPromptShare, stepPrompts, withUnseenPrompts } from './unseenPrompts';

// graded mulw 3,2: the second task kind of the presets in the regime (a space of 100,000, drawn by rejection)
const MULW: TaskConfig = { kind: 'mulw', aDigits: 3, bDigits: 2, aGrade: 'digits' };
const chunk = (id: string, seed: number): AgentSpec => ({
  id,
  family: 'nat-chunk',
  size: 's',
  seed,
  view: 'plain',
  checkpoint: `checkpoints/x/${id}.ckpt`,
  corpus: { draw: 'random', size: 40000, stream: 'b' },
});
const config = (train: Record<string, unknown>, task: TaskConfig = MULW) => {
  const r = parseExperimentConfig(
    {
      name: 'u',
      steps: 1,
      methods: ['gt'],
      task,
      cohort: { agents: [chunk('A', 18), chunk('B', 18)] },
      train,
    },
    { resolveCohort: resolveCohortRef },
  );
  if (!r.ok) throw new Error(r.errors.join('\n'));
  return r.config;
};

/** The engineered `same-family` preset (add d2) with `train`. */
const onAddD2 = (train: Record<string, unknown>) =>
  parseExperimentConfig(
    { name: 'u', steps: 1, methods: ['gt'], cohort: { preset: 'same-family' }, train },
    { resolveCohort: resolveCohortRef },
  );

describe('train.prompts', () => {
  const seen = pretrainingKeys(MULW, [chunk('A', 18)]);

  it('the pool is every problem a natural agent can pretrain on: its training problems and its validation slice', () => {
    const pool = makeDataPool(MULW, 400, 'split');
    expect(seen.size).toBe(pool.training.length + pool.validation.length);
    for (const p of [...pool.training, ...pool.validation]) expect(seen.has(p.key)).toBe(true);
  });

  it("by default ('train') a large share of the prompts are problems the agents pretrained on", () => {
    const task = rlTask(config({ batchPrompts: 64 }));
    // as the trainer draws them: 64 a step, each step from its own stream
    const drawn = Array.from({ length: 40 }, (_, s) => stepPrompts(task, 1, s + 1, 64)).flat();
    const share = drawn.filter((p) => seen.has(p.key)).length / drawn.length;
    expect(share).toBeGreaterThan(0.6); // 71% over gate B's 300 steps: the reason the option exists
  });

  it("'unseen' draws distinct train problems outside every agent's pool, deterministically", () => {
    const task = rlTask(config({ batchPrompts: 64, prompts: 'unseen' }));
    for (let s = 1; s <= 20; s++) {
      const batch = stepPrompts(task, 1, s, 64);
      expect(batch).toHaveLength(64);
      expect(new Set(batch.map((p) => p.key)).size).toBe(64);
      for (const p of batch) {
        expect(seen.has(p.key)).toBe(false);
        expect(task.splitOf(p.key)).toBe('train');
      }
      expect(stepPrompts(task, 1, s, 64)).toEqual(batch);
    }
  });

  it('keeps the sweep cell id of a config that does not name it, and refuses an unknown source by name', () => {
    expect(config({ batchPrompts: 64 }).train).not.toHaveProperty('prompts');
    const r = onAddD2({ prompts: 'fresh' });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors.join('\n')).toMatch(/train\.prompts.*'train' \| 'unseen'/);
  });

  it("refuses 'unseen' before any work when the pools cover the train split, saying what to do", () => {
    // add d2: 10,000 problems; the engineered families' pool holds every train problem
    const r = onAddD2({ prompts: 'unseen' });
    if (!r.ok) throw new Error(r.errors.join('\n'));
    expect(() => rlTask(r.config)).toThrow(
      /train\.prompts 'unseen'.*cover all but 0 .*Use train\.prompts 'train'/s,
    );
  });

  it('gives up with the same message when a drawn task has (almost) nothing unseen', () => {
    const task = makeTask(MULW);
    const all = new Set(task.sampleTrain(deriveRng(0, 'all'), 30000).map((p) => p.key));
    const starved = withUnseenPrompts(
      { ...task, sampleTrain: (rng, n) => task.sampleTrain(rng, n).filter((p) => all.has(p.key)) },
      all,
      8,
    );
    expect(() => starved.sampleTrain(deriveRng(1, 'x'), 8)).toThrow(
      /train\.prompts 'unseen'.*0 of 8 unseen found in 64 draws/s,
    );
  });

  it("measures the share of a run's prompts its agents pretrained on, as the trainer draws them", () => {
    const c = { ...config({ batchPrompts: 64 }), seed: 1 };
    const share = seenPromptShare(c, 300);
    expect(share).toBeGreaterThan(0.68); // gate B's mulw runs: 71%
    expect(share).toBeLessThan(0.74);
    expect(seenPromptShare(config({ batchPrompts: 64, prompts: 'unseen' }))).toBe(0);
    const r = onAddD2({});
    if (!r.ok) throw new Error(r.errors.join('\n'));
    expect(seenPromptShare(r.config)).toBe(1); // the engineered agents pretrained on every add d2 train problem
  });
});
