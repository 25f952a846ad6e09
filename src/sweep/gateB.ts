// Gate B of docs/method.md ("The regime"): choose the optimizer recipe with the GT and random methods only,
// never with the label-free methods under test. Per recipe (a sweep cell's assignment without its seed),
// averaged over RL seeds: GT's gain in pair-mean greedy accuracy over the base, random's gain, and the
// largest KL to the base random reaches. A recipe passes when GT gains >= 10 points while random moves
// greedy accuracy by at most 2 points with KL <= 0.05; among passing recipes the largest GT gain wins,
// ties (equal to 0.1 point) to the smaller learning rate. Pure: reads cell records, writes nothing.
import type { CellRecord } from '../formats/sweep/records';
import { maxMeanKl } from '../formats/sweep/compact';

/** The rule's thresholds (fixed before any sweep was run). */
export const GATE_B = { gtMinGain: 0.1, randomMaxMove: 0.02, randomMaxKl: 0.05, tie: 0.001 } as const;

/** One recipe's figures. */
export interface GateBRow {
  /** The recipe: the cell assignment without `seed`, as `path=value` pairs. */
  recipe: string;
  assign: Record<string, unknown>;
  /** RL seeds behind the means. */
  seeds: number[];
  gtGain: number | null;
  randomGain: number | null;
  randomKl: number | null;
  /**
   * A diagnostic, not part of the rule: GT's share of groups with no reward spread at step 1 (agent mean,
   * then seed mean). Such a group gives no gradient, so a high share bounds what GT can gain.
   */
  gtZeroStd: number | null;
  pass: boolean;
  /** Why it fails (empty when it passes). */
  why: string[];
}

export interface GateBReport {
  rows: GateBRow[];
  /** The chosen recipe, or null when none passes. */
  chosen: GateBRow | null;
  /** Cells that failed or lacked evaluations, by label. */
  missing: string[];
}

const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
const pts = (x: number): string => `${(x * 100).toFixed(1)} points`;

/** Pair-mean greedy accuracy gain of one method in one cell: last evaluation minus the step-0 one. */
export function methodGain(r: CellRecord, method: string): number | null {
  const ev = (r.result?.evals ?? []).filter((e) => e.method === method);
  const base = ev.find((e) => e.step === 0);
  const last = ev.reduce<(typeof ev)[number] | undefined>(
    (a, e) => (!a || e.step > a.step ? e : a),
    undefined,
  );
  if (!base || !last || last.step === 0) return null;
  return last.meanGreedyAccuracy - base.meanGreedyAccuracy;
}

/** The largest agent-mean KL to the base over a method's steps (null when never estimated). */
export function methodMaxKl(r: CellRecord, method: string): number | null {
  // a compact record's steps are thinned: the maximum over every step was kept when it was written
  if (r.compact) return r.compact.maxMeanKl[method] ?? null;
  return maxMeanKl(r.result?.steps ?? [], method);
}

/** The agent-mean share of zero-spread groups of a method's step-1 record (null when absent). */
export function methodZeroStdAtStart(r: CellRecord, method: string): number | null {
  const s = (r.result?.steps ?? []).find((x) => x.method === method && x.step === 1);
  const z = (s?.agents ?? []).map((a) => a.zeroStdFraction).filter((x): x is number => typeof x === 'number');
  return z.length ? mean(z) : null;
}

const lrOf = (a: Record<string, unknown>): number =>
  typeof a['train.lr'] === 'number' ? (a['train.lr'] as number) : Infinity;

/** Gate B over a sweep's cell records (methods gt and random in every cell). */
export function gateB(records: readonly CellRecord[]): GateBReport {
  const groups = new Map<string, { assign: Record<string, unknown>; cells: CellRecord[] }>();
  const missing: string[] = [];
  for (const r of records) {
    if (r.status !== 'done' || !r.result) {
      missing.push(r.label);
      continue;
    }
    const assign = Object.fromEntries(Object.entries(r.assign).filter(([k]) => k !== 'seed'));
    const key = Object.entries(assign)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
      .join(' ');
    const g = groups.get(key) ?? { assign, cells: [] };
    g.cells.push(r);
    groups.set(key, g);
  }
  const rows: GateBRow[] = [];
  for (const [recipe, g] of groups) {
    const gains = (m: string) => g.cells.map((c) => methodGain(c, m)).filter((x): x is number => x !== null);
    const gt = gains('gt');
    const rnd = gains('random');
    const kl = g.cells.map((c) => methodMaxKl(c, 'random')).filter((x): x is number => x !== null);
    const zs = g.cells.map((c) => methodZeroStdAtStart(c, 'gt')).filter((x): x is number => x !== null);
    const row: GateBRow = {
      recipe: recipe || '(base recipe)',
      assign: g.assign,
      seeds: g.cells.map((c) => Number(c.assign.seed ?? c.result?.config.seed)),
      gtGain: gt.length ? mean(gt) : null,
      randomGain: rnd.length ? mean(rnd) : null,
      randomKl: kl.length ? mean(kl) : null,
      gtZeroStd: zs.length ? mean(zs) : null,
      pass: false,
      why: [],
    };
    if (row.gtGain === null) row.why.push('no gt evaluation');
    else if (row.gtGain < GATE_B.gtMinGain) row.why.push(`GT gains ${pts(row.gtGain)} (< 10)`);
    if (row.randomGain === null) row.why.push('no random evaluation');
    else if (Math.abs(row.randomGain) > GATE_B.randomMaxMove)
      row.why.push(`random moves ${pts(row.randomGain)} (more than 2)`);
    if (row.randomKl === null) row.why.push('no KL estimate for random');
    else if (row.randomKl > GATE_B.randomMaxKl) row.why.push(`random KL ${row.randomKl.toFixed(3)} (> 0.05)`);
    row.pass = row.why.length === 0;
    rows.push(row);
  }
  rows.sort((a, b) => (b.gtGain ?? -Infinity) - (a.gtGain ?? -Infinity) || lrOf(a.assign) - lrOf(b.assign));
  let chosen: GateBRow | null = null;
  for (const r of rows.filter((x) => x.pass)) {
    if (!chosen || r.gtGain! > chosen.gtGain! + GATE_B.tie) chosen = r;
    else if (Math.abs(r.gtGain! - chosen.gtGain!) <= GATE_B.tie && lrOf(r.assign) < lrOf(chosen.assign))
      chosen = r;
  }
  return { rows, chosen, missing };
}

const fmt = (x: number | null, d = 1, scale = 100): string => (x === null ? '-' : (x * scale).toFixed(d));

/** The report as markdown. */
export function formatGateB(r: GateBReport): string {
  const lines = [
    '| recipe | seeds | GT gain (points) | random gain (points) | random max KL | GT groups with no reward spread, step 1 (%) | gate B |',
    '|---|---|---|---|---|---|---|',
    ...r.rows.map(
      (x) =>
        `| ${x.recipe} | ${x.seeds.join(', ')} | ${fmt(x.gtGain)} | ${fmt(x.randomGain)} | ${fmt(x.randomKl, 3, 1)} | ${fmt(x.gtZeroStd, 0)} | ${x.pass ? 'pass' : `fail: ${x.why.join('; ')}`} |`,
    ),
    '',
    r.chosen
      ? `Chosen: ${r.chosen.recipe} (GT ${fmt(r.chosen.gtGain)} points, random ${fmt(r.chosen.randomGain)} points, KL ${fmt(r.chosen.randomKl, 3, 1)}).`
      : 'No recipe passes gate B: GT never gains 10 points while random stays within 2 points and KL 0.05.',
  ];
  if (r.missing.length) lines.push('', `Cells failed or missing: ${r.missing.join(', ')}.`);
  return lines.join('\n');
}

/** One recipe over several grids (one preset per task kind): it passes only where it passes on each. */
export interface GateBCombinedRow {
  recipe: string;
  assign: Record<string, unknown>;
  /** Per grid, its row (null where the grid has no result for the recipe yet). */
  grids: (GateBRow | null)[];
  /** Mean GT gain over the grids (null unless every grid has one). */
  gtGain: number | null;
  pass: boolean;
}

export interface GateBCombined {
  names: string[];
  rows: GateBCombinedRow[];
  chosen: GateBCombinedRow | null;
}

/**
 * Gate B over several grids of the same recipes: a recipe passes when it passes on every grid; among the
 * passing ones the largest mean GT gain wins, ties (within 0.1 point) to the smaller learning rate.
 */
export function combineGateB(grids: readonly { name: string; report: GateBReport }[]): GateBCombined {
  const recipes = new Map<string, Record<string, unknown>>();
  for (const g of grids) for (const r of g.report.rows) recipes.set(r.recipe, r.assign);
  const rows: GateBCombinedRow[] = [...recipes].map(([recipe, assign]) => {
    const per = grids.map((g) => g.report.rows.find((r) => r.recipe === recipe) ?? null);
    const gains = per.map((r) => r?.gtGain ?? null);
    return {
      recipe,
      assign,
      grids: per,
      gtGain: gains.every((x) => x !== null) ? mean(gains as number[]) : null,
      pass: per.every((r) => r !== null && r.pass),
    };
  });
  rows.sort((a, b) => (b.gtGain ?? -Infinity) - (a.gtGain ?? -Infinity) || lrOf(a.assign) - lrOf(b.assign));
  let chosen: GateBCombinedRow | null = null;
  for (const r of rows.filter((x) => x.pass)) {
    if (!chosen || r.gtGain! > chosen.gtGain! + GATE_B.tie) chosen = r;
    else if (Math.abs(r.gtGain! - chosen.gtGain!) <= GATE_B.tie && lrOf(r.assign) < lrOf(chosen.assign))
      chosen = r;
  }
  return { names: grids.map((g) => g.name), rows, chosen };
}

/** The combined report as markdown: per recipe, each grid's verdict and the mean GT gain. */
export function formatCombinedGateB(c: GateBCombined): string {
  const cellOf = (r: GateBRow | null) =>
    r === null ? 'no result' : `${r.pass ? 'pass' : 'fail'} (GT ${fmt(r.gtGain)})`;
  return [
    `| recipe | ${c.names.join(' | ')} | mean GT gain (points) | gate B |`,
    `|---|${c.names.map(() => '---|').join('')}---|---|`,
    ...c.rows.map(
      (r) =>
        `| ${r.recipe} | ${r.grids.map(cellOf).join(' | ')} | ${fmt(r.gtGain)} | ${r.pass ? 'pass' : 'fail'} |`,
    ),
    '',
    c.chosen
      ? `Chosen over every grid: ${c.chosen.recipe} (mean GT ${fmt(c.chosen.gtGain)} points).`
      : 'No recipe passes gate B on every grid.',
  ].join('\n');
}
