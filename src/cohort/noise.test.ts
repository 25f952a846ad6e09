// Noisy targets (src/cohort/noise.ts): the chosen share of problems, a wrong answer of the same length with
// the working untouched, in every digit order; deterministic per seed and key; and a `noise` recipe changes
// what is pretrained (another build, other weights) while noise 0 changes nothing.
import { describe, expect, it } from 'vitest';
import { CpuBackend } from '../engine/cpu/cpuBackend';
import { makeTask, renderCompletion, scoreCompletion } from '../tasks';
import { isNoisy, targetCompletion, wrongAnswerCompletion } from './noise';
import { pretrainAgent } from './pretrain';

const task = makeTask({ kind: 'addw', digits: 3 });
const problems = task.heldOut('validation', 2000);

describe('noisy targets', () => {
  it('picks about the asked share of problems, the same ones for a seed, others for another seed', () => {
    const noisy = problems.filter((p) => isNoisy(p, 0.1, 1));
    expect(noisy.length).toBeGreaterThan(150);
    expect(noisy.length).toBeLessThan(250);
    expect(problems.filter((p) => isNoisy(p, 0.1, 1))).toEqual(noisy);
    const other = problems.filter((p) => isNoisy(p, 0.1, 2));
    expect(other.filter((p) => noisy.includes(p)).length).toBeLessThan(60); // independent: about 0.1 x 200
    expect(problems.some((p) => isNoisy(p, 0, 1))).toBe(false);
  });

  it('replaces only the final answer, by a wrong one of the same length, in every view', () => {
    for (const view of ['plain', 'reversed', 'words', 'swap'] as const) {
      for (const p of problems.slice(0, 200)) {
        const right = renderCompletion(p, view);
        const wrong = wrongAnswerCompletion(right, p, view, 7);
        expect(wrong).toHaveLength(right.length);
        const cut = right.lastIndexOf(view === 'words' ? '=' : '#');
        expect(wrong.slice(0, cut + 1)).toBe(right.slice(0, cut + 1)); // the working as is
        expect(scoreCompletion(p, wrong, view)).toBe(false);
        expect(scoreCompletion(p, right, view)).toBe(true);
        expect(wrongAnswerCompletion(right, p, view, 7)).toBe(wrong); // deterministic
      }
    }
    const p = problems[0];
    expect(targetCompletion(renderCompletion(p, 'plain'), p, 'plain', 0, 1)).toBe(
      renderCompletion(p, 'plain'),
    );
  });

  it('a noisy recipe pretrains other weights; noise 0 is the recipe without noise', async () => {
    const be = new CpuBackend();
    const small = { kind: 'addw', digits: 2 } as const;
    const spec = {
      id: 'A',
      family: 'nat-rope',
      size: 'xxs',
      seed: 1,
      corpus: { draw: 'random', size: 50 },
    } as const;
    const base = { maxSteps: 3, evalEvery: 3, valSize: 20, stop: 'budget' } as const;
    const build = async (noise?: number) => {
      const r = await pretrainAgent(
        be,
        { ...spec, recipe: { ...base, ...(noise === undefined ? {} : { noise }) } },
        small,
      );
      const w = await r.agent.model.readParams();
      r.agent.model.free();
      return Buffer.from(w.buffer, w.byteOffset, w.byteLength);
    };
    const [none, zero, half] = [await build(), await build(0), await build(0.5)];
    expect(zero.equals(none)).toBe(true);
    expect(half.equals(none)).toBe(false);
  }, 60_000);
});
