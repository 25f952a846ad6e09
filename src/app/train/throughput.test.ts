// Throughput from step records (ms per lock step, rollouts/s, tokens/s) and the co-labeling chart's data.
import { describe, expect, it } from 'vitest';
import type { StepRecord } from '../../rl/records';
import type { RunMetrics } from '../../formats/runMetrics';
import { throughput, throughputText } from './throughput';
import { coLabelingChart } from './coLabelingChart';

const rec = (method: 'co-rl' | 'ttrl', step: number, total: number, len: number, co = false): StepRecord =>
  ({
    method,
    step,
    pairs: [],
    timing: { rollout: 0, forward: 0, update: 0, total },
    agents: ['A', 'B'].map((agent) => ({ agent, meanLength: len })),
    ...(co
      ? {
          coLabeling: {
            teacher: 'ring',
            unanimousRate: step / 10,
            agents: ['A', 'B'].map((agent, i) => ({
              agent,
              supervisionFraction: 0.5 + i / 4,
              peerTieRate: 0,
              supervisionContainsTruth: 0.5,
              ownVoteAccuracy: 0.25,
              candidateSetSize: 1,
            })),
          },
        }
      : {}),
  }) as unknown as StepRecord;

describe('throughput', () => {
  it('sums the methods of each lock step and averages the last ones every method finished', () => {
    const m: RunMetrics = {
      runId: 1,
      methods: ['co-rl', 'ttrl'],
      evals: {},
      steps: {
        'co-rl': [rec('co-rl', 1, 9, 9), rec('co-rl', 2, 0.2, 4), rec('co-rl', 3, 0.4, 4)],
        ttrl: [rec('ttrl', 1, 9, 9), rec('ttrl', 2, 0.2, 6)],
      },
    };
    // lock step 3 is unfinished (ttrl); window 1 = lock step 2: 0.4 s, 2 methods x 2 agents x 10 rollouts, (4 + 6) x 2 x 10 tokens
    const t = throughput(m, 10, 1)!;
    expect(t.steps).toBe(1);
    expect(t.msPerStep).toBeCloseTo(400);
    expect(t.rolloutsPerSecond).toBeCloseTo(40 / 0.4);
    expect(t.tokensPerSecond).toBeCloseTo(200 / 0.4);
    expect(throughputText(t)).toBe('400 ms/step · 100 rollouts/s · 500 tokens/s');
    expect(throughput(m, 10, 5)!.steps).toBe(2);
    expect(throughput({ ...m, steps: {} }, 10)).toBeNull();
  });

  it('in a pool of model workers a lock step lasts as long as its slowest method, and the line names the pool', () => {
    const m: RunMetrics = {
      runId: 1,
      methods: ['co-rl', 'ttrl'],
      evals: {},
      steps: { 'co-rl': [rec('co-rl', 1, 0.3, 4)], ttrl: [rec('ttrl', 1, 0.2, 6)] },
    };
    const t = throughput(m, 10, 1, 2)!;
    expect(t.msPerStep).toBeCloseTo(300); // side by side from the same start, not 500 one after another
    expect(t.rolloutsPerSecond).toBeCloseTo(40 / 0.3);
    expect(throughputText(t)).toBe('300 ms/step · 133 rollouts/s · 667 tokens/s · 2 model workers');
    expect(throughput(m, 10, 1, 1)!.msPerStep).toBeCloseTo(500);
  });
});

describe('coLabelingChart', () => {
  it('one series per method x agent, and one per method for the unanimous rate; label-less steps draw nothing', () => {
    const m: RunMetrics = {
      runId: 1,
      methods: ['co-rl', 'ttrl'],
      evals: {},
      steps: {
        'co-rl': [rec('co-rl', 1, 1, 1, true), rec('co-rl', 2, 1, 1, true)],
        ttrl: [rec('ttrl', 1, 1, 1)],
      },
    };
    const sup = coLabelingChart(m, 'supervisionFraction');
    expect(sup.series.map((s) => s.key)).toEqual(['co-rl:A', 'co-rl:B']);
    expect(sup.rows).toEqual([
      { step: 1, 'co-rl:A': 0.5, 'co-rl:B': 0.75 },
      { step: 2, 'co-rl:A': 0.5, 'co-rl:B': 0.75 },
    ]);
    const un = coLabelingChart(m, 'unanimousRate');
    expect(un.series.map((s) => s.key)).toEqual(['co-rl:all']);
    expect(un.rows.map((r) => r['co-rl:all'])).toEqual([0.1, 0.2]);
  });
});
