// Pure data of the compare view (issue 15): runs that differ only by seed grouped into one line (mean,
// with a min-max band), the settings that differ between shown runs, and chart rows per metric and method.
import type { EvalRecord, StepRecord } from '../../rl/records';
import type { RewardMethod } from '../../rl/rewards';
import type { LabRun } from '../../formats/labRuns';
import type { RunSettings } from '../../formats/runSettings';
import { SETTINGS_KEYS } from '../../formats/urlConfig';
import { emaSmooth } from './smoothing';

/** Colours of the shown runs (or seed groups), in order. */
export const RUN_COLOURS = [
  '#2563eb',
  '#dc2626',
  '#16a34a',
  '#9333ea',
  '#ea580c',
  '#0891b2',
  '#db2777',
  '#65a30d',
  '#475569',
  '#b45309',
];

/** One metric the compare charts offer: a figure of a step record or of an evaluation. */
export interface CompareMetric {
  id: string;
  title: string;
  kind: 'step' | 'eval';
  /** Top of the y axis, when fixed. */
  yMax?: number;
  pick(r: StepRecord | EvalRecord): number | null;
}

const mean = (xs: readonly (number | null)[]): number | null => {
  const v = xs.filter((x): x is number => x !== null && Number.isFinite(x));
  return v.length ? v.reduce((a, b) => a + b, 0) / v.length : null;
};
const stepMean = (f: (a: StepRecord['agents'][number]) => number | null) => (r: StepRecord | EvalRecord) =>
  mean((r as StepRecord).agents.map(f));

export const COMPARE_METRICS: readonly CompareMetric[] = [
  {
    id: 'ensemble',
    title: 'Held-out ensemble accuracy',
    kind: 'eval',
    yMax: 1,
    pick: (r) => (r as EvalRecord).ensembleAccuracy,
  },
  {
    id: 'greedy',
    title: 'Held-out accuracy (mean of the agents)',
    kind: 'eval',
    yMax: 1,
    pick: (r) => (r as EvalRecord).meanGreedyAccuracy,
  },
  {
    id: 'agreement',
    title: 'Pairwise agreement (mean of the pairs)',
    kind: 'step',
    yMax: 1,
    pick: (r) => mean((r as StepRecord).pairs.map((p) => p.agreement)),
  },
  {
    id: 'pseudo-label',
    title: 'Pseudo-label accuracy (mean of the agents)',
    kind: 'step',
    yMax: 1,
    pick: stepMean((a) => a.pseudoLabelAccuracy),
  },
  {
    id: 'reward-std',
    title: 'Reward std ÷ step 1 (mean of the agents)',
    kind: 'step',
    pick: stepMean((a) => a.rewardGroupStdNorm),
  },
  {
    id: 'entropy',
    title: 'Token entropy (nats, mean of the agents)',
    kind: 'step',
    pick: stepMean((a) => a.meanEntropy),
  },
  {
    id: 'kl',
    title: 'KL to the base (nats per token, mean of the agents)',
    kind: 'step',
    pick: stepMean((a) => a.kl),
  },
];

/** A line of the compare charts: one run, or the runs that differ only by seed. */
export interface RunGroup {
  key: string;
  colour: string;
  runs: LabRun[];
  label: string;
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** The settings (in the settings' own order) whose values are not the same in every run. */
export function differingSettings(runs: readonly LabRun[]): (keyof RunSettings)[] {
  if (runs.length < 2) return [];
  return SETTINGS_KEYS.filter((k) => runs.some((r) => !same(r.settings[k], runs[0].settings[k])));
}

/** Runs grouped by their settings apart from the seed (when `bySeed`), in first-seen order, coloured. */
export function groupRuns(runs: readonly LabRun[], bySeed: boolean): RunGroup[] {
  const groups: RunGroup[] = [];
  const at = new Map<string, RunGroup>();
  for (const r of runs) {
    const { seed: _seed, ...rest } = r.settings;
    const k = bySeed ? JSON.stringify(rest) : r.id;
    let g = at.get(k);
    if (!g) {
      g = {
        key: `g${groups.length}`,
        colour: RUN_COLOURS[groups.length % RUN_COLOURS.length],
        runs: [],
        label: '',
      };
      at.set(k, g);
      groups.push(g);
    }
    g.runs.push(r);
  }
  for (const g of groups)
    g.label =
      g.runs.length === 1
        ? g.runs[0].name
        : `${g.runs[0].name} and ${g.runs.length - 1} more (seeds ${g.runs.map((r) => r.settings.seed).join(', ')})`;
  return groups;
}

/** Methods any of the runs trained, in the first run's order. */
export function methodsOf(runs: readonly LabRun[]): RewardMethod[] {
  return [...new Set(runs.flatMap((r) => r.metrics.methods))];
}

export type CompareRow = Record<string, number | [number, number] | null>;

/** Rows of one chart: per step, each group's mean (`key`), its [min, max] band (`key:band`, groups of 2+). */
export function compareRows(
  groups: readonly RunGroup[],
  metric: CompareMetric,
  method: RewardMethod,
): CompareRow[] {
  const byStep = new Map<number, Map<string, number[]>>();
  for (const g of groups)
    for (const r of g.runs) {
      const recs: (StepRecord | EvalRecord)[] =
        (metric.kind === 'eval' ? r.metrics.evals[method] : r.metrics.steps[method]) ?? [];
      for (const rec of recs) {
        const v = metric.pick(rec);
        if (v === null || !Number.isFinite(v)) continue;
        let row = byStep.get(rec.step);
        if (!row) byStep.set(rec.step, (row = new Map()));
        row.set(g.key, [...(row.get(g.key) ?? []), v]);
      }
    }
  return [...byStep.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([step, vals]) => {
      const row: CompareRow = { step };
      for (const g of groups) {
        const v = vals.get(g.key);
        row[g.key] = v ? v.reduce((a, b) => a + b, 0) / v.length : null;
        if (g.runs.length > 1) row[`${g.key}:band`] = v ? [Math.min(...v), Math.max(...v)] : null;
      }
      return row;
    });
}

/** The rows with smoothed copies (`key~smooth`, `key:band~smooth`) of every mean and band; the raw ones unchanged. */
export function smoothCompareRows(
  rows: readonly CompareRow[],
  groups: readonly RunGroup[],
  w: number,
): CompareRow[] {
  if (!(w > 0)) return [...rows];
  const out = rows.map((r) => ({ ...r }));
  const col = (k: string, i: 0 | 1 | null) =>
    rows.map((r) => {
      const v = r[k];
      return v === null || v === undefined ? null : Array.isArray(v) ? v[i ?? 0] : (v as number);
    });
  for (const g of groups) {
    const m = emaSmooth(col(g.key, null), w);
    out.forEach((r, i) => (r[`${g.key}~smooth`] = m[i]));
    if (g.runs.length < 2) continue;
    const lo = emaSmooth(col(`${g.key}:band`, 0), w);
    const hi = emaSmooth(col(`${g.key}:band`, 1), w);
    out.forEach(
      (r, i) => (r[`${g.key}:band~smooth`] = lo[i] === null || hi[i] === null ? null : [lo[i]!, hi[i]!]),
    );
  }
  return out;
}
