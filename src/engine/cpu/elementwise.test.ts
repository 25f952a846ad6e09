// Tests of the CPU GELU and residual twins: hand-computed values and central finite differences
// (float64) for both backwards, plus accumulation.
import { describe, expect, it } from 'vitest';
import { gradCheck } from './gradcheck';
import { geluBackward, geluForward, residualBackward, residualForward } from './elementwise';
import { makeNormalStream } from '../random';

function randn64(n: number, seed: number, scale = 1): Float64Array {
  const r = makeNormalStream(seed);
  return Float64Array.from({ length: n }, () => r() * scale);
}

describe('elementwise (CPU)', () => {
  it('GELU matches hand-computed values', () => {
    const xs = [0, 1, -1, 3, -3, 20, -20];
    const out = new Float64Array(xs.length);
    geluForward(out, Float64Array.from(xs), xs.length);
    const g = (x: number): number =>
      0.5 * x * (1 + Math.tanh(Math.sqrt(2 / Math.PI) * (x + 0.044715 * x ** 3)));
    expect(out[0]).toBe(0);
    expect(out[1]).toBeCloseTo(0.8411919906, 9); // GPT-2 GELU(1)
    expect(out[2]).toBeCloseTo(-0.1588080094, 9);
    xs.forEach((x, i) => expect(out[i]).toBeCloseTo(g(x), 12));
    expect(out[5]).toBe(20);
    expect(out[6]).toBeCloseTo(0, 12);
  });

  it('GELU backward matches finite differences, float64', () => {
    const N = 50;
    const inp = randn64(N, 1, 2.5);
    const out = new Float64Array(N);
    const results = gradCheck({
      inputs: { inp },
      forward: () => {
        geluForward(out, inp, N);
        return out.slice();
      },
      backward: (dout) => {
        const g = { inp: new Float64Array(N) };
        geluBackward(g.inp, inp, dout, N);
        return g;
      },
    });
    for (const r of results)
      console.log(
        `gelu FD ${r.input}: n=${r.checked} maxAbs=${r.maxAbsErr.toExponential(2)} maxRel=${r.maxRelErr.toExponential(2)}`,
      );
    for (const r of results) expect(r.ok, r.input).toBe(true);
  });

  it('residual forward adds and backward matches finite differences, float64', () => {
    const N = 23;
    const a = randn64(N, 2);
    const b = randn64(N, 3);
    const out = new Float64Array(N);
    residualForward(out, Float64Array.of(1, 2), Float64Array.of(0.5, -4), 2);
    expect(Array.from(out.subarray(0, 2))).toEqual([1.5, -2]);
    const results = gradCheck({
      inputs: { a, b },
      forward: () => {
        residualForward(out, a, b, N);
        return out.slice();
      },
      backward: (dout) => {
        const g = { a: new Float64Array(N), b: new Float64Array(N) };
        residualBackward(g.a, g.b, dout, N);
        return g;
      },
    });
    for (const r of results)
      console.log(
        `residual FD ${r.input}: n=${r.checked} maxAbs=${r.maxAbsErr.toExponential(2)} maxRel=${r.maxRelErr.toExponential(2)}`,
      );
    for (const r of results) expect(r.ok, r.input).toBe(true);
  });

  it('backwards accumulate', () => {
    const dinp = Float64Array.of(1, 1);
    geluBackward(dinp, Float64Array.of(0, 0), Float64Array.of(2, 4), 2); // gelu'(0) = 0.5
    expect(Array.from(dinp)).toEqual([2, 3]);
    const da = Float64Array.of(1, 2);
    const db = Float64Array.of(3, 4);
    residualBackward(da, db, Float64Array.of(10, 20), 2);
    expect(Array.from(da)).toEqual([11, 22]);
    expect(Array.from(db)).toEqual([13, 24]);
  });
});
