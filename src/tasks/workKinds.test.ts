// The working task kinds (addw, muladdw): documented renderings, working lengths in the 10-30 token
// range, and that grading reads only the answer after the last marker.
import { describe, expect, it } from 'vitest';
import { deriveRng } from '../util/rng';
import { makeTask, renderCompletion, renderPrompt, scoreCompletion } from './task';
import { extractAnswer, VIEW_MARKER, VIEW_NAMES } from './views';

describe('working task kinds', () => {
  it('addw writes the carry chain column by column, units first', () => {
    const t = makeTask({ kind: 'addw', digits: 3 });
    const p = t.problem([372, 459]);
    expect(p.key).toBe('addw:3:372+459');
    expect(VIEW_NAMES.map((v) => [renderPrompt(p, v), renderCompletion(p, v)])).toEqual([
      ['372+459=', '011,113,108#831'],
      ['459+372=', '011,113,108#831'],
      ['372 plus 459?', '011,113,108=831'],
      ['273+954=', '011,131,180#138'],
    ]);
    expect(renderCompletion(makeTask({ kind: 'addw', digits: 4 }).problem([9999, 1]), 'plain')).toBe(
      '010,110,110,110#10000',
    );
  });

  it('muladdw writes the column products with carries, then the sum', () => {
    const t = makeTask({ kind: 'muladdw' });
    const p = t.problem([47, 6, 38]);
    expect(p.answer).toBe('320');
    expect([renderPrompt(p, 'plain'), renderCompletion(p, 'plain')]).toEqual([
      '47*6+38=',
      '42,28;282+38#320',
    ]);
    expect(renderCompletion(p, 'words')).toBe('42,28;282+38=320');
    expect(renderCompletion(makeTask({ kind: 'muladdw', aDigits: 3 }).problem([905, 7, 3]), 'plain')).toBe(
      '35,03,63;6335+03#6338',
    );
  });

  it('working before the answer is 10 to 30 characters (one token each with digit tokens)', () => {
    for (const [cfg, lo, hi] of [
      [{ kind: 'addw', digits: 3 }, 11, 11],
      [{ kind: 'addw', digits: 4 }, 15, 15],
      [{ kind: 'muladdw', aDigits: 2, cDigits: 2 }, 12, 12],
      [{ kind: 'muladdw', aDigits: 3, cDigits: 3 }, 17, 17],
    ] as const) {
      const t = makeTask(cfg);
      for (const p of t.sampleTrain(deriveRng(1, 'len'), 300)) {
        const c = renderCompletion(p, 'plain');
        const work = c.slice(0, c.lastIndexOf(VIEW_MARKER.plain)).length;
        expect(work, `${p.key}: ${c}`).toBeGreaterThanOrEqual(lo);
        expect(work, `${p.key}: ${c}`).toBeLessThanOrEqual(hi);
      }
    }
  });

  it('only the answer after the last marker is graded; wrong working with the right answer still scores', () => {
    const p = makeTask({ kind: 'addw', digits: 3 }).problem([372, 459]);
    expect(scoreCompletion(p, '999,999,999#831', 'plain')).toBe(true);
    expect(scoreCompletion(p, '011,113,108#832', 'plain')).toBe(false);
    expect(extractAnswer('011,113,108', 'plain', 'addw')).toBeNull();
    expect(scoreCompletion(p, '011,113,108=831', 'words')).toBe(true);
  });
});
