// Unit tests of the compare view's data (compareData.ts) and of the charts' smoothing (smoothing.ts).
import { describe, expect, it } from 'vitest';
import type { LabRun } from '../../formats/labRuns';
import { DEFAULT_RUN_SETTINGS, toExperimentConfig, type RunSettings } from '../../formats/runSettings';
import { COMPARE_METRICS, compareRows, differingSettings, groupRuns, smoothCompareRows } from './compareData';
import { emaSmooth, smoothChart } from './smoothing';
import type { EvalRecord } from '../../rl/records';

const ev = (step: number, acc: number): EvalRecord => ({
  method: 'co-rl',
  step,
  problems: 4,
  agents: [],
  meanGreedyAccuracy: acc,
  ensembleAccuracy: acc,
  oracleAccuracy: 1,
  seconds: 0,
});
function run(id: string, patch: Partial<RunSettings>, accs: number[]): LabRun {
  const settings = { ...DEFAULT_RUN_SETTINGS, methods: ['co-rl' as const], ...patch };
  return {
    id,
    name: id,
    source: 'imported',
    settings,
    config: toExperimentConfig(settings),
    step: accs.length,
    metrics: { methods: ['co-rl'], steps: {}, evals: { 'co-rl': accs.map((a, i) => ev(i, a)) } },
  };
}
const ensemble = COMPARE_METRICS.find((m) => m.id === 'ensemble')!;

describe('compare data', () => {
  it('groups runs that differ only by seed into one mean line with a min-max band', () => {
    const runs = [
      run('a', { seed: 1 }, [0.2, 0.4]),
      run('b', { seed: 2 }, [0.4, 0.6]),
      run('c', { seed: 3 }, [0.3, 0.8]),
      run('d', { seed: 4, lr: 3e-4 }, [0.1, 0.2]),
    ];
    const groups = groupRuns(runs, true);
    expect(groups.map((g) => g.runs.map((r) => r.id))).toEqual([['a', 'b', 'c'], ['d']]);
    const rows = compareRows(groups, ensemble, 'co-rl');
    expect(rows[1].g0).toBeCloseTo(0.6);
    expect(rows[1]['g0:band']).toEqual([0.4, 0.8]);
    expect(rows[1].g1).toBe(0.2);
    expect('g1:band' in rows[1]).toBe(false);
    expect(groupRuns(runs, false)).toHaveLength(4);
  });

  it('names exactly the settings that differ, in the settings order', () => {
    const runs = [
      run('a', { seed: 1 }, []),
      run('b', { seed: 2 }, []),
      run('d', { seed: 4, lr: 3e-4, methods: ['co-rl', 'ttrl'] }, []),
    ];
    expect(differingSettings(runs)).toEqual(['methods', 'seed', 'lr']);
    expect(differingSettings(runs.slice(0, 2))).toEqual(['seed']);
    expect(differingSettings(runs.slice(0, 1))).toEqual([]);
  });

  it('smooths copies of the means and bands, leaving the raw columns as they were', () => {
    const groups = groupRuns(
      [run('a', { seed: 1 }, [0, 1, 0, 1]), run('b', { seed: 2 }, [1, 0, 1, 0])],
      true,
    );
    const rows = compareRows(groups, ensemble, 'co-rl');
    const copy = JSON.parse(JSON.stringify(rows));
    const sm = smoothCompareRows(rows, groups, 0.5);
    expect(rows).toEqual(copy);
    expect(sm.map((r) => r.g0)).toEqual(rows.map((r) => r.g0));
    expect(sm[1]['g0:band~smooth']).toEqual([emaSmooth([0, 0], 0.5)[1], emaSmooth([1, 1], 0.5)[1]]);
  });
});

describe('smoothing (TensorBoard debiased EMA)', () => {
  it('matches the formula, keeps the first point, skips nulls, and is the identity at 0', () => {
    const ys = [1, null, 3, 5];
    const w = 0.6;
    const s = emaSmooth(ys, w);
    expect(s[0]).toBeCloseTo(1);
    expect(s[1]).toBeNull();
    const l2 = (1 - w) * 1 * w + (1 - w) * 3;
    expect(s[2]).toBeCloseTo(l2 / (1 - w ** 2));
    expect(s[3]).toBeCloseTo((l2 * w + (1 - w) * 5) / (1 - w ** 3));
    expect(emaSmooth(ys, 0)).toEqual(ys);
    expect(emaSmooth([2, 2, 2], 0.9).every((v) => Math.abs(v! - 2) < 1e-12)).toBe(true);
  });

  it('adds smoothed columns beside the raw ones and draws the raw lines faint', () => {
    const data = {
      rows: [
        { step: 1, 'co-rl:A': 1 },
        { step: 2, 'co-rl:A': 0 },
      ],
      series: [
        {
          key: 'co-rl:A',
          label: 'Co-RL A',
          method: 'co-rl' as const,
          colour: '#000',
          dash: '',
          width: 2,
          opacity: 1,
        },
      ],
      points: 2,
    };
    const out = smoothChart(data, 0.5);
    expect(out.rows.map((r) => r['co-rl:A'])).toEqual([1, 0]);
    expect(out.rows[1]['co-rl:A~smooth']).toBeCloseTo((0.5 * 0.5) / (1 - 0.25));
    expect(out.raw[0].opacity).toBeLessThan(1);
    expect(out.smooth[0].width).toBe(2);
    expect(data.rows[1]).toEqual({ step: 2, 'co-rl:A': 0 });
    expect(smoothChart(data, 0).rows).toBe(data.rows);
  });
});
