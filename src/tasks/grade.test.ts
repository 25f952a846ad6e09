// Graded difficulty for muladdw (`aGrade: 'digits'`, src/tasks/workKinds.ts): a's number of significant
// digits is drawn uniformly first, every split is drawn from that by rejection, the splits stay a function
// of the key, and a config without the knob (or at its default) resolves, names and draws exactly as before;
// the same for addw's `grade: 'digits'` (the sum's length drawn first).
import { describe, expect, it } from 'vitest';
import { describeTaskConfig, makeTask, resolveTaskConfig, validateTaskConfig, type TaskConfig } from '.';
import { gradedDigits } from './workKinds';
import type { Problem } from './taskTypes';
import { deriveRng } from '../util/rng';

const digitsOf = (a: number): number => (a < 10 ? 1 : String(a).length);

/** 3,000 validation and 3,000 train problems of a graded task, each checked distinct and in its own split. */
function drawnSplits(t: ReturnType<typeof makeTask>, seed: number): [string, Problem[]][] {
  const out: [string, Problem[]][] = [
    ['validation', t.heldOut('validation', 3000)],
    ['train', t.sampleTrain(deriveRng(seed, 'grade-test'), 3000)],
  ];
  for (const [split, ps] of out) {
    expect(new Set(ps.map((p) => p.key)).size).toBe(ps.length);
    for (const p of ps) expect(t.splitOf(p.key)).toBe(split);
  }
  return out;
}

/** A config with `knob` at its default 'uniform' resolves, is named and draws exactly as without it. */
function expectDefaultUnchanged(plain: TaskConfig, knob: string, name: string): void {
  const r = resolveTaskConfig(plain);
  expect(knob in r).toBe(false);
  const withKnob = { ...plain, [knob]: 'uniform' } as TaskConfig;
  expect(resolveTaskConfig(withKnob)).toEqual(r);
  expect(describeTaskConfig(r)).toBe(name);
  const keys = (t: ReturnType<typeof makeTask>) => t.heldOut('validation', 50).map((p) => p.key);
  expect(keys(makeTask(withKnob))).toEqual(keys(makeTask(plain)));
}

describe('muladdw aGrade', () => {
  it('leaves a config at the default as it was: resolved, named and drawn the same', () => {
    const plain = { kind: 'muladdw', aDigits: 2, cDigits: 2 } as const;
    expectDefaultUnchanged(plain, 'aGrade', 'muladdw(aDigits=2, cDigits=2, evalFraction=0.2)');
    expect(makeTask(plain).sizes.exact).toBe(true);
  });

  it('draws a with 1, 2 and 3 significant digits equally often in every split, each problem in its own split', () => {
    const t = makeTask({ kind: 'muladdw', aDigits: 3, cDigits: 3, aGrade: 'digits' });
    expect(t.name).toBe('muladdw(aDigits=3, cDigits=3, aGrade=digits, evalFraction=0.2)');
    expect(t.sizes.exact).toBe(false);
    const splits = drawnSplits(t, 1);
    const val = splits[0][1];
    for (const [, ps] of splits) {
      // 3000 draws: a share near 1/3 has a standard error of about 0.009; 4 of them either side
      for (const d of [1, 2, 3])
        expect(
          Math.abs(ps.filter((p) => digitsOf(p.values[0]) === d).length / ps.length - 1 / 3),
        ).toBeLessThan(0.036);
    }
    // uniform over a's range, 3-digit numbers would be 90%
    const uniform = makeTask({ kind: 'muladdw', aDigits: 3, cDigits: 2 }).heldOut('validation', 1000);
    expect(uniform.filter((p) => digitsOf(p.values[0]) === 3).length).toBeGreaterThan(850);
    expect(t.heldOut('validation', 10)).toEqual(val.slice(0, 10)); // a fixed sequence
    // the draws are distinct, so a class smaller than its share of the draw falls short of it: with c of 2
    // digits, one-digit a has 10 x 10 x 100 problems, about 875 of them in validation
    const small = makeTask({ kind: 'muladdw', aDigits: 3, cDigits: 2, aGrade: 'digits' }).heldOut(
      'validation',
      3000,
    );
    expect(small.filter((p) => digitsOf(p.values[0]) === 1).length).toBeLessThanOrEqual(875 * 1.1);
  });

  it('gradedDigits stays in range and reaches both ends of each length', () => {
    const rng = deriveRng(3, 'graded');
    const seen = new Set<number>();
    for (let i = 0; i < 20000; i++) {
      const a = gradedDigits(rng, 3);
      expect(a).toBeGreaterThanOrEqual(0);
      expect(a).toBeLessThan(1000);
      seen.add(a);
    }
    for (const a of [0, 9, 10, 99, 100, 999]) expect(seen.has(a)).toBe(true);
  });

  it('refuses a bad value, naming the field and its values', () => {
    expect(validateTaskConfig({ kind: 'muladdw', aGrade: 'steep' })).toEqual([
      "muladdw.aGrade must be one of 'uniform', 'digits', got \"steep\"",
    ]);
    expect(validateTaskConfig({ kind: 'addw', aGrade: 'digits' })[0]).toMatch(/unknown field "aGrade"/);
  });
});

describe('addw grade', () => {
  it('leaves a config at the default as it was: resolved, named and drawn the same', () => {
    expectDefaultUnchanged({ kind: 'addw', digits: 5 }, 'grade', 'addw(digits=5, evalFraction=0.2)');
  });

  it('draws sums of every length 2..5 equally often, b no longer than a, each problem in its own split', () => {
    const t = makeTask({ kind: 'addw', digits: 5, grade: 'digits' });
    expect(t.name).toBe('addw(digits=5, grade=digits, evalFraction=0.2)');
    expect(t.sizes.exact).toBe(false);
    const splits = drawnSplits(t, 2);
    const val = splits[0][1];
    for (const [, ps] of splits) {
      for (const p of ps) {
        expect(digitsOf(p.values[1])).toBeLessThanOrEqual(digitsOf(p.values[0]));
        expect(p.key).toMatch(/^addw:5:\d{5}\+\d{5}$/); // zero-padded as always
      }
      // the draws are distinct, so a length with few problems falls short of its fifth: length 1 has 100
      // problems (about 8 in validation), length 2 has 9,000 (about 900 in validation, so a draw of 3,000
      // gets fewer than its 600); lengths 3-5 are large and share the rest equally (standard error ~0.009)
      const share = (d: number): number => ps.filter((p) => digitsOf(p.values[0]) === d).length / ps.length;
      expect(share(1) * ps.length).toBeLessThan(100);
      expect(share(2)).toBeGreaterThan(0.1);
      expect(share(2)).toBeLessThan(0.26);
      const rest = (1 - share(1) - share(2)) / 3;
      for (const d of [3, 4, 5]) expect(Math.abs(share(d) - rest)).toBeLessThan(0.036);
    }
    // uniform draws: nine in ten 5-digit a, and b as long as a's range allows
    const uniform = makeTask({ kind: 'addw', digits: 5 }).heldOut('validation', 1000);
    expect(uniform.filter((p) => digitsOf(p.values[0]) === 5).length).toBeGreaterThan(850);
    expect(t.heldOut('validation', 10)).toEqual(val.slice(0, 10)); // a fixed sequence
  });

  it('refuses a bad value, naming the field and its values', () => {
    expect(validateTaskConfig({ kind: 'addw', grade: 'steep' })).toEqual([
      "addw.grade must be one of 'uniform', 'digits', got \"steep\"",
    ]);
    expect(validateTaskConfig({ kind: 'muladdw', grade: 'digits' })[0]).toMatch(/unknown field "grade"/);
  });
});
