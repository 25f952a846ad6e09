// The regime check of a base cohort (docs/method.md, "The regime"): draw from every agent, on the same
// held-out problems, its greedy answers, S samples per problem at the rollout temperature (the first K are
// one rollout group) and two independent single samples at T = 0.8, then compute the figures and gates.
// Runs wherever the agents live (Node CLI, the page's worker); measurement only, never a reward.
import * as v from 'valibot';
import type { Agent } from '../../cohort/agent';
import { problemsWith, show } from '../../schema';
import { greedyScores, sampleMany, sampleScores } from '../../cohort/evaluate';
import type { Problem } from '../../tasks';
import { deriveSeed } from '../../util/rng';
import { regimeFigures, type AgentDraws, type RegimeFigures } from './figures';
import { regimeGates, type RegimeVerdict } from './gates';

/** What a regime check measures with. */
export interface RegimeOptions {
  /** Rollout group size K (>= 2). */
  K: number;
  /** Rollout temperature T (> 0). */
  temperature: number;
  /** Samples per problem for the spread (gate A4; default 16, at least K). */
  spreadSamples?: number;
  /** Temperature of the seed-only pair (default 0.8, the paper's overlap reading). */
  seedOnlyTemperature?: number;
  /** Seed of every draw (default 1). */
  seed?: number;
  /** Called after each agent is drawn. */
  onAgent?: (id: string, done: number, total: number) => void;
}

/** A whole regime check: its settings, figures and gates. Plain data (goes into run files). */
export interface RegimeReport {
  /** Which held-out split and how many problems. */
  split: 'validation' | 'test';
  problems: number;
  /** Index of the first problem measured in the split, when not 0 (`--from`: a slice disjoint from another read). */
  first?: number;
  K: number;
  temperature: number;
  spreadSamples: number;
  seedOnlyTemperature: number;
  seed: number;
  figures: RegimeFigures;
  verdict: RegimeVerdict;
}

const kMsg = (i: v.BaseIssue<unknown>) =>
  `must be an integer >= 2 (a vote and a group std need two samples), got ${show(i.input)}`;
const tMsg = (i: v.BaseIssue<unknown>) =>
  `must be a number in (0, 10] (T = 0 is greedy: no distribution to vote over), got ${show(i.input)}`;
/** The regime options' rules (schema layer): K and T, named as the CLI and the panel say them. */
const REGIME_OPTIONS = v.object({
  'samples (K)': v.pipe(v.number(kMsg), v.integer(kMsg), v.minValue(2, kMsg)),
  'temperature (T)': v.pipe(v.number(tMsg), v.gtValue(0, tMsg), v.maxValue(10, tMsg)),
});

/** Problems with regime options, each naming the field; [] when valid. */
export function regimeOptionErrors(o: { K?: unknown; temperature?: unknown; agents?: number }): string[] {
  return problemsWith(REGIME_OPTIONS, { 'samples (K)': o.K, 'temperature (T)': o.temperature });
}

/** Draw from one agent everything the figures need. */
export async function drawAgent(
  a: Agent,
  problems: readonly Problem[],
  o: Required<Omit<RegimeOptions, 'onAgent'>>,
): Promise<AgentDraws> {
  const maxNew = a.base?.maxNewTokens;
  if (!maxNew) throw new Error(`agent ${a.spec.id} has no base checkpoint meta (maxNewTokens unknown)`);
  const view = a.spec.view;
  const seed = (label: string): number => deriveSeed(o.seed, 'regime', a.spec.id, label);
  const greedy = await greedyScores(a.model, a.tokenizer, view, problems, maxNew);
  const many = await sampleMany(
    a.model,
    a.tokenizer,
    view,
    problems,
    maxNew,
    Math.max(o.K, o.spreadSamples),
    o.temperature,
    seed('samples'),
  );
  const one = (label: string) =>
    sampleScores(a.model, a.tokenizer, view, problems, maxNew, o.seedOnlyTemperature, seed(label));
  const s1 = await one('seed-only-1');
  const s2 = await one('seed-only-2');
  return {
    id: a.spec.id,
    greedy: { correct: greedy.correct, answers: greedy.answers },
    samples: many.answers,
    sampleCorrect: many.correct,
    seedOnly: [
      { correct: s1.correct, answers: s1.answers },
      { correct: s2.correct, answers: s2.answers },
    ],
  };
}

/** Measure a cohort on `problems` of `split` (validation for every choice; test only for reporting). */
export async function regimeCheck(
  agents: readonly Agent[],
  problems: readonly Problem[],
  split: 'validation' | 'test',
  opts: RegimeOptions,
): Promise<RegimeReport> {
  const errs = regimeOptionErrors(opts);
  if (errs.length) throw new Error(`regime check: ${errs.join('; ')}`);
  if (agents.length === 0) throw new Error('regime check: the cohort has no agents');
  if (problems.length === 0) throw new Error('regime check: no problems');
  const o = {
    K: opts.K,
    temperature: opts.temperature,
    spreadSamples: Math.max(opts.K, opts.spreadSamples ?? 16),
    seedOnlyTemperature: opts.seedOnlyTemperature ?? 0.8,
    seed: opts.seed ?? 1,
  };
  const draws: AgentDraws[] = [];
  for (const a of agents) {
    draws.push(await drawAgent(a, problems, o));
    opts.onAgent?.(a.spec.id, draws.length, agents.length);
  }
  const figures = regimeFigures(draws, o.K);
  return { split, problems: problems.length, ...o, figures, verdict: regimeGates(figures) };
}
