// The `mulw` kind (src/tasks/mulw.ts): a * b with one row of column products per digit of b. Its working
// along every path is checked against arithmetic done here, digit by digit, not against the renderer.
import { describe, expect, it } from 'vitest';
import { extractAnswer, makeTask, renderPrompt, validateTaskConfig, type Problem } from '.';
import { pathCompletion, workPathFeature, workPathsOf } from './workPaths';
import { reverseString, VIEW_MARKER, VIEW_NAMES, type ViewName } from './views';
import { deriveRng } from '../util/rng';

const t22 = makeTask({ kind: 'mulw', aDigits: 2, bDigits: 2 });
const p4736 = t22.problem([47, 36]);

/** The working of a completion in the plain digit order (reversed views: every number turned back). */
function plainWorking(text: string, view: ViewName): string {
  const w = text.slice(0, text.lastIndexOf(VIEW_MARKER[view]));
  return view === 'reversed' ? w.replace(/\d+/g, (d) => reverseString(d)) : w;
}

/**
 * Checks one path's working of x * y against arithmetic: every row's two-digit groups are x's column
 * products by one digit of y with their carries, each row's value is x times that digit, and the values,
 * each shifted by its digit's place, add up to the product.
 */
function checkRows(working: string, x: number, xw: number, y: number, yw: number, topFirst: boolean): void {
  const parts = working.split(';');
  const values = parts.pop()!.split('+').map(Number);
  const ys = [...String(y).padStart(yw, '0')].reverse().map(Number); // units first
  const places = ys.map((_, j) => j);
  if (topFirst) places.reverse();
  expect(parts).toHaveLength(yw);
  expect(values).toHaveLength(yw);
  let total = 0;
  places.forEach((j, r) => {
    const xs = [...String(x).padStart(xw, '0')].reverse().map(Number);
    const groups = parts[r].split(',');
    expect(groups).toHaveLength(xw);
    let carry = 0;
    xs.forEach((xi, k) => {
      expect(groups[k]).toBe(String(xi * ys[j] + carry).padStart(2, '0'));
      carry = Math.floor((xi * ys[j] + carry) / 10);
    });
    expect(values[r]).toBe(x * ys[j]);
    total += values[r] * 10 ** j;
  });
  expect(total).toBe(x * y);
}

describe('mulw', () => {
  it('writes the worked examples of docs/tasks.md along each path', () => {
    expect(renderPrompt(p4736, 'plain')).toBe('47*36=');
    expect(t22.prompt(p4736, 'swap')).toBe('36*47=');
    expect(t22.prompt(p4736, 'words')).toBe('47 times 36?');
    expect(t22.prompt(p4736, 'reversed')).toBe('74*63=');
    expect(pathCompletion(p4736, 'plain', 'chain')).toBe('42,28;21,14;282+141#1692');
    expect(pathCompletion(p4736, 'plain', 'top')).toBe(';21,14;42,28;141+282#1692');
    expect(pathCompletion(p4736, 'plain', 'bya')).toBe('+42,25;24,14;252+144#1692');
    expect(pathCompletion(p4736, 'reversed', 'chain')).toBe('24,82;12,41;282+141#2961');
    expect(workPathsOf('mulw')).toEqual(['chain', 'top', 'bya']);
    expect(workPathFeature(p4736)).toBe('b6');
  });

  it('every path of every view reaches the answer with working that is right column by column', () => {
    const rng = deriveRng(5, 'mulw-test');
    for (const [aD, bD] of [
      [1, 1],
      [2, 1],
      [3, 2],
      [1, 2],
    ]) {
      const t = makeTask({ kind: 'mulw', aDigits: aD, bDigits: bD });
      const ps: Problem[] = [
        ...t.sampleTrain(rng, 40),
        t.problem([10 ** aD - 1, 10 ** bD - 1]), // every carry
        t.problem([0, 0]),
      ];
      for (const p of ps)
        for (const view of VIEW_NAMES)
          for (const path of workPathsOf('mulw')) {
            const text = pathCompletion(p, view, path);
            expect(extractAnswer(text, view, p)).toBe(p.answer);
            const w = plainWorking(text, view);
            const [a, b] = p.values;
            if (path === 'chain') checkRows(w, a, aD, b, bD, false);
            if (path === 'top') checkRows(w.slice(1), a, aD, b, bD, true);
            if (path === 'bya') checkRows(w.slice(1), b, bD, a, aD, false);
            expect(text[0]).toBe(path === 'top' ? ';' : path === 'bya' ? '+' : text[0]);
            expect(/^\d/.test(text)).toBe(path === 'chain');
          }
    }
  });

  it('draws a of 1, 2 and 3 significant digits equally often with aGrade digits', () => {
    const t = makeTask({ kind: 'mulw', aDigits: 3, bDigits: 2, aGrade: 'digits' });
    expect(t.name).toBe('mulw(aDigits=3, bDigits=2, aGrade=digits, evalFraction=0.2)');
    const ps = t.sampleTrain(deriveRng(1, 'mulw-grade'), 3000);
    const len = (a: number): number => (a < 10 ? 1 : String(a).length);
    // one-digit a has 10 x 100 problems, about 720 in train: the distinct draw falls short of its third
    const share = (d: number): number => ps.filter((p) => len(p.values[0]) === d).length / ps.length;
    expect(share(1)).toBeLessThan(0.3);
    for (const d of [2, 3]) expect(Math.abs(share(d) - (1 - share(1)) / 2)).toBeLessThan(0.04);
    const uniform = makeTask({ kind: 'mulw', aDigits: 3, bDigits: 2 }).sampleTrain(deriveRng(1, 'u'), 1000);
    expect(uniform.filter((p) => len(p.values[0]) === 3).length).toBeGreaterThan(850);
  });

  it('refuses bad knobs, naming the field and its range', () => {
    expect(validateTaskConfig({ kind: 'mulw', aDigits: 4 })).toEqual([
      'mulw.aDigits must be an integer in [1, 3], got 4',
    ]);
    expect(validateTaskConfig({ kind: 'mulw', bDigits: 3, cDigits: 2 })).toEqual([
      'unknown field "cDigits" for task kind "mulw"; valid fields: kind, evalFraction, aDigits, bDigits, aGrade',
      'mulw.bDigits must be an integer in [1, 2], got 3',
    ]);
  });
});
