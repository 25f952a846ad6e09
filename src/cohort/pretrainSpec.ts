// What a pretraining is asked (src/cohort/pretrain.ts, pretrainRun.ts): the agent to pretrain, the
// options and progress of a run, and the token layout of its task.
import type { TokenizerName, ViewName } from '../tasks';
import type { AgentSpec } from './agent';
import type { CorpusSpec } from './corpus';
import type { FamilyArch, PretrainRecipe } from './familySpec';
import type { RecipeOverride } from './recipeAxis';

/** An agent to pretrain: family, size and seed, and optionally any axis overridden (docs/method.md ("Natural diversity")). */
export type PretrainSpec = Pick<AgentSpec, 'id' | 'family' | 'size' | 'seed'> & {
  view?: ViewName;
  /** Architecture overrides (any of depth, width, heads, positions, MLP ratio) and the context `blockSize`. */
  arch?: Partial<FamilyArch> & { blockSize?: number };
  tokenizer?: TokenizerName;
  corpus?: CorpusSpec;
  /** Overrides of the family's recipe (the `recipe` axis); `opts.recipe` goes on top of them. */
  recipe?: RecipeOverride;
};

/** Progress of one pretraining run (for a CLI line or a UI bar). */
export interface PretrainProgress {
  agent: string;
  step: number;
  maxSteps: number;
  /** Smoothed training loss. */
  loss: number;
  /** Greedy validation accuracy, set at validation steps. */
  valAccuracy?: number;
  /** Sampled (T = 1) validation accuracy, set at validation steps. */
  valSampledAccuracy?: number;
  /** A corpus ladder's rung in progress: the corpus size, its index (from 0) and the ladder's length. */
  rung?: { size: number; index: number; of: number };
  done: boolean;
}

export interface PretrainOptions {
  /** Overrides of the family's recipe (tests use tiny ones). */
  recipe?: Partial<PretrainRecipe>;
  /** Called after every validation and at the end. */
  onProgress?: (p: PretrainProgress) => void;
  /** Polled every step; true stops the run (the best model so far is returned). */
  shouldStop?: () => boolean;
  /** Awaited before every step: lets the thread's messages in (src/util/breathe.ts), e.g. a cancel or a pool's reply. */
  breathe?: () => Promise<void>;
  /** Recorded in the meta as `cacheKey` (the cache's content address). */
  cacheKey?: string;
  /** Gets one line per thing about the build its spec does not say (e.g. a corpus clipped to the pool). */
  notice?: (s: string) => void;
}

export type { AgentLayout } from './layout';
