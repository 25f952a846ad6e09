import { describe, expect, it } from 'vitest';
import { bytesOf, goodRows } from '../../../tasks/file/testFiles';
import { previewTaskFile, SHOWN_PROBLEMS, SHOWN_ROWS } from './preview';

describe('previewTaskFile', () => {
  it('shows the counts per split (train in its two halves), the first rows and the vocabulary', () => {
    const p = previewTaskFile('t.jsonl', bytesOf(goodRows(1000)), 'exact');
    if (!p.ok) throw new Error(p.problems.join('; '));
    const c = p.counts;
    expect(c.pretrain + c.rl + c.validation + c.test).toBe(1000);
    expect(c.pretrain).toBeGreaterThan(0);
    expect(c.rl).toBeGreaterThan(0);
    expect(p.rows).toHaveLength(SHOWN_ROWS);
    expect(p.rows[0]).toEqual({ prompt: 'q0?', answer: '0', working: '0%7', line: 1 });
    expect(p.vocabulary).toContain('⟨pad⟩');
    expect(p.vocabulary).toContain('#');
  });
  it('lists the first problems of a refused file and counts the rest', () => {
    const rows = goodRows(1000).map((r, i) => (i < 300 ? 'not json' : r));
    const p = previewTaskFile('bad.jsonl', bytesOf(rows), 'exact');
    if (p.ok) throw new Error('loaded');
    expect(p.problems).toHaveLength(SHOWN_PROBLEMS);
    expect(p.problems[0]).toMatch(/^line 1: not JSON/);
    expect(p.more).toBe(100);
  });
});
