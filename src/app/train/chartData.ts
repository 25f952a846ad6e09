// Pure builders of the Train view's chart data: one row per step (or evaluation) with one column per
// series (method × agent, method × pair, method ensemble), colours per method and dashes per agent.
import type { AgentStepRecord, EvalRecord, StepRecord } from '../../rl/records';
import type { RewardMethod } from '../../rl/rewards';
import type { RunMetrics } from '../../formats/runMetrics';

/** One line of a chart. */
export interface SeriesDef {
  /** Column of the rows. */
  key: string;
  /** Legend and tooltip text. */
  label: string;
  method: RewardMethod;
  colour: string;
  /** SVG stroke-dasharray ('' = solid). */
  dash: string;
  width: number;
  opacity: number;
}

export type Row = Record<string, number | null>;

export interface ChartData {
  /** Rows sorted by x (`step`), possibly thinned to at most MAX_ROWS. */
  rows: Row[];
  series: SeriesDef[];
  /** Steps (or evaluations) the data holds, before any thinning. */
  points: number;
}

/** Consistent colour per method across every chart. */
export const METHOD_COLOUR: Record<RewardMethod, string> = {
  'co-rl': '#2563eb',
  ttrl: '#dc2626',
  gt: '#16a34a',
  intuitor: '#9333ea',
  rent: '#ea580c',
  random: '#6b7280',
  'co-rl-frozen': '#0891b2',
};

/** Display names of the methods. */
export const METHOD_LABEL: Record<RewardMethod, string> = {
  'co-rl': 'Co-RL',
  ttrl: 'TTRL',
  gt: 'GT',
  intuitor: 'Intuitor',
  rent: 'RENT',
  random: 'Random',
  'co-rl-frozen': 'Co-RL frozen (control)',
};

/** Dash pattern of the i-th agent (or pair): solid, dashed, dotted, dash-dot. */
export const DASHES = ['', '7 4', '2 3', '10 3 2 3'];
export const dashOf = (i: number): string => DASHES[i % DASHES.length];

/** Most rows a chart draws; longer runs are thinned evenly (the last row always stays). */
export const MAX_ROWS = 400;

/** The smallest 1, 2, 2.5 or 5 x 10^k at or above `v` (a round top for the y axis). */
export function niceCeil(v: number): number {
  if (!(v > 0) || !Number.isFinite(v)) return 1;
  const p = 10 ** Math.floor(Math.log10(v));
  return ([1, 2, 2.5, 5, 10].find((m) => m * p >= v * (1 - 1e-9)) ?? 10) * p;
}
/** Evenly spaced round ticks from 0 to `top` (a niceCeil value): quarters for 1 and 2, fifths for 2.5, 5, 10. */
export function niceTicks(top: number): number[] {
  const m = Math.round((top / 10 ** Math.floor(Math.log10(top))) * 10) / 10;
  const n = m === 1 || m === 2 ? 4 : 5;
  return Array.from({ length: n + 1 }, (_, i) => Number(((i * top) / n).toPrecision(6)));
}

/** The largest value of the given series over the rows (0 if none). */
export function maxOf(rows: readonly Row[], keys: readonly string[]): number {
  let max = 0;
  for (const r of rows)
    for (const k of keys) {
      const v = r[k];
      if (typeof v === 'number' && Number.isFinite(v) && v > max) max = v;
    }
  return max;
}

export const seriesKey = (method: RewardMethod, what: string): string => `${method}:${what}`;

function thin(rows: Row[]): Row[] {
  if (rows.length <= MAX_ROWS) return rows;
  const stride = Math.ceil(rows.length / MAX_ROWS);
  return rows.filter((_, i) => i % stride === 0 || i === rows.length - 1);
}

function series(
  method: RewardMethod,
  what: string,
  label: string,
  i: number,
  extra: Partial<SeriesDef> = {},
): SeriesDef {
  return {
    key: seriesKey(method, what),
    label,
    method,
    colour: METHOD_COLOUR[method],
    dash: dashOf(i),
    width: 2,
    opacity: 1,
    ...extra,
  };
}

/** Rows keyed by x, filled by `fill(row, method, record)` for every method's records. */
function build<T extends { step: number }>(
  methods: readonly RewardMethod[],
  recs: Partial<Record<RewardMethod, T[]>>,
  keys: string[],
  fill: (row: Row, m: RewardMethod, r: T) => void,
): Row[] {
  const byStep = new Map<number, Row>();
  for (const m of methods)
    for (const r of recs[m] ?? []) {
      let row = byStep.get(r.step);
      if (!row) {
        row = { step: r.step };
        for (const k of keys) row[k] = null;
        byStep.set(r.step, row);
      }
      fill(row, m, r);
    }
  return [...byStep.values()].sort((a, b) => a.step! - b.step!);
}

/** The agent ids of a run (from its first records). */
export function agentIds(m: RunMetrics): string[] {
  for (const meth of m.methods) {
    const r = m.steps[meth]?.[0] ?? m.evals[meth]?.[0];
    if (r) return r.agents.map((a) => a.agent);
  }
  return [];
}

/** A per-agent figure of every step: one series per method × agent. */
export function agentStepChart(m: RunMetrics, pick: (a: AgentStepRecord) => number | null): ChartData {
  const ids = agentIds(m);
  const defs = m.methods.flatMap((meth) =>
    ids.map((id, i) => series(meth, id, `${METHOD_LABEL[meth]} ${id}`, i)),
  );
  const rows = build(
    m.methods,
    m.steps,
    defs.map((d) => d.key),
    (row, meth, r: StepRecord) => {
      for (const a of r.agents) row[seriesKey(meth, a.agent)] = pick(a);
    },
  );
  return { rows: thin(rows), series: defs, points: rows.length };
}

/** Pseudo-label accuracy per agent, plus (for co-rl and co-rl-frozen) the accuracy of the labels it was trained on. */
export function pseudoLabelChart(m: RunMetrics): ChartData {
  const base = agentStepChart(m, (a) => a.pseudoLabelAccuracy);
  const peerRun = (['co-rl', 'co-rl-frozen'] as const).filter((x) => m.methods.includes(x));
  if (peerRun.length === 0) return base;
  const ids = agentIds(m);
  const extra = peerRun.flatMap((meth) =>
    ids.map((id, i) =>
      series(meth, `${id}:trained`, `${METHOD_LABEL[meth]} ${id} trained-on label`, i, {
        width: 1.5,
        opacity: 0.45,
      }),
    ),
  );
  const rows = base.rows.map((row) => ({ ...row }));
  const at = new Map(rows.map((r) => [r.step, r]));
  for (const meth of peerRun)
    for (const r of m.steps[meth] ?? []) {
      const row = at.get(r.step);
      if (row) for (const a of r.agents) row[seriesKey(meth, `${a.agent}:trained`)] = a.trainedLabelAccuracy;
    }
  for (const row of rows) for (const d of extra) row[d.key] ??= null;
  return { rows, series: [...base.series, ...extra], points: base.points };
}

/** Vote agreement of every pair: one series per method × pair. */
export function agreementChart(m: RunMetrics): ChartData {
  const first = m.methods.map((meth) => m.steps[meth]?.[0]).find(Boolean);
  const pairs = first ? first.pairs.map((p) => `${p.a}-${p.b}`) : [];
  const defs = m.methods.flatMap((meth) =>
    pairs.map((p, i) => series(meth, p, `${METHOD_LABEL[meth]} ${p}`, i)),
  );
  const rows = build(
    m.methods,
    m.steps,
    defs.map((d) => d.key),
    (row, meth, r: StepRecord) => {
      for (const p of r.pairs) row[seriesKey(meth, `${p.a}-${p.b}`)] = p.agreement;
    },
  );
  return { rows: thin(rows), series: defs, points: rows.length };
}

/** Held-out greedy accuracy per agent and the pooled ensemble per method, at every evaluation. */
export function heldOutChart(m: RunMetrics): ChartData {
  const ids = agentIds(m);
  const defs = m.methods.flatMap((meth) => [
    ...ids.map((id, i) => series(meth, id, `${METHOD_LABEL[meth]} ${id}`, i)),
    series(meth, 'ensemble', `${METHOD_LABEL[meth]} ensemble`, 0, { width: 5, opacity: 0.35 }),
  ]);
  const rows = build(
    m.methods,
    m.evals,
    defs.map((d) => d.key),
    (row, meth, r: EvalRecord) => {
      for (const a of r.agents) row[seriesKey(meth, a.agent)] = a.greedyAccuracy;
      row[seriesKey(meth, 'ensemble')] = r.ensembleAccuracy;
    },
  );
  return { rows: thin(rows), series: defs, points: rows.length };
}

/** Per method, the evaluation with the highest ensemble accuracy (the first one on ties); needs 2 evals. */
export function peakEnsemble(m: RunMetrics): { method: RewardMethod; step: number; accuracy: number }[] {
  const out: { method: RewardMethod; step: number; accuracy: number }[] = [];
  for (const meth of m.methods) {
    const ev = m.evals[meth] ?? [];
    if (ev.length < 2) continue;
    const best = ev.reduce((b, r) => (r.ensembleAccuracy > b.ensembleAccuracy ? r : b));
    out.push({ method: meth, step: best.step, accuracy: best.ensembleAccuracy });
  }
  return out;
}

/** The first step's figures per method, e.g. "co-rl A 0.5000 0.8123 | ..." (reward mean, entropy). */
export function firstStepSummary(m: RunMetrics): string {
  return m.methods
    .map((meth) => {
      const r = m.steps[meth]?.[0];
      if (!r) return null;
      return `${meth} ${r.agents.map((a) => `${a.agent} ${a.rewardMean.toFixed(4)} ${a.meanEntropy.toFixed(4)}`).join(' ')}`;
    })
    .filter(Boolean)
    .join(' | ');
}
