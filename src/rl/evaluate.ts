// Held-out evaluation of a cohort: greedy accuracy per agent, sampled avg@E and maj@E per agent, and the
// cohort ensemble that pools E samples from every agent into one majority vote (the paper's matched-
// budget maj@8 with E = 4, N = 2). docs/method.md ("What is measured", evaluation; "Pitfalls": never evaluate on training prompts).
import type { Agent } from '../cohort/agent';
import { generate } from '../model/generate';
import { extractAnswer, type Problem } from '../tasks';
import { deriveSeed } from '../util/rng';
import { majorityAtK } from './metrics';
import type { AgentEvalRecord, EvalRecord } from './records';
import type { RewardMethod } from './rewards';
import { encodePrompts, type PromptRenderer } from './rollout';
import type { Answer } from './vote';
import { majorityVote } from './vote';

/** Settings of one evaluation. */
export interface EvaluateOptions {
  method: RewardMethod;
  /** Steps trained so far (0 = base). */
  step: number;
  /** Run seed; each agent's eval samples come from deriveSeed(seed, 'eval', agentId, step). */
  seed: number;
  /** Samples per agent for avg@E, maj@E and the pooled ensemble. */
  ensembleSamples: number;
  /** Temperature of those samples. */
  temperature: number;
  /** Completion slots per agent (same order as the agents). */
  maxNewTokens: readonly number[];
  /** Rows per generate call (bounds memory). */
  chunk?: number;
  /** S: samples per agent and problem for the live phase portrait (0 or absent: none). */
  portraitSamples?: number;
  /** Temperature of those samples (the rollout temperature). */
  portraitTemperature?: number;
  /** How prompts are rendered (default renderPrompt; the trainer passes its task's `prompt`). */
  render?: PromptRenderer;
}

/** Decode rows of a generate result into answers. */
async function sampleAnswers(
  agent: Agent,
  problems: readonly Problem[],
  samples: number,
  temperature: number,
  maxNew: number,
  seed: number,
  chunk: number,
  render?: PromptRenderer,
): Promise<Answer[]> {
  const out: Answer[] = [];
  const per = Math.max(1, Math.floor(chunk / samples));
  for (let i = 0; i < problems.length; i += per) {
    const part = problems.slice(i, i + per);
    const { ids, Tp } = encodePrompts(agent, part, render);
    // a fresh seed per chunk, so chunks never reuse draws
    const g = await generate(agent.model, ids, part.length, Tp, {
      samples,
      temperature,
      maxNewTokens: maxNew,
      eosId: agent.tokenizer.eosId,
      seed: deriveSeed(seed, 'chunk', i),
    });
    for (let r = 0; r < part.length * samples; r++) {
      const text = agent.tokenizer.decode(g.tokens.subarray(r * maxNew, r * maxNew + g.lengths[r]));
      out.push(extractAnswer(text, agent.spec.view, part[Math.floor(r / samples)]));
    }
  }
  return out;
}

/**
 * Evaluate every agent on held-out problems (which must come from the task's eval split).
 * Reads the ground truth: evaluation is measurement, never a reward.
 */
export async function evaluateCohort(
  agents: readonly Agent[],
  problems: readonly Problem[],
  o: EvaluateOptions,
): Promise<EvalRecord> {
  const t0 = performance.now();
  const P = problems.length;
  const E = o.ensembleSamples;
  const chunk = o.chunk ?? 1024;
  const greedyRight: boolean[][] = [];
  const sampled: Answer[][] = [];
  const records: AgentEvalRecord[] = [];
  for (const [n, agent] of agents.entries()) {
    const greedy = await sampleAnswers(agent, problems, 1, 0, o.maxNewTokens[n], 0, chunk, o.render);
    const samples = await sampleAnswers(
      agent,
      problems,
      E,
      o.temperature,
      o.maxNewTokens[n],
      deriveSeed(o.seed, 'eval', agent.spec.id, o.step),
      chunk,
      o.render,
    );
    const right = greedy.map((a, b) => a !== null && a === problems[b].answer);
    greedyRight.push(right);
    sampled.push(samples);
    let sRight = 0;
    let maj = 0;
    for (let b = 0; b < P; b++) {
      const group = samples.slice(b * E, (b + 1) * E);
      sRight += group.filter((a) => a !== null && a === problems[b].answer).length;
      if (majorityVote(group).vote === problems[b].answer) maj++;
    }
    records.push({
      agent: agent.spec.id,
      greedyAccuracy: right.filter(Boolean).length / P,
      sampledAccuracy: sRight / (P * E),
      majAccuracy: maj / P,
      parseableFraction: greedy.filter((a) => a !== null).length / P,
      greedyAnswers: greedy,
      greedyCorrect: right.map((r) => (r ? '1' : '0')).join(''),
    });
  }
  let ens = 0;
  let oracle = 0;
  for (let b = 0; b < P; b++) {
    const pooled = sampled.map((s) => s.slice(b * E, (b + 1) * E));
    if (majorityAtK(pooled).vote === problems[b].answer) ens++;
    if (greedyRight.some((r) => r[b])) oracle++;
  }
  const rec: EvalRecord = {
    method: o.method,
    step: o.step,
    problems: P,
    agents: records,
    meanGreedyAccuracy: records.reduce((s, r) => s + r.greedyAccuracy, 0) / records.length,
    ensembleAccuracy: ens / P,
    oracleAccuracy: oracle / P,
    seconds: (performance.now() - t0) / 1000,
  };
  return o.portraitSamples ? withPortrait(rec, agents, problems, o) : rec;
}

/**
 * `rec` with the live portrait's counts added (a copy): per agent and problem, how many of S samples at
 * the rollout temperature are right. Each agent's draws come from their own seed, so adding them later
 * (the page does so after showing the base evaluation) gives the same counts as in one pass.
 */
export async function withPortrait(
  rec: EvalRecord,
  agents: readonly Agent[],
  problems: readonly Problem[],
  o: EvaluateOptions,
): Promise<EvalRecord> {
  const S = o.portraitSamples ?? 0;
  if (S <= 0) return rec;
  const t0 = performance.now();
  const out: EvalRecord = { ...rec, agents: [...rec.agents], portraitSamples: S };
  for (const [n, agent] of agents.entries()) {
    const counts = await portraitCounts(agent, problems, o, n, o.chunk ?? 1024);
    out.agents[n] = { ...rec.agents[n], ...(counts && { portraitRight: counts }) };
  }
  out.seconds = rec.seconds + (performance.now() - t0) / 1000;
  return out;
}

/**
 * Per problem, how many of S samples at the rollout temperature are right (pA(x) = count / S), for the
 * live phase portrait (docs/method.md ("Theory") on the real cohort). Null when S is 0 or absent.
 */
async function portraitCounts(
  agent: Agent,
  problems: readonly Problem[],
  o: EvaluateOptions,
  n: number,
  chunk: number,
): Promise<number[] | null> {
  const S = o.portraitSamples ?? 0;
  if (S <= 0) return null;
  const seed = deriveSeed(o.seed, 'portrait', agent.spec.id, o.step);
  const answers = await sampleAnswers(
    agent,
    problems,
    S,
    o.portraitTemperature ?? o.temperature,
    o.maxNewTokens[n],
    seed,
    chunk,
    o.render,
  );
  return problems.map(
    (p, b) => answers.slice(b * S, (b + 1) * S).filter((a) => a !== null && a === p.answer).length,
  );
}
