// Tests for the binary-reduction theory (docs/method.md, "Theory"): V_K, phi_K, q_K, ODE fixed points, separatrix and the worked example.
import { describe, expect, it } from 'vitest';
import {
  binomialPmf,
  coRlField,
  coRlVectorField,
  finalState,
  majorityProb,
  phi,
  q,
  rk4,
  selfDrift,
  simulateCoRl,
  simulateSelfRewarding,
  workedExample,
} from './theory';

describe('binary reduction quantities', () => {
  it('binomial pmf sums to 1 and handles p = 0, 1', () => {
    const pmf = binomialPmf(7, 0.3);
    expect(pmf.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
    expect(pmf[2]).toBeCloseTo(21 * 0.3 ** 2 * 0.7 ** 5, 12);
    expect(binomialPmf(5, 0)).toEqual([1, 0, 0, 0, 0, 0]);
    expect(binomialPmf(5, 1)).toEqual([0, 0, 0, 0, 0, 1]);
  });

  it('V_K, phi_K, q_K match hand values', () => {
    // K = 3: V = p^3 + 3p^2(1-p)
    expect(majorityProb(3, 0.6)).toBeCloseTo(0.216 + 3 * 0.36 * 0.4, 12);
    expect(majorityProb(7, 0.5)).toBeCloseTo(0.5, 12);
    expect(phi(7, 0.5)).toBeCloseTo(0, 12);
    expect(phi(7, 0.8)).toBeCloseTo(-phi(7, 0.2), 12);
    expect(phi(7, 1)).toBe(1);
    // K = 3, p = 0.5: E[sqrt(C(3-C))/3] = (3/8 * sqrt2 + 3/8 * sqrt2)/3 = sqrt2/4; q = 0.25 * sqrt2/4 * eta
    expect(q(3, 0.5, 2)).toBeCloseTo((2 * 0.25 * Math.SQRT2) / 4, 12);
    expect(q(7, 0.3)).toBeCloseTo(q(7, 0.7), 12);
    expect(q(7, 0)).toBe(0);
  });

  it('self-rewarding drift is negative below 1/2 and positive above', () => {
    for (const p of [0.05, 0.2, 0.4, 0.49]) expect(selfDrift(7, p)).toBeLessThan(0);
    for (const p of [0.51, 0.6, 0.8, 0.95]) expect(selfDrift(7, p)).toBeGreaterThan(0);
    expect(selfDrift(7, 0.5)).toBeCloseTo(0, 12);
  });

  it('pA + pB = 1 is invariant and (1/2, 1/2) is a fixed point', () => {
    for (const a of [0.1, 0.3, 0.45, 0.8]) {
      const [dA, dB] = coRlField(7, a, 1 - a);
      expect(dA + dB).toBeCloseTo(0, 12);
    }
    const [dA, dB] = coRlField(7, 0.5, 0.5);
    expect(Math.abs(dA) + Math.abs(dB)).toBeLessThan(1e-15);
  });
});

describe('ODE trajectories (K = 7)', () => {
  it('self-rewarding: p < 1/2 -> 0, p > 1/2 -> 1', () => {
    const [lo, mid, hi] = finalState(simulateSelfRewarding([0.3, 0.45, 0.7]));
    expect(lo).toBeLessThan(0.01);
    expect(mid).toBeLessThan(0.01);
    expect(hi).toBeGreaterThan(0.99);
  });

  it('separatrix: (0.3, 0.8) ends near (1, 1), (0.3, 0.6) near (0, 0)', () => {
    const up = simulateCoRl(0.3, 0.8);
    expect(finalState(up)[0]).toBeGreaterThan(0.99);
    expect(finalState(up)[1]).toBeGreaterThan(0.99);
    // pB first falls (its teacher A is mostly wrong), then recovers
    expect(Math.min(...up.y.map((s) => s[1]))).toBeLessThan(0.8);
    const down = simulateCoRl(0.3, 0.6);
    expect(finalState(down)[0]).toBeLessThan(0.01);
    expect(finalState(down)[1]).toBeLessThan(0.01);
    // on the separatrix the sum stays 1
    const on = finalState(simulateCoRl(0.3, 0.7, { tEnd: 20 }));
    expect(on[0] + on[1]).toBeCloseTo(1, 6);
  });

  it('worked example: self-rewarding ends at 0.5, Co-RL at 1.0', () => {
    const r = workedExample();
    expect(r.selfRewarding.mean).toBeCloseTo(0.5, 2);
    expect(r.selfRewarding.accA).toBeCloseTo(0.5, 2);
    expect(r.coRl.mean).toBeGreaterThan(0.99);
    expect(r.coRl.accA).toBeGreaterThan(0.99);
    expect(r.coRl.accB).toBeGreaterThan(0.99);
  });

  it('rk4 is 4th-order accurate and clamps to [0, 1]', () => {
    // dy/dt = -y from 1: exp(-1) at t = 1
    const tr = rk4((y) => [-y[0]], [1], { dt: 0.1, steps: 10 });
    expect(tr.t.length).toBe(11);
    expect(tr.t[10]).toBeCloseTo(1, 12);
    expect(Math.abs(tr.y[10][0] - Math.exp(-1))).toBeLessThan(1e-6);
    const grow = rk4(() => [5], [0.5], { dt: 1, steps: 3, recordEvery: 2 });
    expect(grow.y.map((s) => s[0])).toEqual([0.5, 1, 1]);
    expect(grow.t).toEqual([0, 2, 3]);
    expect(() => rk4(() => [0], [0], { dt: 0, steps: 1 })).toThrow(/dt/);
  });

  it('vector field grid and input checks', () => {
    const f = coRlVectorField(4);
    expect(f).toHaveLength(16);
    expect(f[0].dA).toBeLessThan(0);
    expect(f[15].dA).toBeGreaterThan(0);
    expect(() => phi(0, 0.5)).toThrow(/K must be/);
    expect(() => q(7, 1.5)).toThrow(/p must be in \[0, 1\]/);
  });
});
