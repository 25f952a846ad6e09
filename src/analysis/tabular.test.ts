// Tests for the stochastic tabular-agent simulation: GRPO pieces, determinism, and agreement with the theory ODE (docs/method.md, "Theory").
import { describe, expect, it } from 'vitest';
import {
  binaryVote,
  createTabularSim,
  grpoAdvantages,
  simulateTabular,
  tabularStepToOdeTime,
  workedExampleInitialP,
} from './tabular';
import { finalState, simulateCoRl, simulateSelfRewarding } from './theory';

const last = (r: ReturnType<typeof simulateTabular>): number[] => r.records[r.records.length - 1].meanP;

describe('GRPO pieces', () => {
  it('advantages use the unbiased std plus 1e-4 and vanish for equal rewards', () => {
    const a = grpoAdvantages([1, 0, 0, 0]);
    const std = Math.sqrt((0.75 ** 2 + 3 * 0.25 ** 2) / 3);
    expect(a[0]).toBeCloseTo(0.75 / (std + 1e-4), 12);
    expect(a[1]).toBeCloseTo(-0.25 / (std + 1e-4), 12);
    expect(a.reduce((s, x) => s + x, 0)).toBeCloseTo(0, 12);
    expect(grpoAdvantages([1, 1, 1])).toEqual([0, 0, 0]);
    expect(grpoAdvantages([0])).toEqual([0]);
  });

  it('binary vote: majority, ties to the first sample', () => {
    expect(binaryVote([true, false, true])).toBe(true);
    expect(binaryVote([false, true, false])).toBe(false);
    expect(binaryVote([false, true, true, false])).toBe(false);
    expect(binaryVote([true, false])).toBe(true);
  });
});

describe('tabular simulation', () => {
  it('is deterministic per seed and agents use separate streams', () => {
    const run = (seed: number) =>
      simulateTabular({ method: 'ttrl', initialP: [0.6, 0.6], prompts: 20, steps: 10, seed, eta: 0.2 })
        .finalP;
    expect(run(1)).toEqual(run(1));
    expect(run(1)).not.toEqual(run(2));
    const [a, b] = run(1);
    expect(a).not.toEqual(b); // same start, different sample streams
  });

  it('gt rewards raise p; mini-batch stepping keeps p in [0, 1]', () => {
    const r = simulateTabular({ method: 'gt', initialP: [0.3], prompts: 50, steps: 50, eta: 0.1 });
    expect(last(r)[0]).toBeGreaterThan(0.9);
    const sim = createTabularSim({ method: 'ttrl', initialP: [0.5], prompts: 10, batchSize: 3 });
    for (let i = 0; i < 5; i++) sim.step();
    expect(sim.stepCount).toBe(5);
    for (const p of sim.p(0)) expect(p >= 0 && p <= 1).toBe(true);
  });

  it('Co-RL follows the separatrix: from (0.3, 0.8) both rise, from (0.3, 0.6) both fall (3 seeds)', () => {
    for (const seed of [0, 1, 2]) {
      const opts = { method: 'co-rl' as const, prompts: 200, steps: 200, eta: 0.05, seed, recordEvery: 50 };
      const [upA, upB] = last(simulateTabular({ ...opts, initialP: [0.3, 0.8] }));
      expect(upA).toBeGreaterThan(0.3 + 0.4);
      expect(upB).toBeGreaterThan(0.8 + 0.05);
      const [dnA, dnB] = last(simulateTabular({ ...opts, initialP: [0.3, 0.6] }));
      expect(dnA).toBeLessThan(0.3 - 0.1);
      expect(dnB).toBeLessThan(0.6 - 0.4);
    }
  });

  it('worked example: self-rewarding ~0.5, Co-RL ~1.0', () => {
    for (const seed of [0, 1, 2]) {
      const initialP = workedExampleInitialP(200);
      const opts = { prompts: 200, steps: 200, eta: 0.05, seed, recordEvery: 200, initialP };
      const self = last(simulateTabular({ ...opts, method: 'ttrl' }));
      const co = last(simulateTabular({ ...opts, method: 'co-rl' }));
      for (const m of self) expect(Math.abs(m - 0.5)).toBeLessThan(0.05);
      for (const m of co) expect(m).toBeGreaterThan(0.95);
    }
  });

  it('mean p tracks the ODE quantitatively at small eta (time = steps * eta * sqrt(K(K-1)))', () => {
    const K = 7;
    const eta = 0.01;
    const steps = 100;
    const tEnd = tabularStepToOdeTime(K, eta) * steps;
    const self = last(
      simulateTabular({ method: 'ttrl', initialP: [0.7], prompts: 1000, K, eta, steps, seed: 4 }),
    );
    expect(self[0]).toBeCloseTo(finalState(simulateSelfRewarding([0.7], { K, tEnd, dt: 0.01 }))[0], 2);
    const co = last(
      simulateTabular({ method: 'co-rl', initialP: [0.4, 0.8], prompts: 1000, K, eta, steps, seed: 4 }),
    );
    const ode = finalState(simulateCoRl(0.4, 0.8, { K, tEnd, dt: 0.01 }));
    expect(Math.abs(co[0] - ode[0])).toBeLessThan(0.01);
    expect(Math.abs(co[1] - ode[1])).toBeLessThan(0.01);
  });

  it('rejects invalid setups', () => {
    expect(() => createTabularSim({ method: 'co-rl', initialP: [0.5], prompts: 3 })).toThrow(/N = 1/);
    expect(() => createTabularSim({ method: 'ttrl', initialP: [0.5] })).toThrow(/prompts/);
    expect(() => createTabularSim({ method: 'ttrl', initialP: [[0.5, 0.5], [0.5]] })).toThrow(/same length/);
    expect(() => createTabularSim({ method: 'ttrl', initialP: [1.5], prompts: 2 })).toThrow(/\[0, 1\]/);
    expect(() => createTabularSim({ method: 'rent' as never, initialP: [0.5], prompts: 2 })).toThrow(
      /valid methods: ttrl, co-rl, gt/,
    );
  });
});
