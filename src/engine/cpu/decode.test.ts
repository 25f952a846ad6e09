// Tests of the fused decode twins (src/engine/cpu/decode.ts) against the unfused reference ops they
// fuse, composed the way src/model/generate.ts composes them, in float64 so only the fusion is tested.
import { describe, expect, it } from 'vitest';
import { decodeAttn, decodeHead, decodeMlp, decodeQkv } from './decode';
import { encoderForward } from './encoder';
import { layernormForward } from './layernorm';
import { matmulForward } from './matmul';
import { ropeForward } from './rope';
import { attentionCached, kvCacheWrite } from './attention';
import { geluForward, residualForward } from './elementwise';
import { sampleTokens } from './sample';
import { makeNormalStream } from '../random';

const randn = (n: number, seed: number, scale = 1): Float64Array => {
  const r = makeNormalStream(seed);
  return Float64Array.from({ length: n }, () => r() * scale);
};
const f64 = (n: number): Float64Array => new Float64Array(n).fill(NaN);

function expectClose(a: Float64Array, b: Float64Array, tol = 1e-10): void {
  expect(a.length).toBe(b.length);
  for (let i = 0; i < a.length; i++) {
    if (!(Math.abs(a[i] - b[i]) <= tol * (1 + Math.abs(b[i]))))
      throw new Error(`index ${i}: ${a[i]} vs ${b[i]}`);
  }
}

/** ln(x) @ w^T + b over R rows of C (the unfused pair). */
function lnMatmul(
  x: Float64Array,
  lnw: Float64Array,
  lnb: Float64Array,
  w: Float64Array,
  b: Float64Array | null,
  R: number,
  C: number,
  OC: number,
): Float64Array {
  const ln = new Float64Array(R * C);
  layernormForward(ln, new Float64Array(R), new Float64Array(R), x, lnw, lnb, R, C);
  const out = new Float64Array(R * OC);
  matmulForward(out, ln, w, b, R, C, OC);
  return out;
}

describe('fused decode ops (CPU) equal the unfused ops they replace', () => {
  for (const rope of [false, true]) {
    it(`decodeQkv: embedding, layer norm, QKV, ${rope ? 'rope, ' : ''}cache write (R=5, C=12, NH=3, pos=4)`, () => {
      const [R, C, NH, pos, Tmax, V, L] = [5, 12, 3, 4, 7, 11, 8];
      const tokens = Uint32Array.from({ length: R * L }, (_, i) => (i * 7) % V);
      const [wte, wpe, lnw, lnb, w, b] = [
        randn(V * C, 1),
        randn(Tmax * C, 2),
        randn(C, 3),
        randn(C, 4),
        randn(3 * C * C, 5, 0.3),
        randn(3 * C, 6),
      ];
      const cacheInit = randn(R * Tmax * C, 7);
      const [q, kc, vc, x] = [f64(R * C), cacheInit.slice(), cacheInit.slice(), f64(R * C)];
      decodeQkv(q, kc, vc, x, tokens, wte, rope ? null : wpe, lnw, lnb, w, b, R, C, NH, pos, Tmax, L, rope);
      const xr = new Float64Array(R * C);
      encoderForward(xr, wte, rope ? null : wpe, tokens, R, 1, C, L, pos);
      let qkv = lnMatmul(xr, lnw, lnb, w, b, R, C, 3 * C);
      if (rope) {
        const rot = new Float64Array(qkv.length);
        ropeForward(rot, qkv, R, 1, C, NH, pos);
        qkv = rot;
      }
      const [kr, vr] = [cacheInit.slice(), cacheInit.slice()];
      kvCacheWrite(kr, vr, qkv, R, 1, pos, Tmax, C);
      expectClose(x, xr);
      expectClose(
        q,
        Float64Array.from({ length: R * C }, (_, i) => qkv[Math.floor(i / C) * 3 * C + (i % C)]),
      );
      expectClose(kc, kr);
      expectClose(vc, vr);
      // without tokens x is read, not written
      const x2 = randn(R * C, 8);
      const before = x2.slice();
      decodeQkv(q, kc, vc, x2, null, null, null, lnw, lnb, w, b, R, C, NH, pos, Tmax, L, rope);
      expect(x2).toEqual(before);
    });
  }

  it('decodeAttn: cached attention, projection and residual (R=3, C=10, NH=2, pos=5)', () => {
    const [R, C, NH, pos, Tmax] = [3, 10, 2, 5, 9];
    const [q, kc, vc, x, w, b] = [
      randn(R * C, 1),
      randn(R * Tmax * C, 2),
      randn(R * Tmax * C, 3),
      randn(R * C, 4),
      randn(C * C, 5),
      randn(C, 6),
    ];
    const out = f64(R * C);
    decodeAttn(out, q, kc, vc, x, w, b, R, C, NH, pos, Tmax);
    const qkv = new Float64Array(R * 3 * C); // only the q part is read
    for (let r = 0; r < R; r++) qkv.set(q.subarray(r * C, (r + 1) * C), r * 3 * C);
    const y = new Float64Array(R * C);
    attentionCached(y, qkv, kc, vc, R, 1, pos, Tmax, C, NH);
    const proj = new Float64Array(R * C);
    matmulForward(proj, y, w, b, R, C, C);
    const ref = new Float64Array(R * C);
    residualForward(ref, x, proj, R * C);
    expectClose(out, ref);
  });

  it('decodeMlp: layer norm, fc, GELU, projection and residual (R=4, C=9, H=23)', () => {
    const [R, C, H] = [4, 9, 23];
    const [x, lnw, lnb, fcw, fcb, pw, pb] = [
      randn(R * C, 1),
      randn(C, 2),
      randn(C, 3),
      randn(H * C, 4),
      randn(H, 5),
      randn(C * H, 6),
      randn(C, 7),
    ];
    const out = f64(R * C);
    decodeMlp(out, x, lnw, lnb, fcw, fcb, pw, pb, R, C, H);
    const h = lnMatmul(x, lnw, lnb, fcw, fcb, R, C, H);
    const g = new Float64Array(R * H);
    geluForward(g, h, R * H);
    const proj = new Float64Array(R * C);
    matmulForward(proj, g, pw, pb, R, H, C);
    const ref = new Float64Array(R * C);
    residualForward(ref, x, proj, R * C);
    expectClose(out, ref);
  });

  for (const temperature of [0, 0.8]) {
    it(`decodeHead: final layer norm, tied LM head, sampling at T=${temperature} (R=6, C=7, V=13)`, () => {
      const [R, C, V, L] = [6, 7, 13, 5];
      const [x, lnw, lnb, wte] = [randn(R * C, 1), randn(C, 2), randn(C, 3), randn(V * C, 4)];
      const [tok, logp, logits] = [new Uint32Array(R * L).fill(99), f64(2 + R), f64(R * V)];
      decodeHead(tok, logp, logits, x, lnw, lnb, wte, R, C, V, temperature, 42, 3, L, 2, 2);
      const ref = lnMatmul(x, lnw, lnb, wte, null, R, C, V);
      expectClose(logits, ref);
      const [tr, lr] = [new Uint32Array(R * L).fill(99), f64(2 + R)];
      sampleTokens(tr, ref, R, V, temperature, 42, 3, L, 2, lr, 2);
      expect(tok).toEqual(tr);
      expectClose(logp.subarray(2), lr.subarray(2));
      expect(Number.isNaN(logp[0]) && Number.isNaN(logp[1])).toBe(true); // nothing before logpOffset
    });
  }
});
