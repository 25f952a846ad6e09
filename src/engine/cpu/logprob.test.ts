// Checks of the CPU log-prob / cross-entropy twins: backward passes against central finite
// differences of the forward passes in float64, and hand-computed rows (uniform, near one-hot).
import { describe, expect, it } from 'vitest';
import { gradCheck } from './gradcheck';
import { crossEntropyBackward, crossEntropyForward, logprobBackward, logprobForward } from './logprob';
import { makeNormalStream, makeUniformStream } from '../random';

function randn64(n: number, seed: number, scale = 1): Float64Array {
  const r = makeNormalStream(seed);
  return Float64Array.from({ length: n }, () => r() * scale);
}
function randInts(n: number, seed: number, max: number): Uint32Array {
  const r = makeUniformStream(seed);
  return Uint32Array.from({ length: n }, () => Math.floor(r() * max));
}

// Step h = 1e-5, |num - ana| <= 1e-6 + 1e-5 |ana| (gradcheck defaults), float64 throughout.
describe('logprobBackward vs finite differences of logprobForward', () => {
  for (const [N, V, T] of [
    [7, 13, 1],
    [5, 29, 0.7],
    [4, 37, 1.6],
    [3, 70, 0.45],
  ] as const) {
    it(`N=${N} V=${V} T=${T}`, () => {
      const logits = randn64(N * V, 10 + V, 2);
      const targets = randInts(N, 20 + V, V);
      const res = gradCheck({
        inputs: { logits },
        forward: () => {
          const logp = new Float64Array(N);
          logprobForward(logp, null, null, logits, targets, N, V, T);
          return logp;
        },
        backward: (dout) => {
          const dlogits = new Float64Array(N * V);
          logprobBackward(dlogits, logits, targets, dout, N, V, T);
          return { logits: dlogits };
        },
      });
      console.log(
        `logprobBackward N=${N} V=${V} T=${T}: maxRel=${res[0].maxRelErr.toExponential(2)} maxAbs=${res[0].maxAbsErr.toExponential(2)}`,
      );
      expect(res.every((r) => r.ok)).toBe(true);
    });
  }
});

describe('crossEntropyBackward vs finite differences of crossEntropyForward', () => {
  for (const [N, V] of [
    [7, 13],
    [5, 29],
    [3, 70],
  ] as const) {
    it(`N=${N} V=${V}`, () => {
      const logits = randn64(N * V, 30 + V, 2);
      const targets = randInts(N, 40 + V, V);
      const res = gradCheck({
        inputs: { logits },
        forward: () => {
          const losses = new Float64Array(N);
          crossEntropyForward(losses, logits, targets, N, V);
          return losses;
        },
        backward: (dout) => {
          const dlogits = new Float64Array(N * V);
          crossEntropyBackward(dlogits, logits, targets, dout, N, V);
          return { logits: dlogits };
        },
      });
      console.log(
        `crossEntropyBackward N=${N} V=${V}: maxRel=${res[0].maxRelErr.toExponential(2)} maxAbs=${res[0].maxAbsErr.toExponential(2)}`,
      );
      expect(res.every((r) => r.ok)).toBe(true);
    });
  }
});

describe('logprob hand checks', () => {
  it('uniform row: logp = -log V, entropy = log V, certainty = 0 (any temperature)', () => {
    const V = 17;
    const logits = new Float64Array(V).fill(3.25);
    const out = [new Float64Array(1), new Float64Array(1), new Float64Array(1)];
    logprobForward(out[0], out[1], out[2], logits, new Uint32Array([5]), 1, V, 0.6);
    expect(out[0][0]).toBeCloseTo(-Math.log(V), 12);
    expect(out[1][0]).toBeCloseTo(Math.log(V), 12);
    expect(out[2][0]).toBeCloseTo(0, 12);
  });

  it('near one-hot row [L, 0, ..., 0] at T: closed forms of logp, entropy, certainty, loss', () => {
    const V = 9;
    const L = 12;
    const T = 2;
    const logits = new Float64Array(V);
    logits[0] = L;
    // z = [L/T, 0, ...]: Z = e^(L/T) + V - 1, p0 = e^(L/T)/Z, q = 1/Z
    const a = L / T;
    const Z = Math.exp(a) + V - 1;
    const p0 = Math.exp(a) / Z;
    const q = 1 / Z;
    const H = -p0 * Math.log(p0) - (V - 1) * q * Math.log(q);
    const cert = Math.log(Z) - a / V - Math.log(V);
    const logp = new Float64Array(2);
    const ent = new Float64Array(2);
    const ct = new Float64Array(2);
    const two = new Float64Array(2 * V);
    two.set(logits, 0);
    two.set(logits, V);
    logprobForward(logp, ent, ct, two, new Uint32Array([0, 4]), 2, V, T);
    expect(logp[0]).toBeCloseTo(Math.log(p0), 12);
    expect(logp[1]).toBeCloseTo(Math.log(q), 12);
    expect(ent[0]).toBeCloseTo(H, 12);
    expect(ent[1]).toBeCloseTo(H, 12);
    expect(ct[0]).toBeCloseTo(cert, 12);
    // cross-entropy is -logp at T = 1
    const loss = new Float64Array(1);
    crossEntropyForward(loss, logits, new Uint32Array([0]), 1, V);
    expect(loss[0]).toBeCloseTo(Math.log(Math.exp(L) + V - 1) - L, 12);
  });

  it('entropy equals -sum p log p and certainty equals KL(U || p) on a random row', () => {
    const V = 23;
    const T = 0.8;
    const logits = randn64(V, 77, 3);
    const z = Array.from(logits, (x) => x / T);
    const Z = z.reduce((s, x) => s + Math.exp(x), 0);
    const p = z.map((x) => Math.exp(x) / Z);
    const H = -p.reduce((s, pi) => s + pi * Math.log(pi), 0);
    const kl = p.reduce((s, pi) => s + (1 / V) * Math.log(1 / V / pi), 0);
    const ent = new Float64Array(1);
    const ct = new Float64Array(1);
    logprobForward(null, ent, ct, logits, new Uint32Array([0]), 1, V, T);
    expect(ent[0]).toBeCloseTo(H, 12);
    expect(ct[0]).toBeCloseTo(kl, 12);
  });

  it('large logits stay finite (max subtraction)', () => {
    const logits = new Float32Array([1000, 999, -1000]);
    const lp = new Float32Array(1);
    const ent = new Float32Array(1);
    logprobForward(lp, ent, null, logits, new Uint32Array([1]), 1, 3, 1);
    expect(lp[0]).toBeCloseTo(-1 - Math.log(1 + Math.exp(-1)), 5);
    expect(Number.isFinite(ent[0])).toBe(true);
  });

  it('backward ops accumulate into dlogits', () => {
    const V = 5;
    const logits = new Float64Array([0.1, -0.4, 2, 0.3, -1]);
    const d1 = new Float64Array(V);
    logprobBackward(d1, logits, new Uint32Array([2]), new Float64Array([0.5]), 1, V, 0.9);
    const d2 = new Float64Array(V).fill(1);
    logprobBackward(d2, logits, new Uint32Array([2]), new Float64Array([0.5]), 1, V, 0.9);
    for (let i = 0; i < V; i++) expect(d2[i]).toBeCloseTo(d1[i] + 1, 14);
    const c1 = new Float64Array(V);
    crossEntropyBackward(c1, logits, new Uint32Array([2]), new Float64Array([-0.5]), 1, V);
    const c2 = new Float64Array(V).fill(-2);
    crossEntropyBackward(c2, logits, new Uint32Array([2]), new Float64Array([-0.5]), 1, V);
    for (let i = 0; i < V; i++) expect(c2[i]).toBeCloseTo(c1[i] - 2, 14);
    // the gradient of a log-prob sums to zero over the row
    expect(d1.reduce((s, x) => s + x, 0)).toBeCloseTo(0, 14);
  });
});
