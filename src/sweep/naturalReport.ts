// The natural presets' RL report (docs/natural-rl-history.md, issue 12): for every task and preset, each method's
// greedy test accuracy over seeds (mean, spread, gain over the base agents), the accuracy of the labels it
// trained on, its normalised reward std, and the matched-budget ensembles (docs/method.md, matched-budget
// ensembles: E samples per agent pooled at T = 0.6, labelled maj@E·N from the runs, e.g. maj@8 for a pair
// and maj@12 for a ring of 3 at E = 4; base and final); beside them why Co-RL can or cannot work there:
// the base pair's kappa and c (one sample at T = 0.8) and how many test problems start above the
// separatrix pA + pB = 1.
import type { ExperimentResult } from '../rl/experiment';
import type { EvalRecord } from '../rl/records';
import type { PaperOverlapReport } from '../cohort/paperOverlap';
import { buildIdentity, parseAxisAgent } from '../cohort/axes';
import type { TaskConfig } from '../tasks';

export interface PresetRuns {
  task: string;
  preset: string;
  /** One experiment result per seed (errors excluded by the caller or counted here). */
  runs: ExperimentResult[];
  /** A 1-step run with `eval.portraitSamples` S > 0: the base agents' per-problem right counts. */
  portrait?: ExperimentResult;
}

export interface MethodRow {
  method: string;
  seeds: number;
  base: number;
  finals: number[];
  trainedLabelEnd: number | null;
  rewardStdEnd: number | null;
  /** Votes pooled into the ensemble majority: E samples per agent x N agents (maj@8 for a pair at E = 4, maj@12 for a ring of 3). */
  ensembleVotes: number;
  ensembleBase: number;
  ensembleFinals: number[];
}

export interface SeparatrixRow {
  pair: string;
  above: number;
  on: number;
  below: number;
  meanA: number;
  meanB: number;
  S: number;
}

const mean = (v: number[]): number => v.reduce((a, b) => a + b, 0) / v.length;
const sd = (v: number[]): number =>
  v.length > 1 ? Math.sqrt(v.reduce((a, x) => a + (x - mean(v)) ** 2, 0) / (v.length - 1)) : 0;
const meanOrNull = (v: (number | null)[]): number | null => {
  const x = v.filter((y): y is number => y !== null && Number.isFinite(y));
  return x.length ? mean(x) : null;
};

/** One line per failed run of a preset, naming that run's seed and file (`files[i]` is the file `runs[i]` was read from). */
export function runFailures(label: string, files: string[], runs: ExperimentResult[]): string[] {
  if (files.length !== runs.length)
    throw new Error(
      `${label}: ${runs.length} runs but ${files.length} file names; pass one file name per run`,
    );
  return runs.flatMap((r, i) =>
    r.error ? [`${label} seed ${r.config.seed} (${files[i]}): ${r.error.message}`] : [],
  );
}

/** The votes one run's ensemble pools: E samples per agent (config.eval.ensembleSamples) x the N agents it summarised. */
function pooledVotes(p: PresetRuns, r: ExperimentResult, agents: number): number {
  const E = r.config.eval?.ensembleSamples;
  if (!Number.isInteger(E) || E < 1)
    throw new Error(
      `${p.task}-${p.preset} seed ${r.config.seed}: config.eval.ensembleSamples must be a positive integer (samples per agent pooled into the ensemble), got ${JSON.stringify(E)}`,
    );
  return E * agents;
}

/** Every method's row over the seeds of one preset. */
export function methodRows(p: PresetRuns): MethodRow[] {
  const ok = p.runs.filter((r) => !r.error && r.summary.length);
  if (!ok.length) return [];
  return ok[0].summary.map((m0) => {
    const per = ok.flatMap((r) => {
      const s = r.summary.find((m) => m.method === m0.method);
      return s ? [{ r, s, votes: pooledVotes(p, r, s.agents.length) }] : [];
    });
    const S = per.map((x) => x.s);
    if (new Set(per.map((x) => x.votes)).size > 1)
      throw new Error(
        `${p.task}-${p.preset}: the seeds pooled different ensemble budgets (${per.map((x) => `seed ${x.r.config.seed}: maj@${x.votes}`).join(', ')}); report runs of one config together`,
      );
    return {
      method: m0.method,
      seeds: S.length,
      base: S[0].meanGreedy.base,
      finals: S.map((s) => s.meanGreedy.final),
      trainedLabelEnd: meanOrNull(S.flatMap((s) => s.agents.map((a) => a.trainedLabelEnd))),
      rewardStdEnd: meanOrNull(S.flatMap((s) => s.agents.map((a) => a.rewardGroupStdNormEnd))),
      ensembleVotes: per[0].votes,
      ensembleBase: S[0].ensemble.base,
      ensembleFinals: S.map((s) => s.ensemble.final),
    };
  });
}

/** The portrait run's step-0 evaluation with every agent's right counts, and S (samples per agent and problem). */
function portraitStart(portrait: ExperimentResult): { ev: EvalRecord; S: number } {
  const ev = portrait.evals.find((e) => e.step === 0 && e.agents.every((a) => a.portraitRight));
  if (!ev)
    throw new Error(
      `the portrait run ${portrait.config.name} has no step-0 evaluation with portraitRight (set eval.portraitSamples > 0)`,
    );
  return { ev, S: ev.portraitSamples ?? Math.max(...ev.agents.flatMap((a) => a.portraitRight!)) };
}

/** Which side of pA + pB = 1 each problem of agents i, j starts on: 1 above, 0 on, -1 below. */
function sidesOf(ev: EvalRecord, S: number, i: number, j: number): number[] {
  const b = ev.agents[j].portraitRight!;
  return ev.agents[i].portraitRight!.map((x, k) => Math.sign(x + b[k] - S));
}

/** Problems above, on and below pA + pB = 1 for every pair of the base agents (counts of S samples at the rollout temperature). */
export function separatrix(portrait: ExperimentResult): SeparatrixRow[] {
  const { ev, S } = portraitStart(portrait);
  const rows: SeparatrixRow[] = [];
  for (let i = 0; i < ev.agents.length; i++)
    for (let j = i + 1; j < ev.agents.length; j++) {
      const side = sidesOf(ev, S, i, j);
      const above = side.filter((x) => x === 1).length;
      const on = side.filter((x) => x === 0).length;
      rows.push({
        pair: `${ev.agents[i].agent}-${ev.agents[j].agent}`,
        above,
        on,
        below: side.length - above - on,
        meanA: mean(ev.agents[i].portraitRight!) / S,
        meanB: mean(ev.agents[j].portraitRight!) / S,
        S,
      });
    }
  return rows;
}

/** A spec's build identity (src/cohort/axes.ts buildIdentity, defaults filled by parseAxisAgent); null if it does not parse. */
function buildOf(spec: unknown, task: TaskConfig): string | null {
  const r = parseAxisAgent(spec, 'agent');
  return 'spec' in r ? buildIdentity(r.spec, task) : null;
}

/** Greedy accuracy of `method`'s agents (mean over agents and seeds) on the problems above / on / below the separatrix, at step 0 and at the end. */
export function bySide(
  p: PresetRuns,
  method: string,
): { side: string; n: number; base: number; final: number }[] | null {
  if (!p.portrait) return null;
  const { ev: ev0, S } = portraitStart(p.portrait);
  if (ev0.agents.length !== 2) return null; // pairs only: a ring has three sides per problem
  const side = sidesOf(ev0, S, 0, 1);
  const acc = (e: EvalRecord | undefined, want: number): number[] =>
    (e?.agents ?? []).map((x) => {
      const g = x.greedyCorrect ?? '';
      let n = 0;
      let r = 0;
      side.forEach((sd, k) => {
        if (sd === want && k < g.length) {
          n++;
          if (g[k] === '1') r++;
        }
      });
      return n ? r / n : NaN;
    });
  const runs = p.runs.filter((r) => !r.error);
  return [1, 0, -1].map((want) => {
    const b: number[] = [];
    const f: number[] = [];
    for (const r of runs) {
      const evs = r.evals.filter((e) => e.method === method);
      b.push(
        ...acc(
          evs.find((e) => e.step === 0),
          want,
        ),
      );
      f.push(...acc(evs[evs.length - 1], want));
    }
    return {
      side: want === 1 ? 'above' : want === 0 ? 'on' : 'below',
      n: side.filter((x) => x === want).length,
      base: mean(b),
      final: mean(f),
    };
  });
}

const pc = (x: number): string => (Number.isFinite(x) ? (100 * x).toFixed(1) : '–');
const pts = (x: number): string => `${x >= 0 ? '+' : ''}${(100 * x).toFixed(1)}`;

/** The markdown tables of one task: methods per preset, then the base pairs' overlap and separatrix. */
export function formatNaturalReport(
  task: string,
  presets: PresetRuns[],
  overlap?: PaperOverlapReport,
): string {
  const out = [
    `#### ${task}: greedy test accuracy (%), 500 test problems, mean ± sd over seeds`,
    '',
    '| preset | agents | method | seeds | base | final | gain (points) [min, max] | trained-on label acc, end | reward std / step 1, end | ensemble (pooled votes) base → final |',
    '|---|---|---|---:|---:|---|---|---:|---:|---|',
  ];
  for (const p of presets) {
    const agents =
      p.runs[0]?.config.cohort && 'agents' in p.runs[0].config.cohort
        ? p.runs[0].config.cohort.agents.map((a) => a.id).join(' × ')
        : '';
    for (const r of methodRows(p)) {
      const gains = r.finals.map((f) => f - r.base);
      out.push(
        `| ${p.preset} | ${agents} | ${r.method} | ${r.seeds} | ${pc(r.base)} | ${pc(mean(r.finals))} ± ${pc(sd(r.finals))} | ${pts(mean(gains))} [${pts(Math.min(...gains))}, ${pts(Math.max(...gains))}] | ${r.trainedLabelEnd === null ? '–' : pc(r.trainedLabelEnd)} | ${r.rewardStdEnd === null ? '–' : r.rewardStdEnd.toFixed(2)} | maj@${r.ensembleVotes} ${pc(r.ensembleBase)} → ${pc(mean(r.ensembleFinals))} |`,
      );
    }
  }
  out.push(
    '',
    `#### ${task}: the base pairs (kappa, c: one sample at T = 0.8; separatrix: S samples per agent at T = 1)`,
    '',
  );
  out.push(
    '| preset | pair | kappa | c | problems above pA + pB = 1 | on it | below | mean pA, pB (T = 1) |',
    '|---|---|---:|---:|---:|---:|---:|---|',
  );
  for (const p of presets) {
    if (!p.portrait) continue;
    const ids = p.runs[0] && 'agents' in p.runs[0].config.cohort ? p.runs[0].config.cohort.agents : [];
    for (const s of separatrix(p.portrait)) {
      const [a, b] = s.pair.split('-');
      // the overlap table names agents by its own ids: match them by build
      const task = p.runs[0].config.task!;
      const build = (id: string) =>
        buildOf(
          ids.find((x) => x.id === id),
          task,
        );
      const [ba, bb] = [build(a), build(b)];
      const o = overlap?.pairs.find((q) => {
        const qa = buildOf(overlap.agents.find((x) => x.id === q.a)?.spec, task);
        const qb = buildOf(overlap.agents.find((x) => x.id === q.b)?.spec, task);
        return ba !== null && bb !== null && ((qa === ba && qb === bb) || (qa === bb && qb === ba));
      });
      out.push(
        `| ${p.preset} | ${s.pair} | ${o ? o.kappa.toFixed(3) : '–'} | ${o ? o.c.toFixed(3) : '–'} | ${s.above} | ${s.on} | ${s.below} | ${s.meanA.toFixed(3)}, ${s.meanB.toFixed(3)} |`,
      );
    }
  }
  out.push(
    '',
    `#### ${task}: greedy test accuracy (%) by where each problem starts (pA + pB vs 1 at T = 1), step 0 → end, mean over agents and seeds`,
    '',
  );
  out.push(
    '| preset | problems above / on / below | co-rl above | co-rl on | co-rl below | ttrl above | ttrl on | ttrl below |',
    '|---|---|---|---|---|---|---|---|',
  );
  for (const p of presets) {
    const c = bySide(p, 'co-rl');
    const t = bySide(p, 'ttrl');
    if (!c || !t) continue;
    const cell = (x: { base: number; final: number }) => `${pc(x.base)} → ${pc(x.final)}`;
    out.push(
      `| ${p.preset} | ${c.map((x) => x.n).join(' / ')} | ${c.map(cell).join(' | ')} | ${t.map(cell).join(' | ')} |`,
    );
  }
  return out.join('\n');
}
