// Rollouts of one agent: render the shared problems in the agent's own view, sample K completions per
// prompt with the KV-cache decoder (one decoding pass for all B*K rows), decode and extract answers.
// A cohort's rollouts are all recorded first and read back together: one readback per step.
// docs/method.md ("One training step", step 1-3).
import type { Agent } from '../cohort/agent';
import { resolvePending, type Pending } from '../engine/backend';
import { startGenerate, type GenerateResult } from '../model/generate';
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

/**
 * Record the decoding of `samples` completions for each problem (rows r = b*K + k) on the agent's
 * backend; resolving it reads the tokens back and extracts the answers. The completion mask covers
 * tokens up to and including the first EOS. (No log-probs here: the policy pass recomputes them.)
 */
export function startRollout(
  agent: Agent,
  problems: readonly Problem[],
  o: RolloutOptions,
  render: PromptRenderer = renderPrompt,
): Pending<AgentRollout> {
  const { ids, Tp } = encodePrompts(agent, problems, render);
  const gen = startGenerate(agent.model, ids, problems.length, Tp, {
    samples: o.samples,
    temperature: o.temperature,
    maxNewTokens: o.maxNewTokens,
    eosId: agent.tokenizer.eosId,
    seed: o.seed,
    logp: false,
  });
  return {
    tensors: gen.tensors,
    finish: (values) => assemble(agent, problems, o, ids, Tp, gen.finish(values)),
  };
}

/** Rollouts of every agent (options per agent), all decoded before ONE readback of all their tokens. */
export async function rolloutCohort(
  agents: readonly Agent[],
  problems: readonly Problem[],
  o: readonly RolloutOptions[],
  render: PromptRenderer = renderPrompt,
): Promise<AgentRollout[]> {
  if (agents.length === 0) return [];
  if (o.length !== agents.length)
    throw new Error(`rolloutCohort: ${o.length} option sets for ${agents.length} agents`);
  const be = agents[0].model.backend;
  if (agents.some((a) => a.model.backend !== be))
    throw new Error('rolloutCohort: every agent must live on one backend');
  if (new Set(agents.map((a) => a.model)).size !== agents.length)
    throw new Error('rolloutCohort: two agents share a model (agents share no parameters)');
  return resolvePending(
    be,
    agents.map((a, n) => startRollout(a, problems, o[n], render)),
  );
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
