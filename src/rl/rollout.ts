// Rollouts of one agent: render the shared problems in the agent's own view, sample K completions per
// prompt with the KV-cache decoder (one decoding pass for all B*K rows), decode and extract answers.
// A cohort's rollouts are all recorded first and read back together: one readback per step.
// docs/method.md ("One training step", step 1-3).
import type { Agent } from '../cohort/agent';
import { resolvePending } from '../engine/backend';
import type { GPT } from '../model/gpt';
import { startGenerate, type GenerateOptions, type GenerateResult } from '../model/generate';
import { extractAnswer, renderPrompt, type Problem, type ViewName } from '../tasks';
import type { PolicyRows } from './policy';
import type { Answer } from './vote';

/** Sampling options of one rollout call. */
export interface RolloutOptions {
  /** Samples per prompt K (rows r = b*K + k). */
  samples: number;
  /** Sampling temperature (0 = greedy). */
  temperature: number;
  /** Completion slots per row. */
  maxNewTokens: number;
  /** u32 seed of this call's draws: the agent's own stream for this step. */
  seed: number;
}

/** The rollouts of one agent for one batch of prompts. */
export interface AgentRollout {
  /** Prompt+completion rows, ready for the policy pass. */
  rows: PolicyRows;
  /** Decoded completion text per row (up to EOS, without it). */
  texts: string[];
  /** Extracted answer per row; null = unparseable. */
  answers: Answer[];
  /** Completion length per row in tokens, including EOS when produced. */
  lengths: Uint32Array;
  /** Per row: true when the completion ended with EOS (false = cut off at maxNewTokens). */
  eos: boolean[];
}

/** How a problem's prompt text is made for a view: `renderPrompt`, or the task's `prompt` (which the trainer passes). */
export type PromptRenderer = (problem: Problem, view: ViewName) => string;

/** Token ids of a problem's prompt in the agent's view (character tokens, no specials, as in pretraining). */
export function promptIds(agent: Agent, problem: Problem, render: PromptRenderer = renderPrompt): number[] {
  return agent.tokenizer.encode(render(problem, agent.spec.view));
}

/** The (B, Tp) prompt ids of a batch in the agent's view; every prompt of one view has the same length. */
export function encodePrompts(
  agent: Agent,
  problems: readonly Problem[],
  render: PromptRenderer = renderPrompt,
): { ids: Uint32Array; Tp: number } {
  if (problems.length === 0) throw new Error('encodePrompts: no problems');
  const enc = problems.map((p) => promptIds(agent, p, render));
  const Tp = enc[0].length;
  const bad = enc.findIndex((e) => e.length !== Tp);
  if (bad >= 0)
    throw new Error(
      `agent ${agent.spec.id}: prompt ${bad} has ${enc[bad].length} tokens, prompt 0 has ${Tp}; prompts of one view must have equal length`,
    );
  const ids = new Uint32Array(problems.length * Tp);
  enc.forEach((e, b) => ids.set(e, b * Tp));
  return { ids, Tp };
}

/** One rollout's decoding, as plain data: prompt ids (B, Tp) and the sampling options (no log-probs). */
export interface GenerateJob {
  ids: Uint32Array;
  B: number;
  Tp: number;
  opts: GenerateOptions;
}

/**
 * Decodes jobs (job n on the n-th model of the caller's list) and returns their tokens: on the local
 * backend (`localGenerator`) or wherever the models live (a trainer's CohortModels, src/rl/cohortModels.ts).
 */
export type Generator = (jobs: GenerateJob[]) => Promise<GenerateResult[]>;

/** The decoding job of one agent's rollout: its prompts encoded in its view, K samples, no log-probs. */
export function generateJob(
  agent: Agent,
  problems: readonly Problem[],
  o: RolloutOptions,
  render: PromptRenderer = renderPrompt,
): GenerateJob {
  const { ids, Tp } = encodePrompts(agent, problems, render);
  return {
    ids,
    B: problems.length,
    Tp,
    opts: {
      samples: o.samples,
      temperature: o.temperature,
      maxNewTokens: o.maxNewTokens,
      eosId: agent.tokenizer.eosId,
      seed: o.seed,
      logp: false,
    },
  };
}

/** Every job decoded on its model (`models[n]`, all on one backend) before ONE readback of all their tokens. */
export function generateAll(models: readonly GPT[], jobs: readonly GenerateJob[]): Promise<GenerateResult[]> {
  if (jobs.length === 0) return Promise.resolve([]);
  return resolvePending(
    models[0].backend,
    jobs.map((j, n) => startGenerate(models[n], j.ids, j.B, j.Tp, j.opts)),
  );
}

/** The generator of agents on this backend: agent n's model decodes job n. */
export const localGenerator =
  (agents: readonly Agent[]): Generator =>
  (jobs) =>
    generateAll(
      agents.map((a) => a.model),
      jobs,
    );

/**
 * Rollouts of every agent (options per agent), all decoded before ONE readback of all their tokens. The
 * prompts are encoded and the completions decoded and parsed here, with each agent's tokenizer and view;
 * `generate` decodes (default: on the agents' own models, which must share one backend and no parameters).
 */
export async function rolloutCohort(
  agents: readonly Agent[],
  problems: readonly Problem[],
  o: readonly RolloutOptions[],
  render: PromptRenderer = renderPrompt,
  generate?: Generator,
): Promise<AgentRollout[]> {
  if (agents.length === 0) return [];
  if (o.length !== agents.length)
    throw new Error(`rolloutCohort: ${o.length} option sets for ${agents.length} agents`);
  if (!generate) {
    const be = agents[0].model.backend;
    if (agents.some((a) => a.model.backend !== be))
      throw new Error('rolloutCohort: every agent must live on one backend');
    if (new Set(agents.map((a) => a.model)).size !== agents.length)
      throw new Error('rolloutCohort: two agents share a model (agents share no parameters)');
  }
  const jobs = agents.map((a, n) => generateJob(a, problems, o[n], render));
  const gens = await (generate ?? localGenerator(agents))(jobs);
  return agents.map((a, n) => assemble(a, problems, o[n], jobs[n].ids, jobs[n].Tp, gens[n]));
}

function assemble(
  agent: Agent,
  problems: readonly Problem[],
  o: RolloutOptions,
  ids: Uint32Array,
  Tp: number,
  g: GenerateResult,
): AgentRollout {
  const B = problems.length;
  const K = o.samples;
  const M = o.maxNewTokens;
  const R = B * K;
  const L = Tp + M;
  const seq = new Uint32Array(R * L);
  const mask = new Float32Array(R * M);
  const texts: string[] = [];
  const answers: Answer[] = [];
  const eos: boolean[] = [];
  for (let r = 0; r < R; r++) {
    const b = Math.floor(r / K);
    seq.set(ids.subarray(b * Tp, (b + 1) * Tp), r * L);
    const comp = g.tokens.subarray(r * M, (r + 1) * M);
    seq.set(comp, r * L + Tp);
    const len = g.lengths[r];
    mask.fill(1, r * M, r * M + len);
    const text = agent.tokenizer.decode(comp.subarray(0, len));
    texts.push(text);
    answers.push(extractAnswer(text, agent.spec.view, problems[b]));
    eos.push(g.truncated[r] === 0);
  }
  return { rows: { R, Tp, maxNewTokens: M, seq, mask }, texts, answers, lengths: g.lengths, eos };
}
