// Tests of the CPU attention twin: hand-computed cases, finite differences (float64), and the
// KV-cache path (prefill and token-by-token decoding) against attentionForward.
import { describe, expect, it } from 'vitest';
import { gradCheck } from './gradcheck';
import { attentionBackward, attentionCached, attentionForward, kvCacheWrite } from './attention';
import { makeNormalStream } from '../random';

function randn(n: number, seed: number): Float64Array {
  const r = makeNormalStream(seed);
  return Float64Array.from({ length: n }, () => r());
}

describe('attention (CPU)', () => {
  it('uniform attention when q = 0: out[t] is the mean of v[0..t]', () => {
    const T = 3;
    const C = 2;
    const qkv = new Float32Array(T * 3 * C);
    const vs = [
      [1, 2],
      [3, 5],
      [8, -4],
    ];
    for (let t = 0; t < T; t++) {
      qkv.set([0, 0, t + 1, -t, ...vs[t]], t * 3 * C); // q = 0, arbitrary k, v
    }
    const out = new Float32Array(T * C);
    const att = new Float32Array(T * T).fill(NaN);
    attentionForward(out, att, qkv, 1, T, C, 1);
    expect(Array.from(att)).toEqual(
      [1, 0, 0, 0.5, 0.5, 0, 1 / 3, 1 / 3, 1 / 3].map((v) => expect.closeTo(v, 6)),
    );
    expect(Array.from(out)).toEqual([1, 2, 2, 3.5, 4, 1].map((v) => expect.closeTo(v, 5)));
  });

  it('att rows are probabilities with exact zeros above the diagonal', () => {
    const B = 2;
    const T = 9;
    const C = 12;
    const NH = 3;
    const att = new Float32Array(B * NH * T * T).fill(NaN);
    attentionForward(
      new Float32Array(B * T * C),
      att,
      Float32Array.from(randn(B * T * 3 * C, 3)),
      B,
      T,
      C,
      NH,
    );
    for (let r = 0; r < B * NH * T; r++) {
      const t = r % T;
      let s = 0;
      for (let t2 = 0; t2 < T; t2++) {
        const p = att[r * T + t2];
        if (t2 > t) expect(p).toBe(0);
        else expect(p).toBeGreaterThan(0);
        s += p;
      }
      expect(s).toBeCloseTo(1, 6);
    }
  });

  it('backward matches finite differences (dqkv), float64', () => {
    const B = 2;
    const T = 5;
    const C = 12;
    const NH = 3;
    const qkv = randn(B * T * 3 * C, 1);
    const out = new Float64Array(B * T * C);
    const att = new Float64Array(B * NH * T * T);
    const results = gradCheck({
      inputs: { qkv },
      forward: () => {
        attentionForward(out, att, qkv, B, T, C, NH);
        return out.slice();
      },
      backward: (dout) => {
        attentionForward(out, att, qkv, B, T, C, NH);
        const dqkv = new Float64Array(qkv.length);
        attentionBackward(dqkv, dout, qkv, att, B, T, C, NH);
        return { qkv: dqkv };
      },
    });
    for (const r of results)
      console.log(
        `attention FD ${r.input}: n=${r.checked} maxAbs=${r.maxAbsErr.toExponential(2)} maxRel=${r.maxRelErr.toExponential(2)}`,
      );
    for (const r of results) expect(r.ok, r.input).toBe(true);
  });

  it('backward accumulates into dqkv', () => {
    const B = 1;
    const T = 4;
    const C = 8;
    const NH = 2;
    const qkv = randn(B * T * 3 * C, 5);
    const dout = randn(B * T * C, 6);
    const att = new Float64Array(B * NH * T * T);
    attentionForward(new Float64Array(B * T * C), att, qkv, B, T, C, NH);
    const once = new Float64Array(qkv.length);
    attentionBackward(once, dout, qkv, att, B, T, C, NH);
    const twice = once.slice();
    attentionBackward(twice, dout, qkv, att, B, T, C, NH);
    for (let i = 0; i < once.length; i++) expect(twice[i]).toBeCloseTo(2 * once[i], 12);
  });

  const B = 3;
  const T = 11;
  const C = 24;
  const NH = 4;
  const Tmax = 13;
  const qkv = Float32Array.from(randn(B * T * 3 * C, 9));
  const ref = new Float32Array(B * T * C);
  attentionForward(ref, new Float32Array(B * NH * T * T), qkv, B, T, C, NH);

  it('kvCacheWrite puts k and v at pos0+t and touches nothing else', () => {
    const pos0 = 2;
    const Tn = 4;
    const kc = new Float32Array(B * Tmax * C).fill(7);
    const vc = new Float32Array(B * Tmax * C).fill(7);
    kvCacheWrite(kc, vc, qkv.subarray(0, B * Tn * 3 * C), B, Tn, pos0, Tmax, C);
    for (let b = 0; b < B; b++) {
      for (let p = 0; p < Tmax; p++) {
        for (let c = 0; c < C; c++) {
          const t = p - pos0;
          const inside = t >= 0 && t < Tn;
          const src = (b * Tn + t) * 3 * C;
          expect(kc[(b * Tmax + p) * C + c]).toBe(inside ? qkv[src + C + c] : 7);
          expect(vc[(b * Tmax + p) * C + c]).toBe(inside ? qkv[src + 2 * C + c] : 7);
        }
      }
    }
  });

  it('cached attention after a whole-sequence prefill equals attentionForward exactly', () => {
    const kc = new Float32Array(B * Tmax * C).fill(NaN);
    const vc = new Float32Array(B * Tmax * C).fill(NaN);
    kvCacheWrite(kc, vc, qkv, B, T, 0, Tmax, C);
    const out = new Float32Array(B * T * C).fill(NaN);
    attentionCached(out, qkv, kc, vc, B, T, 0, Tmax, C, NH);
    for (let i = 0; i < out.length; i++) expect(out[i]).toBe(ref[i]);
  });

  it('token-by-token cached decoding equals attentionForward exactly', () => {
    const kc = new Float32Array(B * Tmax * C).fill(NaN);
    const vc = new Float32Array(B * Tmax * C).fill(NaN);
    const step = new Float32Array(B * 3 * C); // (B,1,3C)
    const out = new Float32Array(B * C); // (B,1,C)
    for (let t = 0; t < T; t++) {
      for (let b = 0; b < B; b++)
        step.set(qkv.subarray((b * T + t) * 3 * C, (b * T + t + 1) * 3 * C), b * 3 * C);
      kvCacheWrite(kc, vc, step, B, 1, t, Tmax, C);
      out.fill(NaN);
      attentionCached(out, step, kc, vc, B, 1, t, Tmax, C, NH);
      for (let b = 0; b < B; b++) {
        for (let c = 0; c < C; c++) expect(out[b * C + c]).toBe(ref[(b * T + t) * C + c]);
      }
    }
  });
});
