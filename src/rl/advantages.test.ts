// Tests for advantages.ts: group/batch/none scaling against hand-computed values (docs/method.md ("One training step", step 6)).
import { describe, expect, it } from 'vitest';
import { ADVANTAGE_EPS, computeAdvantages } from './advantages';

const close = (got: ArrayLike<number>, want: number[]) => {
  expect(got.length).toBe(want.length);
  want.forEach((w, i) => expect(got[i]).toBeCloseTo(w, 12));
};

describe('computeAdvantages', () => {
  // group 0: [1,0,0,1]  mean 0.5, unbiased std sqrt(1/3)
  // group 1: [1,1,1,1]  all equal -> zero advantage
  // group 2: [1,0,0,0]  mean 0.25, unbiased std sqrt(0.75/3) = 0.5
  const r = [1, 0, 0, 1, 1, 1, 1, 1, 1, 0, 0, 0];
  const s0 = Math.sqrt(1 / 3) + 1e-4;
  const s2 = 0.5 + 1e-4;

  it('uses eps = 1e-4', () => expect(ADVANTAGE_EPS).toBe(1e-4));

  it("'group' divides by the unbiased group std (default)", () => {
    const want = [
      0.5 / s0,
      -0.5 / s0,
      -0.5 / s0,
      0.5 / s0,
      0,
      0,
      0,
      0,
      0.75 / s2,
      -0.25 / s2,
      -0.25 / s2,
      -0.25 / s2,
    ];
    close(computeAdvantages(r, 4), want);
    close(computeAdvantages(r, 4, 'group'), want);
  });

  it("'batch' centres per group but divides by the unbiased std of the whole batch", () => {
    // 12 rewards, 7 ones: mean 7/12; ss = 7*(5/12)^2 + 5*(7/12)^2 = 420/144; var = 420/144/11
    const sb = Math.sqrt(420 / 144 / 11) + 1e-4;
    close(computeAdvantages(r, 4, 'batch'), [
      0.5 / sb,
      -0.5 / sb,
      -0.5 / sb,
      0.5 / sb,
      0,
      0,
      0,
      0,
      0.75 / sb,
      -0.25 / sb,
      -0.25 / sb,
      -0.25 / sb,
    ]);
  });

  it("'none' only centres", () => {
    close(computeAdvantages(r, 4, 'none'), [0.5, -0.5, -0.5, 0.5, 0, 0, 0, 0, 0.75, -0.25, -0.25, -0.25]);
  });

  it('gives exactly zero to all-equal groups in every mode, even non-binary ones', () => {
    for (const mode of ['group', 'batch', 'none'] as const) {
      const a = computeAdvantages([0.1, 0.1, 0.1, 0, 1, 0], 3, mode);
      expect(Array.from(a.slice(0, 3))).toEqual([0, 0, 0]);
    }
  });

  it('K = 1 has zero advantage; bad shapes throw', () => {
    expect(Array.from(computeAdvantages([1, 0, 1], 1))).toEqual([0, 0, 0]);
    expect(() => computeAdvantages([1, 0, 1], 2)).toThrow(/multiple of K/);
  });
});
