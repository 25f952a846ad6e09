// Tests of the CPU encoder twin: a hand-computed lookup with pos0/tokStride, and central finite
// differences (float64) for dwte and dwpe, with repeated tokens and with wpe null.
import { describe, expect, it } from 'vitest';
import { gradCheck } from './gradcheck';
import { encoderBackward, encoderForward } from './encoder';
import { makeNormalStream } from '../random';

function randn64(n: number, seed: number, scale = 1): Float64Array {
  const r = makeNormalStream(seed);
  return Float64Array.from({ length: n }, () => r() * scale);
}

describe('encoder (CPU)', () => {
  it('adds the token row and the position row (pos0 and tokStride)', () => {
    // V=3, C=2, maxT=4; B=2, T=2, tokStride=4, pos0=1
    const wte = Float32Array.of(0, 1, 10, 11, 20, 21);
    const wpe = Float32Array.of(100, 100, 200, 200, 300, 300, 400, 400);
    const tokens = Uint32Array.of(9, 2, 0, 9, 9, 1, 1, 9); // entries at pos 0 and 3 are never read
    const out = new Float32Array(8);
    encoderForward(out, wte, wpe, tokens, 2, 2, 2, 4, 1);
    expect(Array.from(out)).toEqual([220, 221, 300, 301, 210, 211, 310, 311]);
    encoderForward(out, wte, null, tokens, 2, 2, 2, 4, 1);
    expect(Array.from(out)).toEqual([20, 21, 0, 1, 10, 11, 10, 11]);
  });

  it('backward matches finite differences (dwte, dwpe), float64', () => {
    const B = 3;
    const T = 5;
    const C = 4;
    const V = 6;
    const maxT = 9;
    const tokStride = 8;
    const pos0 = 2;
    const wte = randn64(V * C, 1);
    const wpe = randn64(maxT * C, 2);
    const r = makeNormalStream(3);
    const tokens = Uint32Array.from({ length: B * tokStride }, () => Math.floor(Math.abs(r()) * 3) % V); // repeats
    const out = new Float64Array(B * T * C);
    for (const withWpe of [true, false]) {
      const results = gradCheck({
        inputs: withWpe ? { wte, wpe } : { wte },
        forward: () => {
          encoderForward(out, wte, withWpe ? wpe : null, tokens, B, T, C, tokStride, pos0);
          return out.slice();
        },
        backward: (dout) => {
          const g = { wte: new Float64Array(V * C), wpe: new Float64Array(maxT * C) };
          encoderBackward(g.wte, withWpe ? g.wpe : null, dout, tokens, B, T, C, tokStride, pos0);
          return g;
        },
      });
      for (const x of results)
        console.log(
          `encoder FD ${x.input} (wpe ${withWpe}): n=${x.checked} maxAbs=${x.maxAbsErr.toExponential(2)} maxRel=${x.maxRelErr.toExponential(2)}`,
        );
      for (const x of results) expect(x.ok, x.input).toBe(true);
    }
  });

  it('backward accumulates', () => {
    const dwte = new Float32Array(4).fill(1);
    const dwpe = new Float32Array(6).fill(2);
    // B=1, T=2, C=2, tokens [1, 1], pos0=1: both positions hit token 1
    encoderBackward(dwte, dwpe, Float32Array.of(1, 2, 3, 4), Uint32Array.of(0, 1, 1), 1, 2, 2, 3, 1);
    expect(Array.from(dwte)).toEqual([1, 1, 5, 7]);
    expect(Array.from(dwpe)).toEqual([2, 2, 3, 4, 5, 6]);
  });
});
