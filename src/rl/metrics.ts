// Per-step training metrics (reward stats, label accuracy, agreement, lengths, entropy) and maj@k; docs/method.md ("What is measured").
import { assertInt, mean, unbiasedStd } from './stats';
import { maskedMean, type TokenBatch } from './tokenStats';
import { majorityVote, type Answer, type Vote } from './vote';

/** Reward statistics of one agent's batch. Both stds are UNBIASED (n - 1). */
export interface RewardStats {
  /** Mean reward over all B*K completions. */
  mean: number;
  /** Unbiased std over the agent's whole batch of B*K rewards. */
  batchStd: number;
  /** Mean over the B prompts of the unbiased within-group (K completions) std. */
  meanGroupStd: number;
  /** Share of groups whose K rewards are all equal (zero std, no gradient). */
  zeroStdFraction: number;
}

/**
 * Reward mean, batch std, mean within-group std (both unbiased) and zero-std group fraction.
 * @param rewards one agent's rewards, index b*K + k
 */
export function rewardStats(rewards: ArrayLike<number>, K: number): RewardStats {
  assertInt('K', K, 1);
  if (rewards.length === 0 || rewards.length % K !== 0) {
    throw new Error(`rewards length ${rewards.length} is not a positive multiple of K = ${K}`);
  }
  const B = rewards.length / K;
  let stdSum = 0;
  let zero = 0;
  for (let b = 0; b < B; b++) {
    const sd = unbiasedStd(Array.prototype.slice.call(rewards, b * K, (b + 1) * K) as number[]);
    stdSum += sd;
    if (sd === 0) zero++;
  }
  return {
    mean: mean(rewards),
    batchStd: unbiasedStd(rewards),
    meanGroupStd: stdSum / B,
    zeroStdFraction: zero / B,
  };
}

/**
 * Share of LABELED prompts (label non-null) whose label equals the ground truth; `null` if none is labeled.
 * Use with an agent's own votes (pseudo-label accuracy) or with the labels it was trained on
 * (for co-rl: its predecessor's votes).
 */
export function labelAccuracy(labels: readonly (string | null)[], truth: readonly string[]): number | null {
  if (labels.length !== truth.length)
    throw new Error(`labels (${labels.length}) and truth (${truth.length}) differ in length`);
  let labeled = 0;
  let right = 0;
  labels.forEach((l, b) => {
    if (l === null) return;
    labeled++;
    if (l === truth[b]) right++;
  });
  return labeled > 0 ? right / labeled : null;
}

/** Share of prompts that are labeled (vote non-null). */
export function labeledFraction(labels: readonly (string | null)[]): number {
  return labels.length > 0 ? labels.filter((l) => l !== null).length / labels.length : 0;
}

/** Share of answers that parsed (non-null). */
export function parseableFraction(answers: readonly Answer[]): number {
  return answers.length > 0 ? answers.filter((a) => a !== null).length / answers.length : 0;
}

/** Agreement of one pair of agents. */
export interface PairAgreement {
  /** First agent index (i < j). */
  i: number;
  /** Second agent index. */
  j: number;
  /** Prompts labeled by both agents. */
  bothLabeled: number;
  /** Share of those prompts where the two votes are equal; `null` if no prompt is labeled by both. */
  agreement: number | null;
}

/**
 * Pairwise vote agreement for every pair i < j.
 * @param labels `labels[n][b]`: agent n's vote on prompt b (`null` = unlabeled)
 */
export function pairwiseAgreement(labels: readonly (readonly (string | null)[])[]): PairAgreement[] {
  const out: PairAgreement[] = [];
  for (let i = 0; i < labels.length; i++) {
    for (let j = i + 1; j < labels.length; j++) {
      if (labels[i].length !== labels[j].length)
        throw new Error(`agents ${i} and ${j} have different prompt counts`);
      let both = 0;
      let same = 0;
      for (let b = 0; b < labels[i].length; b++) {
        const x = labels[i][b];
        const y = labels[j][b];
        if (x === null || y === null) continue;
        both++;
        if (x === y) same++;
      }
      out.push({ i, j, bothLabeled: both, agreement: both > 0 ? same / both : null });
    }
  }
  return out;
}

/**
 * Share of completions whose reward equals the reward ground truth would give
 * (1 iff the answer is non-null and equals the truth of its prompt).
 * @param rewards one agent's rewards, index b*K + k
 * @param answers the same agent's answers, index b*K + k
 * @param truth ground truth per prompt, length B
 */
export function rewardAccuracy(
  rewards: ArrayLike<number>,
  answers: readonly Answer[],
  truth: readonly string[],
  K: number,
): number {
  assertInt('K', K, 1);
  if (rewards.length !== answers.length || answers.length !== truth.length * K) {
    throw new Error('rewardAccuracy: rewards, answers and truth*K must have equal lengths');
  }
  if (answers.length === 0) return 0;
  let agree = 0;
  answers.forEach((a, i) => {
    const gt = a !== null && a === truth[Math.floor(i / K)] ? 1 : 0;
    if (rewards[i] === gt) agree++;
  });
  return agree / answers.length;
}

/** Completion length statistics. */
export interface LengthStats {
  /** Mean completion length in tokens. */
  meanLength: number;
  /** Share of completions that produced no EOS, i.e. were cut off at maxNewTokens. */
  cutOffShare: number;
}

/**
 * Mean completion length and share cut off at maxNewTokens.
 * @param lengths completion lengths in tokens (including EOS when produced)
 * @param eosProduced whether each completion ended with EOS
 */
export function lengthStats(lengths: ArrayLike<number>, eosProduced: readonly boolean[]): LengthStats {
  if (lengths.length !== eosProduced.length) throw new Error('lengths and eosProduced differ in length');
  const n = eosProduced.length;
  return { meanLength: mean(lengths), cutOffShare: n > 0 ? eosProduced.filter((e) => !e).length / n : 0 };
}

/** Mean token entropy over all masked tokens of a batch (token-weighted). */
export function meanTokenEntropy(entropy: TokenBatch): number {
  return maskedMean(entropy);
}

/**
 * A series divided by its first value (the paper's Fig. 4b normalisation of reward std).
 * If the first value is 0 or not finite the ratio is undefined and every entry is `null`.
 */
export function normalizeToFirst(series: readonly number[]): (number | null)[] {
  const first = series[0];
  if (series.length === 0 || first === 0 || !Number.isFinite(first)) return series.map(() => null);
  return series.map((x) => x / first);
}

/**
 * Cohort ensemble maj@k: pool the answers of several agents (e.g. 4 samples each) into one majority vote with
 * the same tie rule as {@link majorityVote}; the pooled rollout order is agent 0's samples, then agent 1's, ...
 * @param perAgent `perAgent[n]` = agent n's answers to ONE prompt, in sampling order
 */
export function majorityAtK(perAgent: readonly (readonly Answer[])[], tau = 0): Vote {
  return majorityVote(perAgent.flat(), tau);
}

/** Inputs for {@link agentStepMetrics}: one agent, one step. */
export interface AgentStepInput {
  /** Samples per prompt. */
  K: number;
  /** Answers, index b*K + k. */
  answers: readonly Answer[];
  /** Rewards, index b*K + k. */
  rewards: ArrayLike<number>;
  /** The agent's OWN vote labels per prompt (`null` = unlabeled). */
  ownLabels: readonly (string | null)[];
  /** Labels the agent was trained on (co-rl: predecessor's votes), or null if not label-based. */
  trainedLabels?: readonly (string | null)[] | null;
  /** Ground truth per prompt (measurement only). */
  truth: readonly string[];
  /** Completion lengths and EOS flags, optional. */
  lengths?: ArrayLike<number>;
  eosProduced?: readonly boolean[];
  /** Per-token entropy with mask, optional. */
  entropy?: TokenBatch;
}

/** Per-agent step metrics (docs/method.md ("What is measured")); `null` where not computable from the given inputs. */
export interface AgentStepMetrics extends RewardStats {
  pseudoLabelAccuracy: number | null;
  trainedLabelAccuracy: number | null;
  rewardAccuracy: number;
  labeledFraction: number;
  parseableFraction: number;
  meanLength: number | null;
  cutOffShare: number | null;
  meanEntropy: number | null;
}

/** All per-agent metrics of one step in one object. */
export function agentStepMetrics(x: AgentStepInput): AgentStepMetrics {
  const lens =
    x.lengths !== undefined && x.eosProduced !== undefined ? lengthStats(x.lengths, x.eosProduced) : null;
  return {
    ...rewardStats(x.rewards, x.K),
    pseudoLabelAccuracy: labelAccuracy(x.ownLabels, x.truth),
    trainedLabelAccuracy: x.trainedLabels ? labelAccuracy(x.trainedLabels, x.truth) : null,
    rewardAccuracy: rewardAccuracy(x.rewards, x.answers, x.truth, x.K),
    labeledFraction: labeledFraction(x.ownLabels),
    parseableFraction: parseableFraction(x.answers),
    meanLength: lens ? lens.meanLength : null,
    cutOffShare: lens ? lens.cutOffShare : null,
    meanEntropy: x.entropy ? meanTokenEntropy(x.entropy) : null,
  };
}
