// Graded difficulty for muladdw (`aGrade: 'digits'`, src/tasks/workKinds.ts): a's number of significant
// digits is drawn uniformly first, every split is drawn from that by rejection, the splits stay a function
// of the key, and a config without the knob (or at its default) resolves, names and draws exactly as before.
import { describe, expect, it } from 'vitest';
import { describeTaskConfig, makeTask, resolveTaskConfig, validateTaskConfig } from '.';
import { gradedDigits } from './workKinds';
import { deriveRng } from '../util/rng';

const digitsOf = (a: number): number => (a < 10 ? 1 : String(a).length);

describe('muladdw aGrade', () => {
  it('leaves a config at the default as it was: resolved, named and drawn the same', () => {
    const plain = { kind: 'muladdw', aDigits: 2, cDigits: 2 } as const;
    const r = resolveTaskConfig(plain);
    expect('aGrade' in r).toBe(false);
    expect(resolveTaskConfig({ ...plain, aGrade: 'uniform' })).toEqual(r);
    expect(describeTaskConfig(r)).toBe('muladdw(aDigits=2, cDigits=2, evalFraction=0.2)');
    const keys = (t: ReturnType<typeof makeTask>) => t.heldOut('validation', 50).map((p) => p.key);
    expect(keys(makeTask({ ...plain, aGrade: 'uniform' }))).toEqual(keys(makeTask(plain)));
    expect(makeTask(plain).sizes.exact).toBe(true);
  });

  it('draws a with 1, 2 and 3 significant digits equally often in every split, each problem in its own split', () => {
    const t = makeTask({ kind: 'muladdw', aDigits: 3, cDigits: 3, aGrade: 'digits' });
    expect(t.name).toBe('muladdw(aDigits=3, cDigits=3, aGrade=digits, evalFraction=0.2)');
    expect(t.sizes.exact).toBe(false);
    const val = t.heldOut('validation', 3000);
    const train = t.sampleTrain(deriveRng(1, 'grade-test'), 3000);
    for (const [split, ps] of [
      ['validation', val],
      ['train', train],
    ] as const) {
      expect(new Set(ps.map((p) => p.key)).size).toBe(ps.length);
      for (const p of ps) expect(t.splitOf(p.key)).toBe(split);
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
