// The task's types (a problem, its splits, the task interface): a file of their own so that task kinds
// built outside task.ts (src/tasks/file/) can name them without importing the factory.
import type { ResolvedTaskConfig, TaskKind } from './config';
import type { Rng } from '../util/rng';
import type { ViewName } from './views';

/** One problem: view-independent; render it with `renderPrompt(problem, view)`. Plain data (structured-cloneable). */
export interface Problem {
  readonly kind: TaskKind;
  /** Stable key, e.g. "add:2:37+05". Decides the split; unique within a config. */
  readonly key: string;
  /** Field values (operands, or target + list digits). */
  readonly values: readonly number[];
  /** Canonical answer string (ground truth). */
  readonly answer: string;
  /** The resolved config the problem belongs to (rendering widths come from it). */
  readonly config: ResolvedTaskConfig;
}

/** Which split a problem belongs to: train (pretraining and RL prompts), validation (every choice), test (every reported figure). */
export type Split = 'train' | 'validation' | 'test';
/** A split, or the union of train and validation (the older two-way "train" split, kept for shipped checkpoints). */
export type SplitSelector = Split | 'train+validation';

/** Sizes of the splits. `exact` is false for spaces too large to enumerate (sizes are then estimates). */
export interface SplitSizes {
  space: number;
  train: number;
  validation: number;
  test: number;
  /** The test split's size under its older name (the held-out "eval" split is the test split). */
  eval: number;
  exact: boolean;
  /** File tasks: train problems kept for RL prompts only (`sampleTrain`); `train` is then the pretraining half. */
  rl?: number;
}

/** A task built from a config. Train, validation and test problems never overlap. */
export interface Task {
  readonly config: ResolvedTaskConfig;
  /** Human-readable config, e.g. "add(digits=2, evalFraction=0.2)". */
  readonly name: string;
  /** Size of the whole problem space and of each split. */
  readonly sizes: SplitSizes;
  /** The split of a problem key (pure function of key and evalFraction). */
  splitOf(key: string): Split;
  /** `n` distinct TRAIN-split problems drawn with `rng` (independent across calls). Throws if `n` > train size. */
  sampleTrain(rng: Rng, n: number): Problem[];
  /** `n` distinct problems of a split (or of train+validation) drawn with `rng`. */
  sampleSplit(split: SplitSelector, rng: Rng, n: number): Problem[];
  /** The first `n` problems of the fixed, seeded order of a held-out split (a prefix of a larger request). */
  heldOut(split: 'validation' | 'test', n: number): Problem[];
  /** The first `n` problems of the fixed, seeded TEST order (a prefix of `evalSet(m)` for m > n): `heldOut('test', n)`. */
  evalSet(n: number): Problem[];
  /** Build a problem from field values (for tests and tools). */
  problem(values: readonly number[]): Problem;
  /** Prompt length (characters) of every problem in `view`. */
  promptLength(view: ViewName): number;
  /**
   * The prompt an agent is shown for a problem (`renderPrompt`). The trainer, rollouts and evaluation
   * render through this, so a test can hand them problems whose truth-bearing fields are scrambled.
   */
  prompt(problem: Problem, view: ViewName): string;
  /** Longest correct completion (characters, no EOS) of any problem of the task in `view`. */
  longestCompletion(view: ViewName): number;
}
