// Unit tests of the live phase portrait's data (portraitData.ts): frames from eval records, sides, counts.
import { describe, expect, it } from 'vitest';
import type { EvalRecord } from '../../rl/records';
import {
  agentPairs,
  jitter,
  movedBetween,
  portraitAgents,
  portraitCounts,
  portraitSeries,
  sideOf,
} from './portraitData';

const rec = (step: number, a: number[], b: number[], S = 4): EvalRecord => ({
  method: 'co-rl',
  step,
  problems: a.length,
  meanGreedyAccuracy: 0,
  ensembleAccuracy: 0,
  oracleAccuracy: 0,
  seconds: 0,
  portraitSamples: S,
  agents: [
    {
      agent: 'A',
      greedyAccuracy: 0,
      sampledAccuracy: 0,
      majAccuracy: 0,
      parseableFraction: 1,
      portraitRight: a,
    },
    {
      agent: 'B',
      greedyAccuracy: 0,
      sampledAccuracy: 0,
      majAccuracy: 0,
      parseableFraction: 1,
      portraitRight: b,
    },
  ],
});

describe('live portrait data', () => {
  it('gives one dot per problem per evaluation at count / S', () => {
    const s = portraitSeries([rec(0, [0, 4, 1], [1, 3, 3]), rec(5, [2, 4, 0], [3, 3, 0])], 'A', 'B')!;
    expect(s.frames.map((f) => f.step)).toEqual([0, 5]);
    expect(s.frames[0].dots).toEqual([
      { problem: 0, pA: 0, pB: 0.25 },
      { problem: 1, pA: 1, pB: 0.75 },
      { problem: 2, pA: 0.25, pB: 0.75 },
    ]);
    expect(s.startSide).toEqual(['below', 'above', 'on']);
    expect(movedBetween(s.frames[0].dots, s.frames[1].dots)).toBe(2);
  });

  it('counts sides and crossings against the start', () => {
    const s = portraitSeries(
      [rec(0, [0, 4, 3, 2], [1, 3, 3, 2]), rec(1, [3, 0, 3, 4], [3, 1, 3, 4])],
      'A',
      'B',
    )!;
    expect(portraitCounts(s.frames[1].dots, s.startSide)).toEqual({
      above: 3,
      below: 1,
      on: 0,
      crossed: 2,
      crossedUp: 1,
      crossedDown: 1,
    });
  });

  it('skips evaluations without counts and is null when none has them', () => {
    const old = rec(0, [1], [1]);
    delete old.portraitSamples;
    expect(portraitSeries([old], 'A', 'B')).toBeNull();
    expect(portraitSeries([old, rec(2, [1], [2])], 'A', 'B')!.frames.map((f) => f.step)).toEqual([2]);
    expect(portraitAgents([old, rec(2, [1], [2])])).toEqual(['A', 'B']);
  });

  it('lists every pair for N >= 3 and keeps sums like 3/8 + 5/8 on the line', () => {
    expect(agentPairs(['A', 'B', 'C']).map((p) => p.label)).toEqual(['A-B', 'A-C', 'B-C']);
    expect(sideOf(3 / 8, 5 / 8)).toBe('on');
    expect(sideOf(0.1 + 0.2, 0.7)).toBe('on');
  });

  it('jitters by less than half a 1/S step, the same way every time', () => {
    for (let i = 0; i < 200; i++) {
      const [x, y] = jitter(i, 8);
      expect(Math.abs(x)).toBeLessThan(0.5 / 8);
      expect(Math.abs(y)).toBeLessThan(0.5 / 8);
      expect(jitter(i, 8)).toEqual([x, y]);
    }
  });
});
