// Checks of the CPU sampling twin: draw frequencies follow softmax(logits/T) (chi-square), greedy
// ties go to the lowest id, and only out[r*outStride + outOffset] is written.
import { describe, expect, it } from 'vitest';
import { sampleTokens } from './sample';
import { uniform01 } from '../random';

function softmax(logits: readonly number[], T: number): number[] {
  const mx = Math.max(...logits.map((x) => x / T));
  const e = logits.map((x) => Math.exp(x / T - mx));
  const s = e.reduce((a, b) => a + b, 0);
  return e.map((x) => x / s);
}

describe('sampleTokens', () => {
  it('20000 draws of a 7-token distribution at T=0.7 pass a chi-square test (df=6, p=0.001)', () => {
    const rows = 20000;
    const row = [1.0, 0.5, -0.3, 2.0, 0.0, -1.0, 1.5];
    const V = row.length;
    const T = 0.7;
    const logits = new Float32Array(rows * V);
    for (let r = 0; r < rows; r++) logits.set(row, r * V);
    const out = new Uint32Array(rows);
    sampleTokens(out, logits, rows, V, T, 2024, 1, 1, 0);
    const counts = new Array<number>(V).fill(0);
    for (const t of out) counts[t]++;
    const p = softmax(row, T);
    // Pearson statistic sum (O - E)^2 / E; every E here is >= 130
    let x2 = 0;
    for (let i = 0; i < V; i++) x2 += (counts[i] - p[i] * rows) ** 2 / (p[i] * rows);
    const crit = 22.458; // chi-square quantile, 6 degrees of freedom, 1 - 0.001
    console.log(`chi-square = ${x2.toFixed(3)} (critical ${crit}), counts ${counts.join(',')}`);
    expect(x2).toBeLessThan(crit);
    // and the pooled draw stream is the deterministic function of (seed, counter, row)
    const again = new Uint32Array(rows);
    sampleTokens(again, logits, rows, V, T, 2024, 1, 1, 0);
    expect(again).toEqual(out);
  });

  it('inverse CDF picks the token whose cumulative interval holds u', () => {
    const logits = new Float32Array([0, Math.log(2), Math.log(3), Math.log(4)]); // p = 0.1, 0.2, 0.3, 0.4
    const out = new Uint32Array(64);
    sampleTokens(
      out,
      new Float32Array(Array.from({ length: 64 }, () => Array.from(logits)).flat()),
      64,
      4,
      1,
      9,
      4,
      1,
      0,
    );
    for (let r = 0; r < 64; r++) {
      const u = uniform01(9, 4, r);
      const want = u < 0.1 ? 0 : u < 0.3 ? 1 : u < 0.6 ? 2 : 3;
      // away from the steps (float32 rounding of the cumulative sums decides exact ties)
      if ([0.1, 0.3, 0.6].every((c) => Math.abs(u - c) > 1e-6)) expect(out[r]).toBe(want);
    }
  });

  it('greedy (T <= 0) takes the argmax, ties to the lowest id', () => {
    const logits = new Float32Array([
      1,
      3,
      3,
      2, // tie at 1 and 2 → 1
      -5,
      -5,
      -5,
      -5, // all equal → 0
      0,
      0,
      0,
      7, // last → 3
    ]);
    const out = new Uint32Array(3);
    sampleTokens(out, logits, 3, 4, 0, 1, 1, 1, 0);
    expect(Array.from(out)).toEqual([1, 0, 3]);
    sampleTokens(out, logits, 3, 4, -1, 1, 1, 1, 0);
    expect(Array.from(out)).toEqual([1, 0, 3]);
  });

  it('a very low temperature approaches greedy; zero-probability tokens are never drawn', () => {
    const logits = new Float32Array([0, 5, 4.9, -200]);
    const out = new Uint32Array(500);
    const many = new Float32Array(500 * 4);
    for (let r = 0; r < 500; r++) many.set(logits, r * 4);
    sampleTokens(out, many, 500, 4, 0.01, 3, 3, 1, 0);
    expect(out.every((t) => t === 1)).toBe(true);
    sampleTokens(out, many, 500, 4, 1, 3, 4, 1, 0);
    expect(out.every((t) => t !== 3)).toBe(true);
  });

  it('the fused log-prob is log softmax(logits/T)[chosen id] (T = 1 when greedy), at logp[logpOffset + r] only', () => {
    const rows = 40;
    const V = 9;
    const logits = new Float32Array(rows * V).map((_, i) => 3 * Math.sin(i * 1.7));
    for (const T of [0, 0.6, 1.4]) {
      const out = new Uint32Array(rows);
      const plain = new Uint32Array(rows);
      const logp = new Float32Array(rows + 5).fill(NaN);
      sampleTokens(out, logits, rows, V, T, 8, 9, 1, 0, logp, 5);
      sampleTokens(plain, logits, rows, V, T, 8, 9, 1, 0);
      expect(out).toEqual(plain); // the same draws with or without the log-prob
      for (let i = 0; i < 5; i++) expect(logp[i]).toBeNaN();
      for (let r = 0; r < rows; r++) {
        const p = softmax([...logits.subarray(r * V, (r + 1) * V)], T > 0 ? T : 1);
        expect(logp[5 + r]).toBeCloseTo(Math.log(p[out[r]]), 5);
      }
    }
  });

  it('writes only out[r * outStride + outOffset]', () => {
    const rows = 5;
    const V = 6;
    const logits = new Float32Array(rows * V).map((_, i) => Math.sin(i));
    const out = new Uint32Array(rows * 3 + 2).fill(0xffffffff);
    sampleTokens(out, logits, rows, V, 0.9, 11, 12, 3, 2);
    for (let i = 0; i < out.length; i++) {
      if (i >= 2 && (i - 2) % 3 === 0) expect(out[i]).toBeLessThan(V);
      else expect(out[i]).toBe(0xffffffff);
    }
  });
});
