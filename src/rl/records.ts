// Plain-data records of a training run (numbers, strings, null; structured-cloneable, JSON-ready):
// what the trainer emits every step and every evaluation, per agent and per pair. docs/method.md ("What is measured").
import type { RewardMethod } from './rewards';
import type { CoLabelingRecord } from './coLabelingDiagnostics';

/** One agent's figures for one training step. `null` where a figure is undefined (see the field). */
export interface AgentStepRecord {
  /** Agent id. */
  agent: string;
  /** Mean reward over the agent's B*K completions. */
  rewardMean: number;
  /** Unbiased reward std over the agent's whole batch. */
  rewardStd: number;
  /** Mean over prompts of the unbiased within-group reward std. */
  rewardGroupStd: number;
  /** rewardStd / its value at step 1 (null if that was 0). */
  rewardStdNorm: number | null;
  /** rewardGroupStd / its value at step 1 (the paper's Fig. 4b; null if that was 0). */
  rewardGroupStdNorm: number | null;
  /** Share of groups whose K rewards are all equal (no gradient). */
  zeroStdFraction: number;
  /** Share of the agent's LABELED prompts whose OWN vote equals the ground truth (null if none labeled). */
  pseudoLabelAccuracy: number | null;
  /** Accuracy of the labels the agent was trained on (co-rl: its predecessor's votes; null for label-less methods). */
  trainedLabelAccuracy: number | null;
  /** Share of completions whose reward equals the reward ground truth would give (null for non-binary rewards). */
  rewardAccuracy: number | null;
  /** Share of prompts the agent's own vote labels. */
  labeledFraction: number;
  /** Share of completions whose answer parses. */
  parseableFraction: number;
  /** Share of completions whose answer is the ground truth (sampled accuracy on the training batch). */
  sampleAccuracy: number;
  /** Mean completion length in tokens (including EOS). */
  meanLength: number;
  /** Share of completions cut off at maxNewTokens. */
  cutOffShare: number;
  /** Mean token entropy over completion tokens (logits / temperature). */
  meanEntropy: number;
  /** Mean k3 KL to the frozen base over completion tokens, before this step's update (null on skipped steps). */
  kl: number | null;
  /** Share of completion tokens where the clipped branch was active (mean over inner epochs). */
  clipFraction: number;
  /** Global gradient norm before clipping (mean over inner epochs). */
  gradNorm: number;
  /** The GRPO loss of the first inner epoch (0 with beta = 0 and rho = 1 is normal). */
  loss: number;
  /** Learning rate used. */
  lr: number;
}

/** Vote agreement of one pair of agents at one step. */
export interface PairStepRecord {
  a: string;
  b: string;
  /** Prompts labeled by both. */
  bothLabeled: number;
  /** Share of those where the votes are equal (null if none). */
  agreement: number | null;
}

/** Wall-clock seconds of the phases of one step. */
export interface StepTiming {
  rollout: number;
  forward: number;
  update: number;
  total: number;
}

/** A few completions of one prompt, for inspection. */
export interface StepExample {
  agent: string;
  prompt: string;
  truth: string;
  completions: string[];
  answers: (string | null)[];
  rewards: number[];
  vote: string | null;
}

/** Everything measured at one training step of one method. */
export interface StepRecord {
  method: RewardMethod;
  /** 1-based step. */
  step: number;
  agents: AgentStepRecord[];
  pairs: PairStepRecord[];
  timing: StepTiming;
  /** First prompt's completions per agent, when the trainer keeps examples. */
  examples?: StepExample[];
  /** Co-labeling diagnostics of the public Co-RL code (label-based methods; absent in older records). */
  coLabeling?: CoLabelingRecord;
}

/** One agent's held-out evaluation. */
export interface AgentEvalRecord {
  agent: string;
  /** Greedy (T = 0) single-sample accuracy. */
  greedyAccuracy: number;
  /** Mean accuracy of the ensemble samples (avg@E at the eval temperature). */
  sampledAccuracy: number;
  /** Accuracy of the agent's own majority vote over its E samples (maj@E). */
  majAccuracy: number;
  /** Share of greedy answers that parse. */
  parseableFraction: number;
  /**
   * The greedy answer to each held-out problem, in the problems' order (null = unparseable): with
   * `greedyCorrect`, the input of the error-overlap view (docs/method.md ("Diversity and error overlap")). Absent in older records.
   */
  greedyAnswers?: (string | null)[];
  /** Per held-out problem, '1' where the greedy answer is right and '0' where not (same order). */
  greedyCorrect?: string;
  /**
   * Per held-out problem (same order), how many of the EvalRecord's `portraitSamples` samples at the
   * rollout temperature are right: the problem's p(correct) for the live phase portrait. Absent when off.
   */
  portraitRight?: number[];
}

/** A held-out evaluation of the whole cohort. */
export interface EvalRecord {
  method: RewardMethod;
  /** Steps trained so far (0 = the base agents). */
  step: number;
  /** Number of held-out problems. */
  problems: number;
  agents: AgentEvalRecord[];
  /** Mean of the agents' greedy accuracies. */
  meanGreedyAccuracy: number;
  /** Majority vote over E samples from EACH agent pooled (the paper's matched-budget maj@8 for N = 2, E = 4). */
  ensembleAccuracy: number;
  /** Share of problems where at least one agent's greedy answer is right. */
  oracleAccuracy: number;
  /** S behind each agent's `portraitRight` (absent when the portrait samples are off or in older records). */
  portraitSamples?: number;
  seconds: number;
}
