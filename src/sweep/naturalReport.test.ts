// The natural presets' report: method rows over seeds and the separatrix counts from the portrait's right counts.
import { describe, expect, it } from 'vitest';
import { bySide, formatNaturalReport, methodRows, runFailures, separatrix } from './naturalReport';
import type { ExperimentResult } from '../rl/experiment';

const summary = (method: string, base: number, final: number, label: number | null, ids: string[]) => ({
  method,
  steps: 300,
  secondsPerStep: 1,
  agents: ids.map((agent, i) => ({
    agent,
    trainedLabelEnd: label,
    rewardGroupStdNormEnd: i % 2 ? 0.5 : 1.5,
  })),
  meanGreedy: { base, final, peak: final, peakStep: 300 },
  ensemble: { base: base + 0.01, final: final + 0.01, peak: 0, peakStep: 0 },
});
/** One seed's run of a cohort of agents `ids` (a pair unless given) with E ensemble samples per agent. */
const run = (
  finals: Record<string, number>,
  o: { ids?: string[]; E?: number; seed?: number; error?: string } = {},
): ExperimentResult => {
  const ids = o.ids ?? ['A', 'B'];
  return {
    config: {
      name: 'x',
      seed: o.seed ?? 1,
      cohort: { agents: ids.map((id) => ({ id, family: 'nat-rope' })) },
      eval: { ensembleSamples: o.E ?? 4 },
    },
    error: o.error ? { message: o.error } : null,
    evals: [],
    steps: [],
    summary: o.error
      ? []
      : Object.entries(finals).map(([m, f]) => summary(m, 0.5, f, m === 'random' ? null : 0.6, ids)),
  } as unknown as ExperimentResult;
};

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
      '| different-family | A × B | co-rl | 2 | 50.0 | 75.0 ± 7.1 | +25.0 [+20.0, +30.0] | 60.0 | 1.00 | maj@8 51.0 → 76.0 |',
    );
  });

  it('labels each ensemble with the votes it pools: E samples x N agents of that preset', () => {
    const md = formatNaturalReport('addw', [
      { task: 'addw', preset: 'pair', runs: [run({ 'co-rl': 0.7 })] },
      { task: 'addw', preset: 'ring', runs: [run({ 'co-rl': 0.7 }, { ids: ['R', 'C', 'D'] })] },
      { task: 'addw', preset: 'small', runs: [run({ 'co-rl': 0.7 }, { E: 2 })] },
    ]);
    const row = (preset: string) => md.split('\n').find((l) => l.startsWith(`| ${preset} |`));
    expect(row('pair')).toMatch(/\| maj@8 51\.0 → 71\.0 \|$/);
    expect(row('ring')).toMatch(/^\| ring \| R × C × D \| .*\| maj@12 51\.0 → 71\.0 \|$/);
    expect(row('small')).toMatch(/\| maj@4 51\.0 → 71\.0 \|$/);
    expect(md).not.toContain('ensemble maj@8');
    expect(
      methodRows({ task: 'addw', preset: 'ring', runs: [run({ ttrl: 0.3 }, { ids: ['R', 'C', 'D'] })] })[0]
        .ensembleVotes,
    ).toBe(12);
    // seeds of one preset that pooled different budgets cannot share a row
    expect(() =>
      methodRows({
        task: 'addw',
        preset: 'mixed',
        runs: [run({ ttrl: 0.3 }, { seed: 1 }), run({ ttrl: 0.3 }, { seed: 2, E: 2 })],
      }),
    ).toThrow(/mixed: the seeds pooled different ensemble budgets \(seed 1: maj@8, seed 2: maj@4\)/);
  });

  it("names each failed run's own seed and file, not those of the first runs", () => {
    const files = ['addw-ring-s1.json', 'addw-ring-s2.json', 'addw-ring-s3.json'];
    const runs = [
      run({ ttrl: 0.3 }, { seed: 1 }),
      run({}, { seed: 2, error: 'NaN loss' }),
      run({}, { seed: 3, error: 'out of memory' }),
    ];
    expect(runFailures('addw-ring', files, runs)).toEqual([
      'addw-ring seed 2 (addw-ring-s2.json): NaN loss',
      'addw-ring seed 3 (addw-ring-s3.json): out of memory',
    ]);
    expect(runFailures('addw-ring', files, [runs[0], runs[0], runs[0]])).toEqual([]);
    expect(() => runFailures('addw-ring', files.slice(0, 2), runs)).toThrow(
      /addw-ring: 3 runs but 2 file names/,
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
