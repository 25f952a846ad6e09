// CSV views of a run's records (RFC 4180 quoting): one row per (method, step, agent) for training steps,
// per (method, step, pair) for agreement, and per (method, step, agent or 'ensemble') for evaluations.
import type { EvalRecord, StepRecord } from './records';

type Cell = string | number | null | undefined;

/** One CSV field: null/undefined → empty; strings quoted when they hold a comma, quote or newline. */
export function csvCell(v: Cell): string {
  if (v === null || v === undefined) return '';
  const s = typeof v === 'number' ? (Number.isFinite(v) ? String(v) : String(v)) : v;
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** A CSV document from a header and rows. */
export function toCsv(header: readonly string[], rows: readonly (readonly Cell[])[]): string {
  return [header, ...rows].map((r) => r.map(csvCell).join(',')).join('\n') + '\n';
}

const AGENT_COLS = [
  'rewardMean',
  'rewardStd',
  'rewardGroupStd',
  'rewardStdNorm',
  'rewardGroupStdNorm',
  'zeroStdFraction',
  'pseudoLabelAccuracy',
  'trainedLabelAccuracy',
  'rewardAccuracy',
  'labeledFraction',
  'parseableFraction',
  'sampleAccuracy',
  'meanLength',
  'cutOffShare',
  'meanEntropy',
  'kl',
  'clipFraction',
  'gradNorm',
  'loss',
  'lr',
] as const;

/** The co-labeling diagnostics (docs/method.md ("Extensions from the public code")) per agent row; empty cells for label-less methods and older records. */
const CO_COLS = [
  'teacher',
  'supervisionFraction',
  'peerTieRate',
  'unanimousRate',
  'supervisionContainsTruth',
  'ownVoteAccuracy',
  'candidateSetSize',
] as const;
function coCells(s: StepRecord, agent: string): Cell[] {
  const co = s.coLabeling;
  const a = co?.agents.find((x) => x.agent === agent);
  if (!co || !a) return CO_COLS.map(() => null);
  return [
    co.teacher,
    a.supervisionFraction,
    a.peerTieRate,
    co.unanimousRate,
    a.supervisionContainsTruth,
    a.ownVoteAccuracy,
    a.candidateSetSize,
  ];
}

/** Training steps, one row per (method, step, agent). */
export function stepsCsv(steps: readonly StepRecord[]): string {
  const rows = steps.flatMap((s) =>
    s.agents.map((a) => [
      s.method,
      s.step,
      a.agent,
      ...AGENT_COLS.map((k) => a[k]),
      s.timing.total,
      ...coCells(s, a.agent),
    ]),
  );
  return toCsv(['method', 'step', 'agent', ...AGENT_COLS, 'stepSeconds', ...CO_COLS], rows);
}

/** Pairwise vote agreement, one row per (method, step, pair). */
export function pairsCsv(steps: readonly StepRecord[]): string {
  const rows = steps.flatMap((s) =>
    s.pairs.map((p) => [s.method, s.step, p.a, p.b, p.bothLabeled, p.agreement]),
  );
  return toCsv(['method', 'step', 'a', 'b', 'bothLabeled', 'agreement'], rows);
}

/** Evaluations, one row per (method, step, agent) plus one 'ensemble' row per (method, step). */
export function evalsCsv(evals: readonly EvalRecord[]): string {
  const rows = evals.flatMap((e) => [
    ...e.agents.map((a) => [
      e.method,
      e.step,
      a.agent,
      a.greedyAccuracy,
      a.sampledAccuracy,
      a.majAccuracy,
      a.parseableFraction,
      null,
    ]),
    [e.method, e.step, 'ensemble', e.meanGreedyAccuracy, null, e.ensembleAccuracy, null, e.oracleAccuracy],
  ]);
  return toCsv(
    [
      'method',
      'step',
      'agent',
      'greedyAccuracy',
      'sampledAccuracy',
      'majAccuracy',
      'parseableFraction',
      'oracleAccuracy',
    ],
    rows,
  );
}
