// The error-overlap report of a cohort (docs/method.md ("Diversity and error overlap")): every agent scored greedily (single sample) on
// the same held-out eval problems, its accuracy overall and per data region, and for every pair the
// four cells, Cohen's kappa, complementarity c, oracle accuracy u and wrong-agreement w
// (src/analysis/overlap.ts). Printed as a markdown table by npm run overlap and in docs/cohorts.md.
import { pairOverlap } from '../analysis/overlap';
import type { Problem } from '../tasks';
import type { Agent } from './agent';
import { deriveSeed } from '../util/rng';
import { greedyScores, sampledAccuracy } from './evaluate';
import { getFamily } from './families';
import { REGION_NAMES, inRegion, type RegionName } from './regions';

export interface OverlapAgentRow {
  id: string;
  family: string;
  size: string;
  seed: number;
  view: string;
  params: number;
  accuracy: number;
  /** Share of problems with a parseable answer. */
  parseable: number;
  /** Accuracy on the problems of each region named in the cohort's recipes (besides 'all'). */
  regions: Partial<Record<RegionName, { problems: number; accuracy: number; sampledAccuracy?: number }>>;
  /** Mean accuracy of samples at temperature 1 (what RL rollouts start from), when asked for. */
  sampledAccuracy?: number;
}

export interface OverlapPairRow {
  a: string;
  b: string;
  counts: { bothRight: number; onlyA: number; onlyB: number; bothWrong: number };
  accA: number;
  accB: number;
  kappa: number;
  c: number;
  u: number;
  w: number;
}

export interface OverlapReport {
  preset: string;
  task: string;
  /** Number of held-out problems P (a prefix of the task's fixed eval order). */
  problems: number;
  /** Samples per problem at temperature 1 for the sampled accuracies (0 = not measured). */
  samples: number;
  agents: OverlapAgentRow[];
  pairs: OverlapPairRow[];
}

const r4 = (x: number): number => Math.round(x * 1e4) / 1e4;

/**
 * Score every agent greedily on `problems` (from the eval split) and build the overlap report; with
 * `samples` > 0 also each agent's mean accuracy of that many samples per problem at temperature 1.
 */
export async function cohortOverlap(
  preset: string,
  taskName: string,
  agents: readonly Agent[],
  problems: readonly Problem[],
  samples = 0,
): Promise<OverlapReport> {
  const used = new Set(agents.flatMap((a) => getFamily(a.spec.family).recipe.mix.map((m) => m.region)));
  const regions = REGION_NAMES.filter((r) => r !== 'all' && used.has(r));
  const scored = [];
  const rows: OverlapAgentRow[] = [];
  for (const a of agents) {
    const maxNew = a.base?.maxNewTokens;
    if (!maxNew) throw new Error(`agent ${a.spec.id} has no base checkpoint meta (maxNewTokens unknown)`);
    const s = await greedyScores(a.model, a.tokenizer, a.spec.view, problems, maxNew);
    scored.push({ name: a.spec.id, correct: s.correct, answers: s.answers });
    const sampled = async (ps: readonly Problem[], label: string): Promise<number | undefined> =>
      samples > 0 && ps.length > 0
        ? r4(
            await sampledAccuracy(
              a.model,
              a.tokenizer,
              a.spec.view,
              ps,
              maxNew,
              samples,
              1,
              deriveSeed(0, 'overlap', a.spec.id, label),
            ),
          )
        : undefined;
    const byRegion: OverlapAgentRow['regions'] = {};
    for (const r of regions) {
      const idx = problems.flatMap((p, i) => (inRegion(r, p) ? [i] : []));
      byRegion[r] = {
        problems: idx.length,
        accuracy: r4(idx.filter((i) => s.correct[i]).length / Math.max(1, idx.length)),
      };
      const sa = await sampled(
        idx.map((i) => problems[i]),
        r,
      );
      if (sa !== undefined) byRegion[r]!.sampledAccuracy = sa;
    }
    const sampledAll = await sampled(problems, 'all');
    rows.push({
      id: a.spec.id,
      family: a.spec.family,
      size: a.spec.size,
      seed: a.spec.seed,
      view: a.spec.view,
      params: a.base?.params ?? 0,
      accuracy: r4(s.accuracy),
      parseable: r4(s.answers.filter((x) => x !== null).length / problems.length),
      regions: byRegion,
      ...(sampledAll === undefined ? {} : { sampledAccuracy: sampledAll }),
    });
  }
  const pairs: OverlapPairRow[] = [];
  for (let i = 0; i < scored.length; i++) {
    for (let j = i + 1; j < scored.length; j++) {
      const o = pairOverlap(scored[i], scored[j]);
      pairs.push({
        a: scored[i].name,
        b: scored[j].name,
        counts: o.counts,
        accA: r4(o.accA),
        accB: r4(o.accB),
        kappa: r4(o.kappa),
        c: r4(o.c),
        u: r4(o.u),
        w: r4(o.w),
      });
    }
  }
  return { preset, task: taskName, problems: problems.length, samples, agents: rows, pairs };
}

const f3 = (x: number): string => x.toFixed(3);

/** The report as markdown: an agent table and a pair table. */
export function formatOverlapReport(r: OverlapReport): string {
  const regionNames = REGION_NAMES.filter((n) => r.agents.some((a) => a.regions[n]));
  const withSampled = r.samples > 0;
  const cols: { head: string; cell: (a: OverlapAgentRow) => string }[] = [
    ...regionNames.map((n) => ({
      head: `acc on ${n}`,
      cell: (a: OverlapAgentRow) => (a.regions[n] ? f3(a.regions[n]!.accuracy) : '-'),
    })),
  ];
  if (withSampled) {
    cols.push({ head: 'sampled acc (T=1)', cell: (a) => f3(a.sampledAccuracy ?? NaN) });
    for (const n of regionNames)
      cols.push({ head: `sampled on ${n}`, cell: (a) => f3(a.regions[n]?.sampledAccuracy ?? NaN) });
  }
  const lines = [
    `### ${r.preset}: ${r.task}, ${r.problems} held-out problems, greedy${withSampled ? ` (sampled: ${r.samples} per problem at T=1)` : ''}`,
    '',
    `| agent | family | size | seed | view | params | accuracy | parseable |${cols.map((c) => ` ${c.head} |`).join('')}`,
    `|---|---|---|---|---|---:|---:|---:|${cols.map(() => '---:|').join('')}`,
    ...r.agents.map(
      (a) =>
        `| ${a.id} | ${a.family} | ${a.size} | ${a.seed} | ${a.view} | ${a.params} | ${f3(a.accuracy)} | ${f3(a.parseable)} |${cols.map((c) => ` ${c.cell(a)} |`).join('')}`,
    ),
    '',
    '| pair | both right | only A | only B | both wrong | acc A | acc B | kappa | c | u | w |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...r.pairs.map(
      (p) =>
        `| ${p.a}-${p.b} | ${p.counts.bothRight} | ${p.counts.onlyA} | ${p.counts.onlyB} | ${p.counts.bothWrong} | ` +
        `${f3(p.accA)} | ${f3(p.accB)} | ${f3(p.kappa)} | ${f3(p.c)} | ${f3(p.u)} | ${f3(p.w)} |`,
    ),
  ];
  if (regionNames.length) {
    lines.push(
      '',
      `Regions: ${regionNames.map((n) => `${n} = ${r.agents[0].regions[n]?.problems ?? 0} problems`).join(', ')}.`,
    );
  }
  return lines.join('\n');
}
