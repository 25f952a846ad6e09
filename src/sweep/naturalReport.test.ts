// The natural presets' report: method rows over seeds and the separatrix counts from the portrait's right counts.
import { describe, expect, it } from 'vitest';
import { bySide, formatNaturalReport, methodRows, separatrix } from './naturalReport';
import type { ExperimentResult } from '../rl/experiment';

const summary = (method: string, base: number, final: number, label: number | null) => ({
  method,
  steps: 300,
  secondsPerStep: 1,
  agents: [
    { agent: 'A', trainedLabelEnd: label, rewardGroupStdNormEnd: 1.5 },
    { agent: 'B', trainedLabelEnd: label, rewardGroupStdNormEnd: 0.5 },
  ],
  meanGreedy: { base, final, peak: final, peakStep: 300 },
  ensemble: { base: base + 0.01, final: final + 0.01, peak: 0, peakStep: 0 },
});
const run = (finals: Record<string, number>): ExperimentResult =>
  ({
    config: {
      name: 'x',
      cohort: {
        agents: [
          { id: 'A', family: 'nat-rope' },
          { id: 'B', family: 'nat-chunk' },
        ],
      },
    },
    error: null,
    evals: [],
    steps: [],
    summary: Object.entries(finals).map(([m, f]) => summary(m, 0.5, f, m === 'random' ? null : 0.6)),
  }) as unknown as ExperimentResult;

describe('natural report', () => {
  it('averages each method over seeds: finals, label accuracy, reward std, ensembles', () => {
    const rows = methodRows({
      task: 'addw',
      preset: 'different-family',
      runs: [run({ 'co-rl': 0.7, ttrl: 0.2 }), run({ 'co-rl': 0.8, ttrl: 0.3 })],
    });
    expect(rows.map((r) => r.method)).toEqual(['co-rl', 'ttrl']);
    expect(rows[0]).toMatchObject({
      seeds: 2,
      base: 0.5,
      finals: [0.7, 0.8],
      trainedLabelEnd: 0.6,
      rewardStdEnd: 1,
      ensembleBase: 0.51,
    });
    const md = formatNaturalReport('addw', [
      { task: 'addw', preset: 'different-family', runs: [run({ 'co-rl': 0.7 }), run({ 'co-rl': 0.8 })] },
    ]);
    expect(md).toContain(
      '| different-family | A × B | co-rl | 2 | 50.0 | 75.0 ± 7.1 | +25.0 [+20.0, +30.0] | 60.0 | 1.00 | 51.0 → 76.0 |',
    );
  });

  it('counts problems above, on and below pA + pB = 1 from S right samples per agent', () => {
    const p = {
      config: { name: 'p' },
      evals: [
        {
          step: 0,
          portraitSamples: 4,
          agents: [
            { agent: 'A', portraitRight: [4, 2, 0, 3] },
            { agent: 'B', portraitRight: [1, 2, 1, 0] },
          ],
        },
      ],
    } as unknown as ExperimentResult;
    expect(separatrix(p)).toEqual([
      { pair: 'A-B', above: 1, on: 1, below: 2, meanA: 9 / 16, meanB: 4 / 16, S: 4 },
    ]);
    expect(() => separatrix({ config: { name: 'q' }, evals: [] } as unknown as ExperimentResult)).toThrow(
      /no step-0 evaluation with portraitRight/,
    );
  });

  it('splits greedy accuracy by the side of pA + pB = 1 each problem starts on', () => {
    const portrait = {
      config: { name: 'p' },
      evals: [
        {
          step: 0,
          portraitSamples: 4,
          agents: [
            { agent: 'A', portraitRight: [4, 2, 0, 3] },
            { agent: 'B', portraitRight: [1, 2, 1, 0] },
          ],
        },
      ],
    } as unknown as ExperimentResult;
    const ev = (step: number, a: string, b: string) => ({
      method: 'co-rl',
      step,
      agents: [
        { agent: 'A', greedyCorrect: a },
        { agent: 'B', greedyCorrect: b },
      ],
    });
    const r = {
      error: null,
      evals: [ev(0, '1100', '1000'), ev(300, '1111', '0001')],
    } as unknown as ExperimentResult;
    // sides: problem 0 above, 1 on, 2 and 3 below
    expect(bySide({ task: 't', preset: 'p', runs: [r], portrait }, 'co-rl')).toEqual([
      { side: 'above', n: 1, base: 1, final: 0.5 },
      { side: 'on', n: 1, base: 0.5, final: 0.5 },
      { side: 'below', n: 2, base: 0, final: 0.75 },
    ]);
  });
});
