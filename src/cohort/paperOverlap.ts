// Error overlap as the paper measures it (Table 6, docs/method.md ("Natural diversity")): one sample per problem at T = 0.8 on
// the same test problems for every agent, and every pair's kappa, c (exactly one right), u (at least
// one right) and w (both wrong with the same answer), with the greedy reading beside it. Pairs are
// labelled by the level of diversity their specs differ in (seed-only, same-family, different-arch,
// different-family, different-family+).
import { pairOverlap } from '../analysis/overlap';
import type { Problem } from '../tasks';
import { deriveSeed } from '../util/rng';
import type { Agent, AgentSpec } from './agent';
import { sampleScores } from './evaluate';
import { FAMILIES } from './families';

/**
 * The kind of a spec's architecture, apart from its size: positions, heads and MLP ratio as built (family,
 * size and override together). Width and depth are sizes of one lineage, as the families' own sizes are.
 */
function archKind(s: AgentSpec): string | null {
  const f = FAMILIES[s.family];
  const size = f?.sizes[s.size ?? 's'];
  if (!f || !size) return null;
  const a = { ...f.arch, ...size, ...(s.arch ?? {}) };
  return `${a.pos}|${a.nHead}|${a.mlpRatio}`;
}

/** Diversity levels, from none to the most (docs/method.md ("Natural diversity")). */
export type DiversityLevel =
  | 'seed-only'
  | 'same-family'
  | 'different-arch'
  | 'different-family'
  | 'different-family+';

/** The level of a pair of specs: what differs between them. */
export function diversityLevel(a: AgentSpec, b: AgentSpec): DiversityLevel {
  const fa = FAMILIES[a.family];
  const fb = FAMILIES[b.family];
  const tok = (s: AgentSpec) => s.tokenizer ?? FAMILIES[s.family].tokenizer ?? 'digit';
  const corpus = (s: AgentSpec) => JSON.stringify(s.corpus ?? FAMILIES[s.family].corpus ?? null);
  const same = (k: 'family' | 'size' | 'seed' | 'view') => a[k] === b[k];
  if (
    same('family') &&
    same('size') &&
    same('seed') &&
    same('view') &&
    JSON.stringify(a.arch ?? {}) === JSON.stringify(b.arch ?? {}) &&
    tok(a) === tok(b) &&
    corpus(a) === corpus(b) &&
    JSON.stringify(a.recipe ?? {}) === JSON.stringify(b.recipe ?? {})
  )
    return 'seed-only';
  const oneData = tok(a) === tok(b) && corpus(a) === corpus(b) && same('view');
  // one family with another kind of architecture on the same data is an architecture apart (Rule WA's pair)
  if (same('family'))
    return oneData && archKind(a) !== null && archKind(a) !== archKind(b) ? 'different-arch' : 'same-family';
  if (oneData && fa && fb) return 'different-arch';
  return same('view') ? 'different-family' : 'different-family+';
}

export interface PaperOverlapAgent {
  id: string;
  spec: AgentSpec;
  params: number;
  greedyAccuracy: number;
  sampledAccuracy: number;
  /** From the base checkpoint: pretraining steps kept, greedy validation accuracy there, and whether it was in the band. */
  steps: number;
  valAccuracy: number;
  inBand: boolean;
  /** The corpus size kept (a random-draw corpus), and every rung of the corpus ladder tried (validation accuracy of each). */
  corpusSize?: number;
  ladder?: { size: number; valAccuracy: number }[];
}

export interface PaperOverlapPair {
  a: string;
  b: string;
  level: DiversityLevel;
  /** One sample each at the temperature. */
  kappa: number;
  c: number;
  u: number;
  w: number;
  accA: number;
  accB: number;
  /** The greedy reading of the same pair. */
  greedy: { kappa: number; c: number; u: number; w: number };
  /** Problems where the two agents' sampled p(correct) sum to more than 1 is not measurable from one sample; this counts both right. */
  bothRight: number;
}

export interface PaperOverlapReport {
  name: string;
  task: string;
  problems: number;
  temperature: number;
  agents: PaperOverlapAgent[];
  pairs: PaperOverlapPair[];
}

const r3 = (x: number): number => Math.round(x * 1000) / 1000;

/** Score every agent (greedy, and one sample at `temperature` from its own stream) and every pair. */
export async function paperOverlap(
  name: string,
  task: string,
  agents: readonly Agent[],
  problems: readonly Problem[],
  temperature = 0.8,
  seed = 1,
): Promise<PaperOverlapReport> {
  const greedy = [];
  const sampled = [];
  const rows: PaperOverlapAgent[] = [];
  for (const a of agents) {
    const maxNew = a.base?.maxNewTokens;
    if (!maxNew) throw new Error(`agent ${a.spec.id} has no base checkpoint meta (maxNewTokens unknown)`);
    const g = await sampleScores(a.model, a.tokenizer, a.spec.view, problems, maxNew, 0, 0);
    const s = await sampleScores(
      a.model,
      a.tokenizer,
      a.spec.view,
      problems,
      maxNew,
      temperature,
      deriveSeed(seed, 'overlap-sample', a.spec.id),
    );
    greedy.push({ name: a.spec.id, correct: g.correct, answers: g.answers });
    sampled.push({ name: a.spec.id, correct: s.correct, answers: s.answers });
    rows.push({
      id: a.spec.id,
      spec: a.spec,
      params: a.base?.params ?? 0,
      greedyAccuracy: r3(g.accuracy),
      sampledAccuracy: r3(s.accuracy),
      steps: a.base?.steps ?? 0,
      valAccuracy: r3(a.base?.valAccuracy ?? NaN),
      inBand: a.base?.inBand ?? false,
      ...(a.base?.corpus?.size !== undefined ? { corpusSize: a.base.corpus.size } : {}),
      ...(a.base?.ladder
        ? { ladder: a.base.ladder.map((x) => ({ size: x.size, valAccuracy: r3(x.valAccuracy) })) }
        : {}),
    });
  }
  const pairs: PaperOverlapPair[] = [];
  for (let i = 0; i < agents.length; i++) {
    for (let j = i + 1; j < agents.length; j++) {
      const o = pairOverlap(sampled[i], sampled[j]);
      const g = pairOverlap(greedy[i], greedy[j]);
      pairs.push({
        a: agents[i].spec.id,
        b: agents[j].spec.id,
        level: diversityLevel(agents[i].spec, agents[j].spec),
        kappa: r3(o.kappa),
        c: r3(o.c),
        u: r3(o.u),
        w: r3(o.w),
        accA: r3(o.accA),
        accB: r3(o.accB),
        greedy: { kappa: r3(g.kappa), c: r3(g.c), u: r3(g.u), w: r3(g.w) },
        bothRight: o.counts.bothRight,
      });
    }
  }
  return { name, task, problems: problems.length, temperature, agents: rows, pairs };
}

const f = (x: number): string => (Number.isFinite(x) ? x.toFixed(3) : 'n/a');

/** "500 (250: 0.228, 350: 0.840, 500: 0.505)": the corpus size kept and the ladder's rungs. */
function corpusCell(a: PaperOverlapAgent): string {
  if (a.corpusSize === undefined) return '–';
  if (!a.ladder) return `${a.corpusSize}`;
  return `${a.corpusSize} (${a.ladder.map((x) => `${x.size}: ${f(x.valAccuracy)}`).join(', ')})`;
}

/** The report as markdown: agents, then pairs grouped by level. */
export function formatPaperOverlap(r: PaperOverlapReport): string {
  const order: DiversityLevel[] = [
    'seed-only',
    'same-family',
    'different-arch',
    'different-family',
    'different-family+',
  ];
  const pairs = [...r.pairs].sort((x, y) => order.indexOf(x.level) - order.indexOf(y.level));
  const desc = (s: AgentSpec) =>
    `${s.family}.${s.size} s${s.seed} ${s.view}${s.tokenizer ? ` ${s.tokenizer}` : ''}`;
  const out = new Set(r.agents.filter((a) => !a.inBand).map((a) => a.id));
  const mark = (p: PaperOverlapPair) => (out.has(p.a) || out.has(p.b) ? ' (out)' : '');
  return [
    `#### ${r.name}: ${r.task}, ${r.problems} test problems, one sample at T = ${r.temperature} (greedy beside)`,
    '',
    `| agent | spec | params | corpus kept (ladder: val greedy per size) | steps | val greedy (in band) | test greedy | test sampled (T = ${r.temperature}) |`,
    '|---|---|---:|---|---:|---:|---:|---:|',
    ...r.agents.map(
      (a) =>
        `| ${a.id} | ${desc(a.spec)} | ${a.params} | ${corpusCell(a)} | ${a.steps} | ${f(a.valAccuracy)}${a.inBand ? '' : ' (out)'} | ${f(a.greedyAccuracy)} | ${f(a.sampledAccuracy)} |`,
    ),
    '',
    '| pair | level | acc A | acc B | kappa | c | u | w | greedy kappa | greedy c |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...pairs.map(
      (p) =>
        `| ${p.a}-${p.b}${mark(p)} | ${p.level} | ${f(p.accA)} | ${f(p.accB)} | ${f(p.kappa)} | ${f(p.c)} | ${f(p.u)} | ${f(p.w)} | ${f(p.greedy.kappa)} | ${f(p.greedy.c)} |`,
    ),
  ].join('\n');
}
