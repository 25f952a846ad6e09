// Tests of the CPU RoPE twin: hand-computed rotations, norm preservation, the backward against
// central finite differences (float64), and forward/backward being inverse rotations.
import { describe, expect, it } from 'vitest';
import { gradCheck } from './gradcheck';
import { ropeBackward, ropeForward } from './rope';
import { makeNormalStream } from '../random';

function randn64(n: number, seed: number, scale = 1): Float64Array {
  const r = makeNormalStream(seed);
  return Float64Array.from({ length: n }, () => r() * scale);
}

describe('rope (CPU)', () => {
  it('rotates q and k pairs by pos * 10000^(-2i/hs) and copies v', () => {
    // B=1, T=1, C=4, NH=1 (hs=4), pos0=3: pair 0 turns by 3 rad, pair 1 by 3 * 10000^(-1/2) = 0.03 rad
    const inp = Float64Array.of(1, 0, 0, 1, 2, 0, 0, 2, 7, 8, 9, 10);
    const out = new Float64Array(12);
    ropeForward(out, inp, 1, 1, 4, 1, 3);
    const a0 = 3;
    const a1 = 0.03;
    const want = [
      Math.cos(a0),
      Math.sin(a0),
      -Math.sin(a1),
      Math.cos(a1), // q
      2 * Math.cos(a0),
      2 * Math.sin(a0),
      -2 * Math.sin(a1),
      2 * Math.cos(a1), // k
      7,
      8,
      9,
      10, // v
    ];
    // angles are float32-rounded, so compare to ~1e-6
    out.forEach((v, i) => expect(v).toBeCloseTo(want[i], 6));
  });

  it('position 0 is the identity and every pair keeps its norm', () => {
    const B = 2;
    const T = 6;
    const C = 12;
    const NH = 2;
    const inp = randn64(B * T * 3 * C, 1);
    const out = new Float64Array(inp.length);
    ropeForward(out, inp, B, T, C, NH, 0);
    for (let b = 0; b < B; b++)
      for (let j = 0; j < 3 * C; j++) expect(out[b * T * 3 * C + j]).toBe(inp[b * T * 3 * C + j]);
    ropeForward(out, inp, B, T, C, NH, 17);
    for (let j = 0; j < inp.length; j += 2) {
      expect(Math.hypot(out[j], out[j + 1])).toBeCloseTo(Math.hypot(inp[j], inp[j + 1]), 12);
    }
  });

  it('backward matches finite differences, float64', () => {
    const B = 2;
    const T = 5;
    const C = 12;
    const NH = 3;
    const pos0 = 7;
    const inp = randn64(B * T * 3 * C, 2);
    const out = new Float64Array(inp.length);
    const results = gradCheck({
      inputs: { inp },
      forward: () => {
        ropeForward(out, inp, B, T, C, NH, pos0);
        return out.slice();
      },
      backward: (dout) => {
        const g = { inp: new Float64Array(inp.length) };
        ropeBackward(g.inp, dout, B, T, C, NH, pos0);
        return g;
      },
    });
    for (const r of results)
      console.log(
        `rope FD ${r.input}: n=${r.checked} maxAbs=${r.maxAbsErr.toExponential(2)} maxRel=${r.maxRelErr.toExponential(2)}`,
      );
    for (const r of results) expect(r.ok, r.input).toBe(true);
  });

  it('backward accumulates the inverse rotation', () => {
    const B = 1;
    const T = 3;
    const C = 8;
    const NH = 2;
    const x = randn64(B * T * 3 * C, 3);
    const y = new Float64Array(x.length);
    ropeForward(y, x, B, T, C, NH, 40);
    const back = new Float64Array(x.length).fill(1);
    ropeBackward(back, y, B, T, C, NH, 40);
    back.forEach((v, i) => expect(v).toBeCloseTo(x[i] + 1, 12));
  });

  it('rejects an odd head size', () => {
    const a = new Float32Array(3 * 6);
    expect(() => ropeForward(a, a, 1, 1, 6, 2, 0)).toThrow(/even integer/);
    expect(() => ropeBackward(a, a, 1, 1, 6, 4, 0)).toThrow(/even integer/);
  });
});
