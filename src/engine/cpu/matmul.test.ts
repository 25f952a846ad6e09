// Tests of the CPU matmul twin: a hand-computed product, the unrolled path against a naive loop,
// accumulation, and central finite differences (float64) for dinp, dweight and dbias.
import { describe, expect, it } from 'vitest';
import { gradCheck } from './gradcheck';
import { matmulBackward, matmulForward } from './matmul';
import { makeNormalStream } from '../random';

function randn64(n: number, seed: number, scale = 1): Float64Array {
  const r = makeNormalStream(seed);
  return Float64Array.from({ length: n }, () => r() * scale);
}

describe('matmul (CPU)', () => {
  it('computes a hand-checked product with bias', () => {
    // inp (2,3), weight (2,3): out[n,o] = bias[o] + inp[n,:] . weight[o,:]
    const out = new Float32Array(4);
    const inp = Float32Array.of(1, 2, 3, 4, 5, 6);
    const weight = Float32Array.of(1, 0, -1, 0.5, 0.5, 0.5);
    matmulForward(out, inp, weight, Float32Array.of(10, -1), 2, 3, 2);
    expect(Array.from(out)).toEqual([10 + 1 - 3, -1 + 3, 10 + 4 - 6, -1 + 7.5]);
    matmulForward(out, inp, weight, null, 2, 3, 2);
    expect(Array.from(out)).toEqual([-2, 3, -2, 7.5]);
  });

  it('matches a naive triple loop at sizes around the 4-row x 4-column blocks', () => {
    for (const [N, OC] of [1, 3, 4, 5, 8, 11].flatMap((oc) => [1, 3, 4, 5, 9].map((n) => [n, oc]))) {
      const C = 7;
      const inp = randn64(N * C, 1);
      const weight = randn64(OC * C, 2);
      const bias = randn64(OC, 3);
      for (const b of [bias, null]) {
        const out = new Float64Array(N * OC);
        matmulForward(out, inp, weight, b, N, C, OC);
        for (let n = 0; n < N; n++) {
          for (let o = 0; o < OC; o++) {
            let s = b ? b[o] : 0;
            for (let c = 0; c < C; c++) s += inp[n * C + c] * weight[o * C + c];
            expect(out[n * OC + o]).toBe(s); // the same terms in the same order: bit-identical
          }
        }
      }
    }
  });

  it('backward matches finite differences (dinp, dweight, dbias), float64', () => {
    const N = 5;
    const C = 7;
    const OC = 6;
    const inp = randn64(N * C, 4);
    const weight = randn64(OC * C, 5);
    const bias = randn64(OC, 6);
    const out = new Float64Array(N * OC);
    const results = gradCheck({
      inputs: { inp, weight, bias },
      forward: () => {
        matmulForward(out, inp, weight, bias, N, C, OC);
        return out.slice();
      },
      backward: (dout) => {
        const g = {
          inp: new Float64Array(N * C),
          weight: new Float64Array(OC * C),
          bias: new Float64Array(OC),
        };
        matmulBackward(g.inp, g.weight, g.bias, dout, inp, weight, N, C, OC);
        return g;
      },
    });
    for (const r of results)
      console.log(
        `matmul FD ${r.input}: n=${r.checked} maxAbs=${r.maxAbsErr.toExponential(2)} maxRel=${r.maxRelErr.toExponential(2)}`,
      );
    for (const r of results) expect(r.ok, r.input).toBe(true);
  });

  it('backward accumulates, and skips dinp/dbias when null', () => {
    const N = 4;
    const C = 3;
    const OC = 5;
    const inp = randn64(N * C, 7);
    const weight = randn64(OC * C, 8);
    const dout = randn64(N * OC, 9);
    const once = {
      inp: new Float64Array(N * C),
      weight: new Float64Array(OC * C),
      bias: new Float64Array(OC),
    };
    matmulBackward(once.inp, once.weight, once.bias, dout, inp, weight, N, C, OC);
    const twice = {
      inp: new Float64Array(N * C),
      weight: new Float64Array(OC * C),
      bias: new Float64Array(OC),
    };
    matmulBackward(twice.inp, twice.weight, twice.bias, dout, inp, weight, N, C, OC);
    matmulBackward(twice.inp, twice.weight, twice.bias, dout, inp, weight, N, C, OC);
    for (const k of ['inp', 'weight', 'bias'] as const) {
      twice[k].forEach((v, i) => expect(v).toBeCloseTo(2 * once[k][i], 12));
    }
    const dw = new Float64Array(OC * C);
    matmulBackward(null, dw, null, dout, inp, weight, N, C, OC);
    dw.forEach((v, i) => expect(v).toBeCloseTo(once.weight[i], 12));
  });
});
