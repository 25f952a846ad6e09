// The inspector's data: the latest training step in full (every prompt, every agent's K completions,
// answers, own vote, the label it was trained on, the truth, rewards) as plain strings and numbers, and
// the attention probabilities of one prompt+completion through an agent's current model.
import type { Agent } from '../cohort/agent';
import { NUM_SPECIAL, renderPrompt, type Problem, type ViewName } from '../tasks';
import type { RewardMethod, RewardResult } from './rewards';
import type { Vote } from './vote';

/** One agent's view of one prompt at one step. */
export interface InspectedAgent {
  agent: string;
  /** The prompt as this agent read it (its own view). */
  prompt: string;
  /** The K completion texts (up to EOS, without it). */
  completions: string[];
  /** Extracted answer per completion (null = unparseable). */
  answers: (string | null)[];
  /** Reward per completion. */
  rewards: number[];
  /** Per completion: true when it ended with EOS (false = cut off at the slot limit). */
  eos: boolean[];
  /** The agent's own majority vote (null = unlabeled). */
  vote: string | null;
  /** Top answer's share of the parseable answers (reported even when below tau). */
  voteShare: number;
  /** The label its rewards were computed against (null: unlabeled, or a method without labels). */
  label: string | null;
}

/** One prompt of the step. */
export interface InspectedPrompt {
  /** 0-based index in the step's batch. */
  index: number;
  /** Ground truth (shown for measurement; label-free methods never read it). */
  truth: string;
  agents: InspectedAgent[];
  /** True when the agents' own votes are not all the same. */
  disagree: boolean;
}

/** The latest step of one trainer, in full. Plain data (structured-cloneable). */
export interface StepInspection {
  method: RewardMethod;
  /** 1-based step. */
  step: number;
  /** Samples per prompt. */
  K: number;
  /** Agent ids in cohort order. */
  agents: string[];
  /** Per agent: whose labels it was trained on ('truth', an agent id, or null for label-less methods). */
  labelFrom: (string | null)[];
  /** Layers and heads per agent (the attention pickers' ranges). */
  shapes: { layers: number; heads: number }[];
  prompts: InspectedPrompt[];
}

/** Inputs of {@link buildInspection}: what a trainer step has at hand. */
export interface InspectionInputs {
  method: RewardMethod;
  step: number;
  K: number;
  agents: readonly Agent[];
  problems: readonly Problem[];
  /** Per agent: rollout texts, answers and EOS flags, index b*K + k. */
  rolls: readonly {
    texts: readonly string[];
    answers: readonly (string | null)[];
    eos: readonly boolean[];
  }[];
  res: RewardResult;
  /** Per agent, per prompt: the agent's own vote. */
  votes: readonly (readonly Vote[])[];
  /** Per agent: index of the agent whose votes train it (co-rl), else ignored. */
  teacherOf: (n: number) => number;
  /** How prompts are rendered (default renderPrompt). */
  render?: (p: Problem, view: ViewName) => string;
}

/** The full record of a step, for the inspector. Strings and numbers only. */
export function buildInspection(x: InspectionInputs): StepInspection {
  const { K } = x;
  const ids = x.agents.map((a) => a.spec.id);
  const labelFrom = x.agents.map((_, n) => {
    if (!x.res.trainedLabels) return null;
    if (x.method === 'gt') return 'truth';
    if (x.method === 'co-rl') return ids[x.teacherOf(n)];
    if (x.method === 'co-rl-frozen') return `${ids[x.teacherOf(n)]} (frozen base)`;
    return ids[n];
  });
  const prompts = x.problems.map((p, b): InspectedPrompt => {
    const agents = x.agents.map((a, n): InspectedAgent => {
      const v = x.votes[n][b];
      return {
        agent: ids[n],
        prompt: (x.render ?? renderPrompt)(p, a.spec.view),
        completions: x.rolls[n].texts.slice(b * K, (b + 1) * K),
        answers: x.rolls[n].answers.slice(b * K, (b + 1) * K),
        rewards: x.res.rewards[n].slice(b * K, (b + 1) * K),
        eos: x.rolls[n].eos.slice(b * K, (b + 1) * K),
        vote: v.vote,
        voteShare: v.share,
        label: x.res.trainedLabels ? x.res.trainedLabels[n][b] : null,
      };
    });
    return { index: b, truth: p.answer, agents, disagree: new Set(agents.map((a) => a.vote)).size > 1 };
  });
  return {
    method: x.method,
    step: x.step,
    K,
    agents: ids,
    labelFrom,
    shapes: x.agents.map((a) => ({ layers: a.model.cfg.nLayer, heads: a.model.cfg.nHead })),
    prompts,
  };
}

/** Attention of one sequence through one block of an agent's model. */
export interface AttentionResult {
  /** One label per position: the character of each token. */
  tokens: string[];
  /** Positions that belong to the prompt (the completion starts at this index). */
  promptTokens: number;
  /** Heads NH. */
  heads: number;
  /** (NH, T, T) row-major: probs[(h*T + t)*T + t2] = attention of query t on key t2 (0 above the diagonal). */
  probs: number[];
}

/**
 * Attention probabilities of block `layer` for `prompt` + `completion` through the agent's CURRENT
 * model: one forward at B = 1. The sequence is padded to the model's context so every call uses the
 * same activation shape (causal attention: padding never changes the rows kept). The forward replaces
 * the model's "last forward", so call it only between training steps (each step forwards again
 * before its backward). Throws a message naming the allowed range on a bad layer or text.
 */
export async function attentionMap(
  agent: Agent,
  prompt: string,
  completion: string,
  layer: number,
): Promise<AttentionResult> {
  const model = agent.model;
  const { nLayer, nHead: NH, blockSize } = model.cfg;
  if (!Number.isInteger(layer) || layer < 0 || layer >= nLayer) {
    throw new Error(
      `layer ${layer} is out of range for agent ${agent.spec.id}: it has layers 0..${nLayer - 1}`,
    );
  }
  const tok = agent.tokenizer;
  const p = tok.encode(prompt);
  // the last completion token is never an input when it fills the context (as in the policy pass)
  const ids = [...p, ...tok.encode(completion)].slice(0, blockSize);
  const T = ids.length;
  if (T === 0) throw new Error('attention needs at least one token');
  const be = model.backend;
  const Tb = blockSize;
  const padded = new Uint32Array(Tb);
  padded.set(ids);
  const tokens = be.alloc([Tb], 'u32', 'attention.tokens');
  try {
    be.write(tokens, padded);
    model.forward(tokens, 1, Tb);
    const att = (await be.read(model.attentionProbs(layer))) as Float32Array; // (1, NH, Tb, Tb)
    const probs = new Array<number>(NH * T * T);
    for (let h = 0; h < NH; h++)
      for (let t = 0; t < T; t++) {
        const src = (h * Tb + t) * Tb;
        const dst = (h * T + t) * T;
        for (let t2 = 0; t2 < T; t2++) probs[dst + t2] = att[src + t2];
      }
    const label = (id: number) => (id >= NUM_SPECIAL ? tok.alphabet[id - NUM_SPECIAL] : '');
    return { tokens: ids.map(label), promptTokens: Math.min(p.length, T), heads: NH, probs };
  } finally {
    be.free(tokens);
  }
}

/** Prompt indices in display order: those where the agents' votes differ first, each group in batch order. */
export function promptOrder(ins: StepInspection): number[] {
  return [...ins.prompts.filter((p) => p.disagree), ...ins.prompts.filter((p) => !p.disagree)].map(
    (p) => p.index,
  );
}

/** The prompt index to show for a choice (a valid index, else the first in display order). */
export function chosenPrompt(ins: StepInspection, choice: number): number {
  return Number.isInteger(choice) && choice >= 0 && choice < ins.prompts.length
    ? choice
    : (promptOrder(ins)[0] ?? 0);
}
