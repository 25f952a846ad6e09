// Checks of the CPU optimizer twins against hand computations: AdamW over two steps (bias
// correction, decoupled weight decay, global-norm clipping active and inactive) and sumSquares.
import { describe, expect, it } from 'vitest';
import type { AdamWParams } from '../backend';
import { adamw, sumSquares } from './optim';

const hp = (step: number): AdamWParams => ({
  lr: 0.1,
  beta1: 0.9,
  beta2: 0.99,
  eps: 1e-8,
  weightDecay: 0.01,
  step,
});

function expectClose(got: ArrayLike<number>, want: number[], digits = 9): void {
  expect(got.length).toBe(want.length);
  for (let i = 0; i < want.length; i++) expect(got[i]).toBeCloseTo(want[i], digits);
}

describe('adamw', () => {
  it('two steps without clipping match the hand computation', () => {
    const p = new Float64Array([1, -2, 0.5]);
    const m = new Float64Array(3);
    const v = new Float64Array(3);
    // step 1: mhat = g, vhat = g^2, so the Adam direction is sign(g) (eps = 1e-8 shifts it by ~1e-7)
    adamw(p, new Float64Array([0.1, -0.2, 0.3]), m, v, null, 0, 3, hp(1));
    expectClose(m, [0.01, -0.02, 0.03], 12);
    expectClose(v, [1e-4, 4e-4, 9e-4], 12);
    expectClose(p, [1 - 0.1 * (1 + 0.01), -2 - 0.1 * (-1 - 0.02), 0.5 - 0.1 * (1 + 0.005)], 6); // 0.899, -1.898, 0.3995
    expectClose(p, [0.899, -1.898, 0.3995], 6);
    // step 2, g = [0.1, 0.2, 0]: m = 0.9 m + 0.1 g, v = 0.99 v + 0.01 g^2, bc1 = 0.19, bc2 = 0.0199
    adamw(p, new Float64Array([0.1, 0.2, 0]), m, v, null, 0, 3, hp(2));
    expectClose(m, [0.019, 0.002, 0.027], 12);
    expectClose(v, [1.99e-4, 7.96e-4, 8.91e-4], 12);
    // element 0: mhat = 0.1, vhat = 0.01 → direction 1; element 1: mhat = 0.002/0.19, sqrt(vhat) = 0.2 → 1/19
    const p2 = [
      0.899 - 0.1 * (1 + 0.01 * 0.899), // 0.798101
      -1.898 - 0.1 * (1 / 19 + 0.01 * -1.898),
      0.3995 - 0.1 * (0.027 / 0.19 / Math.sqrt(8.91e-4 / 0.0199) + 0.01 * 0.3995),
    ];
    expectClose(p, p2, 6);
    expect(p[0]).toBeCloseTo(0.798101, 6);
  });

  it('global-norm clipping: active scales g by maxNorm/(norm + 1e-6), inactive leaves it', () => {
    const p = new Float64Array([0.5, -0.5]);
    const m = new Float64Array(2);
    const v = new Float64Array(2);
    // |g| = 5 > maxNorm = 1: g' = g / (5 + 1e-6) = [0.6, 0.8] (to 2e-7)
    const s = 1 / (5 + 1e-6);
    adamw(p, new Float64Array([3, 4]), m, v, new Float64Array([25]), 1, 2, hp(1));
    expectClose(m, [0.1 * 3 * s, 0.1 * 4 * s], 14);
    expectClose(m, [0.06, 0.08], 6);
    expectClose(v, [0.01 * 9 * s * s, 0.01 * 16 * s * s], 14);
    expectClose(v, [0.0036, 0.0064], 6);
    expectClose(p, [0.5 - 0.1 * (1 + 0.005), -0.5 - 0.1 * (1 - 0.005)], 6); // step 1 is scale-invariant
    // step 2: |g| = 0.5 < maxNorm = 1 → scale min(1, 1/0.500001) = 1
    const before = Float64Array.from(p);
    adamw(p, new Float64Array([0, 0.5]), m, v, new Float64Array([0.25]), 1, 2, hp(2));
    expectClose(m, [0.9 * 0.3 * s, 0.9 * 0.4 * s + 0.05], 14); // ≈ [0.054, 0.122]
    expectClose(v, [0.99 * 0.09 * s * s, 0.99 * 0.16 * s * s + 0.0025], 14); // ≈ [0.003564, 0.008836]
    const dir = (mi: number, vi: number): number => mi / 0.19 / (Math.sqrt(vi / 0.0199) + 1e-8);
    expectClose(
      p,
      [
        before[0] - 0.1 * (dir(m[0], v[0]) + 0.01 * before[0]),
        before[1] - 0.1 * (dir(m[1], v[1]) + 0.01 * before[1]),
      ],
      12,
    );
  });

  it('inactive clipping is bit-identical to no clipping; weight decay alone shrinks params when g = 0', () => {
    const g = new Float32Array([0.3, -0.1, 0.02, 0]);
    const run = (normSq: Float32Array | null): Float32Array[] => {
      const p = new Float32Array([1, 2, -3, 4]);
      const m = new Float32Array(4);
      const v = new Float32Array(4);
      for (let step = 1; step <= 3; step++) adamw(p, g, m, v, normSq, 10, 4, hp(step));
      return [p, m, v];
    };
    const a = run(null);
    const b = run(new Float32Array([0.3 * 0.3 + 0.01 + 0.0004]));
    for (let k = 0; k < 3; k++) expect(b[k]).toEqual(a[k]);
    // element 3 has g = 0 throughout: p *= (1 - lr*wd) per step
    expect(a[0][3]).toBeCloseTo(4 * 0.999 ** 3, 5);
  });
});

describe('sumSquares', () => {
  it('hand case and only the first N elements', () => {
    const out = new Float64Array(1);
    sumSquares(out, new Float64Array([1, -2, 3, 100]), 3);
    expect(out[0]).toBe(14);
  });
  it('100003 elements in float32 storage agree with a float64 sum to 1e-7 relative', () => {
    const N = 100003;
    const x = new Float32Array(N).map((_, i) => Math.sin(i * 0.37) * 3);
    let ref = 0;
    for (let i = 0; i < N; i++) ref += x[i] * x[i];
    const out = new Float32Array(1);
    sumSquares(out, x, N);
    // the twin sums in double and rounds once to f32: relative error <= 2^-24
    expect(Math.abs(out[0] - ref) / ref).toBeLessThan(1e-7);
  });
});
