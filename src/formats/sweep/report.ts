// The sweep report's data (DIR/report.json): per cell its summary, per cohort (cells equal but for seed
// and methods) the base agents' error overlap (kappa, c, u, w; docs/method.md ("Diversity and error overlap")), each method's held-out
// accuracy gain and the matched-budget ensembles over seeds, and the paper's claims (claims.ts).
// Everything here is a function of the cells' metrics: no wall-clock figure outside `timing`.
import { pairOverlap } from '../../analysis/overlap';
import { canonicalMetricsJson, stable } from '../../rl/canonical';
import { resolveCohortRef } from '../../rl/cohortEnv';
import type { ExperimentConfig } from '../../rl/config';
import type { EvalRecord } from '../../rl/records';
import type { MethodSummary } from '../../rl/summary';
import { checkClaims, type Claim } from './claims';
import { valueLabel } from './records';
import { preregCitation, registeredSection, type PreregCitation, type RegisteredSection } from './registered';
import { sha16 } from '../../util/sha256';
import type { CellRecord, SweepManifest } from './records';
import { stats, type GroupEntry, type Stats } from './groups';

/** One method's figures in one cell. */
export interface CellMethod {
  base: number;
  final: number;
  gain: number;
  ensembleBase: number;
  ensembleFinal: number;
  /** Within-group reward std / its step-1 value, mean over agents of the end window. */
  rewardStdEnd: number | null;
  trainedLabelEnd: number | null;
  agents: { agent: string; base: number; final: number; gain: number }[];
}

export interface CellEntry {
  index: number;
  id: string;
  label: string;
  assign: Record<string, unknown>;
  status: 'done' | 'failed' | 'missing';
  error: string | null;
  group: number | null;
  seed: number | null;
  completedSteps: number | null;
  methods: Record<string, CellMethod>;
  /** SHA-256 (16 hex) of the cell's canonical metric JSON (src/rl/canonical.ts). */
  metricsHash: string | null;
}

export interface SweepReport {
  format: string;
  sweep: { name: string; hash: string; axes: string[]; cells: number };
  counts: { done: number; failed: number; missing: number };
  cells: CellEntry[];
  groups: GroupEntry[];
  claims: Claim[];
  /** The pre-registration the cells ran under (a sweep naming `prereg`), else null. */
  prereg: PreregCitation | null;
  /** The per-preset verdicts of a registered sweep (registered.ts), else null. */
  registered: RegisteredSection | null;
  /** Wall-clock seconds per cell id: the one part of the report that differs between runs. */
  timing: Record<string, number>;
}

const meanNum = (xs: (number | null)[]): number | null => stats(xs)?.mean ?? null;

function cellMethod(s: MethodSummary): CellMethod {
  return {
    base: s.meanGreedy.base,
    final: s.meanGreedy.final,
    gain: s.meanGreedy.final - s.meanGreedy.base,
    ensembleBase: s.ensemble.base,
    ensembleFinal: s.ensemble.final,
    rewardStdEnd: meanNum(s.agents.map((a) => a.rewardGroupStdNormEnd)),
    trainedLabelEnd: meanNum(s.agents.map((a) => a.trainedLabelEnd)),
    agents: s.agents.map((a) => ({
      agent: a.agent,
      base: a.greedy.base,
      final: a.greedy.final,
      gain: a.greedy.final - a.greedy.base,
    })),
  };
}

/** The key of a cell's cohort: its config with seed, methods and name left out. */
const groupKey = (c: ExperimentConfig): string => stable({ ...c, seed: 0, methods: [], name: '' });

function overlapOf(e: EvalRecord | undefined): GroupEntry['overlap'] {
  if (!e || !e.agents.every((a) => a.greedyCorrect !== undefined && a.greedyAnswers)) return null;
  const sc = e.agents.map((a) => ({
    name: a.agent,
    correct: [...a.greedyCorrect!].map((ch) => ch === '1'),
    answers: a.greedyAnswers!,
  }));
  const pairs: NonNullable<GroupEntry['overlap']>['pairs'] = [];
  for (let i = 0; i < sc.length; i++) {
    for (let j = i + 1; j < sc.length; j++) {
      const o = pairOverlap(sc[i], sc[j]);
      pairs.push({ a: sc[i].name, b: sc[j].name, kappa: o.kappa, c: o.c, u: o.u, w: o.w });
    }
  }
  if (!pairs.length) return null;
  const m = (k: 'kappa' | 'c' | 'u' | 'w'): number => pairs.reduce((a, p) => a + p[k], 0) / pairs.length;
  return { kappa: m('kappa'), c: m('c'), u: m('u'), w: m('w'), pairs };
}

function groupLabel(c: ExperimentConfig, assign: Record<string, unknown>): string {
  const cohort = 'preset' in c.cohort ? c.cohort.preset : valueLabel(c.cohort.agents);
  const rest = Object.entries(assign).filter(
    ([p]) => p !== 'seed' && p !== 'methods' && !p.startsWith('cohort'),
  );
  return [cohort, ...rest.map(([p, v]) => `${p}=${valueLabel(v)}`)].join(', ');
}

function buildGroup(index: number, members: CellEntry[], recs: Map<string, CellRecord>): GroupEntry {
  const first = recs.get(members[0].id)!.result!;
  const res = resolveCohortRef(first.config.cohort);
  const agents =
    'specs' in res ? res.specs.map((s) => ({ id: s.id, family: s.family, size: s.size, seed: s.seed })) : [];
  const methods: GroupEntry['methods'] = {};
  const seeds = [...new Set(members.map((m) => m.seed!))].sort((a, b) => a - b);
  // per seed and method, the first cell (in sweep order) that ran that method
  const pick = (m: string): CellMethod[] =>
    seeds
      .map((s) => members.find((c) => c.seed === s && c.methods[m])?.methods[m])
      .filter((x): x is CellMethod => !!x);
  const names = [...new Set(members.flatMap((c) => Object.keys(c.methods)))];
  for (const m of names) {
    const per = pick(m);
    const agentGain: Record<string, Stats | null> = {};
    for (const a of per[0]?.agents ?? [])
      agentGain[a.agent] = stats(per.map((p) => p.agents.find((x) => x.agent === a.agent)?.gain));
    methods[m] = {
      gain: stats(per.map((p) => p.gain)),
      final: stats(per.map((p) => p.final)),
      rewardStdEnd: stats(per.map((p) => p.rewardStdEnd)),
      trainedLabelEnd: stats(per.map((p) => p.trainedLabelEnd)),
      agentGain,
    };
  }
  const baseEnsemble = seeds.map(
    (s) => Object.values(members.find((c) => c.seed === s)!.methods)[0]?.ensembleBase,
  );
  return {
    index,
    label: groupLabel(first.config, members[0].assign),
    agents,
    sameFamily: agents.length > 0 && new Set(agents.map((a) => a.family)).size === 1,
    seeds,
    cells: members.map((m) => m.index),
    overlap: overlapOf(first.evals.find((e) => e.step === 0)),
    methods,
    ensembles: {
      base: stats(baseEnsemble),
      ttrl: stats(pick('ttrl').map((p) => p.ensembleFinal)),
      'co-rl': stats(pick('co-rl').map((p) => p.ensembleFinal)),
    },
  };
}

/** The report of a sweep from its manifest and whatever cell records there are. */
export function buildReport(manifest: SweepManifest, records: readonly CellRecord[]): SweepReport {
  const recs = new Map(
    records.filter((r) => manifest.cells.some((c) => c.id === r.id)).map((r) => [r.id, r]),
  );
  const keys: string[] = [];
  const cells: CellEntry[] = manifest.cells.map((c) => {
    const r = recs.get(c.id);
    const done = r?.status === 'done' && r.result;
    let group: number | null = null;
    if (done) {
      const k = groupKey(r.result!.config);
      group = keys.indexOf(k) >= 0 ? keys.indexOf(k) : keys.push(k) - 1;
    }
    return {
      index: c.index,
      id: c.id,
      label: c.label,
      assign: c.assign,
      status: r ? r.status : 'missing',
      error: r?.error ?? null,
      group,
      seed: done ? r.result!.config.seed : null,
      completedSteps: r?.result?.completedSteps ?? null,
      methods: done ? Object.fromEntries(r.result!.summary.map((s) => [s.method, cellMethod(s)])) : {},
      metricsHash: r?.compact
        ? r.compact.metricsHash
        : r?.result
          ? sha16(canonicalMetricsJson(r.result.steps, r.result.evals))
          : null,
    };
  });
  const groups = keys.map((_, g) =>
    buildGroup(
      g,
      cells.filter((c) => c.group === g),
      recs,
    ),
  );
  return {
    format: 'co-rl-sweep-report/1',
    sweep: { name: manifest.name, hash: manifest.hash, axes: manifest.axes, cells: manifest.cells.length },
    counts: {
      done: cells.filter((c) => c.status === 'done').length,
      failed: cells.filter((c) => c.status === 'failed').length,
      missing: cells.filter((c) => c.status === 'missing').length,
    },
    cells,
    groups,
    claims: checkClaims(groups),
    prereg: preregCitation(manifest, [...recs.values()]),
    registered: registeredSection(manifest, [...recs.values()]),
    timing: Object.fromEntries([...recs.values()].map((r) => [r.id, r.seconds])),
  };
}
