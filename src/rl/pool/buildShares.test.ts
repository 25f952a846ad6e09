// The progress share of builds whose ladder rungs run side by side (src/rl/pool/buildShares.ts).
import { describe, expect, it } from 'vitest';
import type { PretrainProgress } from '../../cohort/pretrainSpec';
import { BuildShares } from './buildShares';

const at = (step: number, index?: number, of = 4, done = false): PretrainProgress => ({
  agent: 'A',
  step,
  maxSteps: 100,
  loss: 1,
  done,
  ...(index === undefined ? {} : { rung: { size: 10, index, of } }),
});

describe('BuildShares', () => {
  it('sums the work of rungs running side by side, whatever their index', () => {
    const s = new BuildShares(1);
    expect(s.update(0, at(50, 3))).toBeCloseTo(0.125); // the last rung half done: an eighth, not 3.5/4
    expect(s.update(0, at(10, 0))).toBeCloseTo(0.15);
    expect(s.update(0, at(100, 3))).toBeCloseTo(0.275);
    expect(s.update(0, at(40, 0))).toBeCloseTo(0.35);
  });

  it('never goes back when a rung restarts, and a finished build counts whole', () => {
    const s = new BuildShares(2);
    expect(s.update(0, at(80, 0, 2))).toBeCloseTo(0.2); // 0.4 of build 0, half the bar
    expect(s.update(0, at(10, 0, 2))).toBeCloseTo(0.2); // the rung ran again from its start
    expect(s.update(1, at(50))).toBeCloseTo(0.45); // a build with no ladder: its steps
    expect(s.update(0, at(30, 0, 2, true))).toBeCloseTo(0.75); // kept at its first rung: done
    expect(s.update(1, at(100, undefined, 4, true))).toBe(1);
  });

  it('reads a build with no steps planned as not started, never NaN', () => {
    const s = new BuildShares(1);
    expect(s.update(0, { ...at(0), maxSteps: 0 })).toBe(0);
  });
});
