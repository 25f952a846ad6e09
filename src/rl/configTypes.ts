// The shape of an experiment config: a typed object with defaults (one comment per field, nanoGPT style).
// Its rules are configSchema.ts, its parse config.ts; documented in docs/experiment-config.md.
// Hyperparameter defaults follow docs/method.md ("One training step") and the public Co-RL launchers (beta 0, eps_clip 0.2).
import type { AgentSpec } from '../cohort/agent';
import type { TaskConfig } from '../tasks';
import type { LossType } from './grpo';
import type { RewardMethod } from './rewards';
import type { ScaleRewards } from './advantages';
import type { TeacherMode } from './coLabeling';

/** All reward methods, in display order. */
export const REWARD_METHODS: readonly RewardMethod[] = [
  'co-rl',
  'ttrl',
  'gt',
  'intuitor',
  'rent',
  'random',
  'co-rl-frozen',
];

/** Which agents to train: a named cohort preset, or an explicit list of agent specs with checkpoints. */
export type CohortRef = { preset: string } | { agents: AgentSpec[] };

/** The training hyperparameters shared by every method of an experiment. */
export interface TrainConfig {
  /** Prompts per step B (the same prompts, in the same order, for every agent). */
  batchPrompts: number;
  /** Samples per prompt K (>= 2: a group needs two rewards to have a std). */
  samples: number;
  /** Rollout sampling temperature T (docs/method.md default 1.0). */
  temperature: number;
  /** Completion slots per rollout; null = the longest correct completion of the task in the agent's view + EOS + 2. */
  maxNewTokens: number | null;
  /** Vote threshold tau in [0, 1]: a prompt is unlabeled when the top answer's share is below it. */
  tau: number;
  /** Advantage scaling: 'group' (default) | 'batch' | 'none'. */
  scaleRewards: ScaleRewards;
  /** Loss aggregation: 'grpo' (paper Eq. 5, default) | 'bnpo' | 'dr_grpo'. */
  lossType: LossType;
  /** PPO clip range eps_clip. */
  epsClip: number;
  /** KL coefficient beta against the frozen base (default 0 as in the public Co-RL launchers). */
  beta: number;
  /** Optimizer passes over the same rollouts (1 = on-policy, rho = 1, no clipping). */
  innerEpochs: number;
  /** AdamW learning rate (constant after warmup). */
  lr: number;
  /** Linear learning-rate warmup steps. */
  warmupSteps: number;
  /** AdamW beta1. */
  beta1: number;
  /** AdamW beta2. */
  beta2: number;
  /** AdamW epsilon. */
  adamEps: number;
  /** AdamW decoupled weight decay. */
  weightDecay: number;
  /** Global gradient-norm clip (0 = off). */
  maxGradNorm: number;
  /** Estimate KL to the base every this many steps when beta = 0 (1 = every step; beta > 0 forces 1). */
  klEvery: number;
  /** co-rl's (and co-rl-frozen's) teacher: 'ring' (the paper) | 'strict_majority' | 'self_plus_peers' | 'union' (N >= 3; extensions, not in the paper; co-rl-frozen refuses 'self_plus_peers'). */
  teacher: TeacherMode;
  /**
   * Where the prompts come from (src/rl/unseenPrompts.ts): absent or 'train' = any train problem (which may be one an
   * agent pretrained on); 'unseen' = train problems outside every agent's pretraining pool. Optional, so configs
   * without it keep their sweep cell ids.
   */
  prompts?: PromptSource;
  /**
   * Most rollout rows (of the B*K) per forward and backward pass of the policy update (src/rl/policy.ts): absent =
   * every row in one pass. Fewer rows per pass hold less activation memory at once (a batch too large for the wasm
   * engine's 4 GiB fits) for one more forward per extra pass; the gradient is the same up to the order of its sums.
   * Optional, so configs without it keep their sweep cell ids.
   */
  rowsPerPass?: number;
}

/** Held-out evaluation settings. */
export interface EvalConfig {
  /** Evaluate every this many steps (0 = only before the first and after the last step). */
  every: number;
  /** Held-out problems (a prefix of the split's fixed order; never used for training). */
  problems: number;
  /**
   * Which held-out split: 'test' (absent; every reported figure) or 'validation' (choosing a recipe, a
   * learning rate, a step count: docs/method.md ("Natural diversity")). Both are disjoint from the train split RL prompts come from.
   */
  split?: 'test' | 'validation';
  /** Samples per agent pooled into the cohort ensemble vote (the paper's maj@8 uses 4 per agent). */
  ensembleSamples: number;
  /** Temperature of those samples (the paper evaluates at 0.6). */
  temperature: number;
  /** S: samples per agent and held-out problem at the rollout temperature, for the live phase portrait (0 = off; the Train view's default is 8). */
  portraitSamples: number;
  /**
   * The regime check of the base agents at step 0 (docs/method.md, "The regime"; src/rl/regime/measure.ts):
   * this many validation problems at the rollout K and temperature, seed 1, kept beside the run's records
   * (absent or 0 = off: Node experiments leave it off to stay fast; the Train view sets it, default 400).
   */
  regime?: number;
}

/** A whole experiment: one or several methods on the same base agents, prompts and seeds, in lock step. */
export interface ExperimentConfig {
  /** A label for the run. */
  name: string;
  /** Run seed: every random stream (prompts, each agent's sampling, evaluation) is derived from it. */
  seed: number;
  /** Training steps per method. */
  steps: number;
  /** Reward methods run side by side; each gets its own copies of the base agents. */
  methods: RewardMethod[];
  /** The agents. */
  cohort: CohortRef;
  /** The task; null = the cohort preset's task. */
  task: TaskConfig | null;
  train: TrainConfig;
  eval: EvalConfig;
}

/** The prompt sources of `train.prompts` (src/rl/unseenPrompts.ts). */
export const PROMPT_SOURCES = ['train', 'unseen'] as const;
export type PromptSource = (typeof PROMPT_SOURCES)[number];

/** Defaults of the training hyperparameters. */
export const DEFAULT_TRAIN: Readonly<TrainConfig> = {
  batchPrompts: 16,
  samples: 8,
  temperature: 1.0,
  maxNewTokens: null,
  tau: 0,
  scaleRewards: 'group',
  lossType: 'grpo',
  epsClip: 0.2,
  beta: 0,
  innerEpochs: 1,
  lr: 1e-4,
  warmupSteps: 0,
  beta1: 0.9,
  beta2: 0.95,
  adamEps: 1e-8,
  weightDecay: 0,
  maxGradNorm: 1,
  klEvery: 1,
  teacher: 'ring',
};

/** Defaults of evaluation. */
export const DEFAULT_EVAL: Readonly<EvalConfig> = {
  every: 10,
  problems: 200,
  ensembleSamples: 4,
  temperature: 0.6,
  portraitSamples: 0,
};

/** What a validator may ask of the environment (cohort presets, checkpoint files); both optional. */
export interface ValidationEnv {
  /** Agent specs (and default task) of a cohort section, or the problems with it. */
  resolveCohort?(c: CohortRef): { specs: AgentSpec[]; task?: TaskConfig } | { errors: string[] };
  /** Problems with an agent's checkpoint: missing, unreadable, family or config mismatch; [] if fine. */
  checkCheckpoint?(spec: AgentSpec): string[];
}
