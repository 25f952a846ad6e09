// Working paths (src/tasks/workPaths.ts): every path of addw and muladdw is correct working, read back by
// an independent checker that re-derives the answer from the working alone and checks it against the
// answer after the marker and the ground truth, in both digit orders and on random problems; `chain` is
// the kind's own completion byte for byte; a path another kind lacks is refused by name.
import { describe, expect, it } from 'vitest';
import { deriveRng } from '../util/rng';
import { makeTask, renderCompletion, scoreCompletion, taskAlphabet, type Problem, type ViewName } from '.';
import { pathCompletion, workPathsOf } from './workPaths';

const rev = (s: string): string => [...s].reverse().join('');
/** A number as the view writes it, read back. */
const read = (s: string, view: ViewName): number => Number(view === 'reversed' ? rev(s) : s);
/** Digits of a number, least significant first, from a list of per-column values. */
const fromColumns = (cols: number[]): number => cols.reduce((acc, d, i) => acc + d * 10 ** i, 0);

/** The answer the working of `text` (a completion along `path`) implies, or a thrown error if malformed. */
function answerFromWorking(p: Problem, text: string, path: string, view: ViewName): number {
  const working = text.slice(0, text.lastIndexOf('#'));
  const [a, b, c] = p.values;
  if (p.kind === 'addw') {
    if (path === 'chain') {
      // each group: carry in, then the two-digit column sum; the sum's tens are the next carry
      const groups = working.split(',');
      let carry = 0;
      const digits: number[] = [];
      groups.forEach((g, i) => {
        expect(Number(g[0])).toBe(carry);
        const s = read(g.slice(1), view);
        expect(s).toBe((Math.floor(a / 10 ** i) % 10) + (Math.floor(b / 10 ** i) % 10) + carry);
        digits.push(s % 10);
        carry = Math.floor(s / 10);
      });
      return fromColumns(digits) + carry * 10 ** groups.length;
    }
    expect(working[0]).toBe(',');
    const parts = working.slice(1).split(',');
    const carries = [0, ...[...parts.pop()!].map(Number)];
    const sums = parts.map((g) => read(g, view));
    sums.forEach((s, i) => expect(s).toBe((Math.floor(a / 10 ** i) % 10) + (Math.floor(b / 10 ** i) % 10)));
    const digits = sums.map((s, i) => (s + carries[i]) % 10);
    carries.slice(1).forEach((k, i) => expect(k).toBe(Math.floor((sums[i] + carries[i]) / 10)));
    const top = Math.floor((sums[sums.length - 1] + carries[sums.length - 1]) / 10);
    return fromColumns(digits) + top * 10 ** sums.length;
  }
  if (path === 'addin') {
    expect(working[0]).toBe('+');
    const groups = working.slice(1).split('+');
    let carry = 0;
    const digits = groups.map((g, i) => {
      const s = read(g, view);
      expect(s).toBe((Math.floor(a / 10 ** i) % 10) * b + (Math.floor(c / 10 ** i) % 10) + carry);
      carry = Math.floor(s / 10);
      return s % 10;
    });
    return fromColumns(digits) + carry * 10 ** groups.length;
  }
  // chain and partials end in "product+addend", the product re-derived from the column groups
  const [head, sum] = (path === 'partials' ? working.slice(1) : working).split(';');
  if (path === 'partials') expect(working[0]).toBe(';');
  const [prod, addend] = sum.split('+').map((s) => read(s, view));
  expect(addend).toBe(c);
  const groups = head.split(',').map((g) => read(g, view));
  if (path === 'partials') {
    // raw digit products, most significant first: their shifted sum is the product
    const n = groups.length;
    groups.forEach((g, j) => expect(g).toBe((Math.floor(a / 10 ** (n - 1 - j)) % 10) * b));
    expect(groups.reduce((acc, g, j) => acc + g * 10 ** (n - 1 - j), 0)).toBe(prod);
  } else {
    let carry = 0;
    const digits = groups.map((g, i) => {
      expect(g).toBe((Math.floor(a / 10 ** i) % 10) * b + carry);
      carry = Math.floor(g / 10);
      return g % 10;
    });
    expect(fromColumns(digits) + carry * 10 ** groups.length).toBe(prod);
  }
  return prod + addend;
}

const configs = [
  { kind: 'addw', digits: 2 },
  { kind: 'addw', digits: 5 },
  { kind: 'muladdw', aDigits: 2, cDigits: 2 },
  { kind: 'muladdw', aDigits: 3, cDigits: 1 },
  { kind: 'muladdw', aDigits: 1, cDigits: 3 },
] as const;

describe('work paths', () => {
  it('every path is correct working: the answer re-derived from the working is the one after the marker', () => {
    for (const config of configs) {
      const task = makeTask(config);
      const problems = [
        ...task.heldOut('validation', 300),
        ...task.sampleSplit('train', deriveRng(7, 'work-paths'), 300),
      ];
      const paths = workPathsOf(config.kind);
      expect(paths.length).toBeGreaterThan(1);
      for (const view of ['plain', 'reversed'] as const)
        for (const p of problems)
          for (const path of paths) {
            const text = pathCompletion(p, view, path);
            expect(scoreCompletion(p, text, view)).toBe(true);
            expect(String(answerFromWorking(p, text, path, view))).toBe(p.answer);
          }
    }
  });

  it('the checker catches a wrong working (it is not vacuous)', () => {
    const p = makeTask({ kind: 'muladdw', aDigits: 2, cDigits: 2 }).heldOut('validation', 1)[0];
    const text = pathCompletion(p, 'plain', 'addin');
    const broken = text.replace(/^\+(\d)/, (_m, d: string) => `+${(Number(d) + 1) % 10}`);
    expect(() => answerFromWorking(p, broken, 'addin', 'plain')).toThrow();
  });

  it('chain is the kind own completion; the others differ from it and from each other at the first character', () => {
    for (const config of configs) {
      const task = makeTask(config);
      for (const p of task.heldOut('validation', 50)) {
        expect(pathCompletion(p, 'plain', 'chain')).toBe(renderCompletion(p, 'plain'));
        const firsts = workPathsOf(config.kind).map((path) => pathCompletion(p, 'plain', path)[0]);
        expect(new Set(firsts).size).toBe(firsts.length);
      }
    }
  });

  it('uses only characters of the task alphabet in every view (no tokenizer change)', () => {
    for (const config of configs) {
      const task = makeTask(config);
      const problems = task.heldOut('validation', 100);
      for (const view of ['plain', 'reversed', 'swap', 'words'] as const) {
        const own = new Set(taskAlphabet(config, [view]));
        for (const p of problems)
          for (const path of workPathsOf(config.kind))
            for (const ch of pathCompletion(p, view, path)) expect(own.has(ch)).toBe(true);
      }
    }
  });

  it('refuses a path the kind does not have, naming its paths', () => {
    const p = makeTask({ kind: 'addw', digits: 3 }).heldOut('validation', 1)[0];
    expect(() => pathCompletion(p, 'plain', 'addin')).toThrow(/not a path of task kind 'addw'.*chain, sums/);
    const q = makeTask({ kind: 'add', digits: 2 }).heldOut('validation', 1)[0];
    expect(() => pathCompletion(q, 'plain', 'chain')).toThrow(/its paths: none/);
  });
});
