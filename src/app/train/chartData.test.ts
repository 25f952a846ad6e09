// Tests for the Train view's chart data: rows per step with one column per method × agent (or pair),
// a consistent colour per method and dash per agent, the held-out ensemble, peaks, thinning, step-1 text.
import { describe, expect, it } from 'vitest';
import type { AgentStepRecord, EvalRecord, StepRecord } from '../../rl/records';
import type { RewardMethod } from '../../rl/rewards';
import type { RunMetrics } from '../../formats/runMetrics';
import {
  agentStepChart,
  agreementChart,
  firstStepSummary,
  heldOutChart,
  MAX_ROWS,
  maxOf,
  METHOD_COLOUR,
  niceCeil,
  niceTicks,
  peakEnsemble,
  pseudoLabelChart,
} from './chartData';

const agent = (id: string, v: number): AgentStepRecord =>
  ({
    agent: id,
    rewardMean: v,
    meanEntropy: 1 + v,
    pseudoLabelAccuracy: v,
    trainedLabelAccuracy: v / 2,
  }) as AgentStepRecord;
const step = (method: RewardMethod, s: number): StepRecord => ({
  method,
  step: s,
  agents: [agent('A', s / 10), agent('B', s / 20)],
  pairs: [{ a: 'A', b: 'B', bothLabeled: 4, agreement: 0.5 }],
  timing: { rollout: 0, forward: 0, update: 0, total: 0 },
});
const evalRec = (method: RewardMethod, s: number, ens: number): EvalRecord =>
  ({
    method,
    step: s,
    agents: [
      { agent: 'A', greedyAccuracy: 0.6 },
      { agent: 'B', greedyAccuracy: 0.5 },
    ],
    ensembleAccuracy: ens,
  }) as EvalRecord;

function metrics(n: number): RunMetrics {
  const methods: RewardMethod[] = ['co-rl', 'ttrl'];
  return {
    runId: 1,
    methods,
    steps: Object.fromEntries(methods.map((m) => [m, Array.from({ length: n }, (_, i) => step(m, i + 1))])),
    evals: {
      'co-rl': [evalRec('co-rl', 0, 0.6), evalRec('co-rl', 5, 0.8), evalRec('co-rl', 10, 0.7)],
      ttrl: [evalRec('ttrl', 0, 0.6)],
    },
  };
}

describe('chart data', () => {
  it('one row per step, one series per method × agent, colour per method, dash per agent', () => {
    const d = agentStepChart(metrics(3), (a) => a.rewardMean);
    expect(d.points).toBe(3);
    expect(d.series.map((s) => s.key)).toEqual(['co-rl:A', 'co-rl:B', 'ttrl:A', 'ttrl:B']);
    expect(d.series[0].colour).toBe(METHOD_COLOUR['co-rl']);
    expect(d.series[2].colour).toBe(METHOD_COLOUR.ttrl);
    expect(d.series[0].dash).toBe(d.series[2].dash);
    expect(d.series[0].dash).not.toBe(d.series[1].dash);
    expect(d.rows[1]).toEqual({ step: 2, 'co-rl:A': 0.2, 'co-rl:B': 0.1, 'ttrl:A': 0.2, 'ttrl:B': 0.1 });
  });

  it('pairs, trained-on labels for co-rl, held-out with the ensemble and its peak', () => {
    const m = metrics(2);
    expect(agreementChart(m).series.map((s) => s.key)).toEqual(['co-rl:A-B', 'ttrl:A-B']);
    const p = pseudoLabelChart(m);
    expect(p.series.map((s) => s.key)).toContain('co-rl:A:trained');
    expect(p.rows[0]['co-rl:A:trained']).toBeCloseTo(0.05);
    const h = heldOutChart(m);
    expect(h.points).toBe(3);
    expect(h.rows.map((r) => r.step)).toEqual([0, 5, 10]);
    expect(h.rows[1]['ttrl:ensemble']).toBeNull();
    expect(h.rows[1]['co-rl:ensemble']).toBe(0.8);
    expect(peakEnsemble(m)).toEqual([{ method: 'co-rl', step: 5, accuracy: 0.8 }]);
  });

  it('draws the trained-on labels of co-rl-frozen too, under its control label', () => {
    const m = metrics(2);
    m.methods = ['co-rl', 'co-rl-frozen'];
    m.steps['co-rl-frozen'] = [1, 2].map((s) => step('co-rl-frozen', s));
    const p = pseudoLabelChart(m);
    const d = p.series.find((x) => x.key === 'co-rl-frozen:A:trained')!;
    expect(d.label).toBe('Co-RL frozen (control) A trained-on label');
    expect(d.colour).toBe(METHOD_COLOUR['co-rl-frozen']);
    expect(p.rows[1]['co-rl-frozen:B:trained']).toBeCloseTo(0.05);
    expect(p.series.map((x) => x.key)).toContain('co-rl:A:trained');
  });

  it('thins long runs but counts every step, and keeps the last', () => {
    const d = agentStepChart(metrics(1000), (a) => a.rewardMean);
    expect(d.points).toBe(1000);
    expect(d.rows.length).toBeLessThanOrEqual(MAX_ROWS);
    expect(d.rows.at(-1)!.step).toBe(1000);
  });

  it('summarises the first step per method', () => {
    expect(firstStepSummary(metrics(2))).toBe(
      'co-rl A 0.1000 1.1000 B 0.0500 1.0500 | ttrl A 0.1000 1.1000 B 0.0500 1.0500',
    );
    expect(firstStepSummary({ runId: 0, methods: [], steps: {}, evals: {} })).toBe('');
  });
});

describe('niceCeil', () => {
  it('rounds the axis top up to 1, 2, 2.5 or 5 x 10^k', () => {
    expect([0.34, 0.0172, 3.1, 4.6, 1, 0, 7].map(niceCeil)).toEqual([0.5, 0.02, 5, 5, 1, 1, 10]);
    expect(niceTicks(1)).toEqual([0, 0.25, 0.5, 0.75, 1]);
    expect(niceTicks(5)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(niceTicks(0.02)).toEqual([0, 0.005, 0.01, 0.015, 0.02]);
    expect(niceTicks(0.25)).toEqual([0, 0.05, 0.1, 0.15, 0.2, 0.25]);
    expect(niceTicks(10)).toEqual([0, 2.5, 5, 7.5, 10]);
    expect(
      maxOf(
        [
          { step: 1, a: 0.3, b: null },
          { step: 2, a: 0.1, b: 2 },
        ],
        ['a'],
      ),
    ).toBe(0.3);
  });
});
