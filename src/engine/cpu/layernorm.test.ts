// Tests of the CPU layernorm twin: a hand-computed row and central finite differences (float64).
import { describe, expect, it } from 'vitest';
import { gradCheck } from './gradcheck';
import { layernormBackward, layernormForward } from './layernorm';
import { makeNormalStream } from '../random';

function randn64(n: number, seed: number, scale = 1, shift = 0): Float64Array {
  const r = makeNormalStream(seed);
  return Float64Array.from({ length: n }, () => r() * scale + shift);
}

describe('layernorm (CPU)', () => {
  it('normalises a hand-computed row', () => {
    const out = new Float32Array(3);
    const mean = new Float32Array(1);
    const rstd = new Float32Array(1);
    layernormForward(
      out,
      mean,
      rstd,
      Float32Array.of(1, 2, 3),
      Float32Array.of(1, 2, 1),
      Float32Array.of(0, 0, 0.5),
      1,
      3,
    );
    const s = 1 / Math.sqrt(2 / 3 + 1e-5); // biased variance of [1,2,3] is 2/3
    expect(mean[0]).toBeCloseTo(2, 6);
    expect(rstd[0]).toBeCloseTo(s, 5);
    expect(Array.from(out)).toEqual(
      [Math.fround(-s), 0, Math.fround(s + 0.5)].map((v) => expect.closeTo(v, 5)),
    );
  });

  it('backward matches finite differences (dinp, dweight, dbias), float64', () => {
    const N = 7;
    const C = 11;
    const inp = randn64(N * C, 1, 2, 0.7);
    const weight = randn64(C, 2, 1, 1);
    const bias = randn64(C, 3);
    const out = new Float64Array(N * C);
    const mean = new Float64Array(N);
    const rstd = new Float64Array(N);
    const results = gradCheck({
      inputs: { inp, weight, bias },
      forward: () => {
        layernormForward(out, mean, rstd, inp, weight, bias, N, C);
        return out.slice();
      },
      backward: (dout) => {
        layernormForward(out, mean, rstd, inp, weight, bias, N, C);
        const g = { inp: new Float64Array(N * C), weight: new Float64Array(C), bias: new Float64Array(C) };
        layernormBackward(g.inp, g.weight, g.bias, dout, inp, weight, mean, rstd, N, C);
        return g;
      },
    });
    for (const r of results)
      console.log(
        `layernorm FD ${r.input}: n=${r.checked} maxAbs=${r.maxAbsErr.toExponential(2)} maxRel=${r.maxRelErr.toExponential(2)}`,
      );
    for (const r of results) expect(r.ok, r.input).toBe(true);
  });

  it('backward accumulates into its gradients', () => {
    const N = 3;
    const C = 5;
    const inp = randn64(N * C, 4);
    const weight = randn64(C, 5);
    const bias = randn64(C, 6);
    const dout = randn64(N * C, 7);
    const out = new Float64Array(N * C);
    const mean = new Float64Array(N);
    const rstd = new Float64Array(N);
    layernormForward(out, mean, rstd, inp, weight, bias, N, C);
    const once = [new Float64Array(N * C), new Float64Array(C), new Float64Array(C)] as const;
    layernormBackward(once[0], once[1], once[2], dout, inp, weight, mean, rstd, N, C);
    const twice = [once[0].slice(), once[1].slice(), once[2].slice()] as const;
    layernormBackward(twice[0], twice[1], twice[2], dout, inp, weight, mean, rstd, N, C);
    for (let k = 0; k < 3; k++) {
      for (let i = 0; i < once[k].length; i++) expect(twice[k][i]).toBeCloseTo(2 * once[k][i], 12);
    }
  });
});
