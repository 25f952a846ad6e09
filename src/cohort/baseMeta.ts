// What a base checkpoint's meta says about its agent (JSON in the checkpoint, src/model/checkpoint.ts):
// everything needed to rebuild the agent and redo its pretraining, and the corpus ladder it climbed.
import type { ResolvedTaskConfig, TokenizerName, ViewName } from '../tasks';
import type { CorpusSpec } from './corpus';
import type { FamilyArch, PretrainRecipe } from './familySpec';

/** Format tag of a base checkpoint's meta. */
export const BASE_META_FORMAT = 'co-rl-base-agent/1';

/** What a base checkpoint's meta holds (JSON). Everything needed to rebuild the agent and redo it. */
export interface BaseMeta {
  format: typeof BASE_META_FORMAT;
  family: string;
  size: string;
  view: ViewName;
  /** The task the agent was pretrained on (resolved: every knob filled). */
  task: ResolvedTaskConfig;
  /** The agent's seed (initialisation and data order). */
  seed: number;
  /** Tokenizer alphabet (ids = 3 + index; 0 PAD, 1 BOS, 2 EOS). */
  alphabet: string;
  /** Prompt length in tokens (the same for every problem of the task in this view). */
  promptLength: number;
  /** Longest correct completion in tokens, EOS included: enough new tokens for greedy answers. */
  maxNewTokens: number;
  /** Optimizer steps taken. */
  steps: number;
  /** Greedy accuracy on the validation slice (train split) at the stop. */
  valAccuracy: number;
  /** Mean sampled (T = 1) accuracy on the validation slice at the stop. */
  valSampledAccuracy: number;
  /** Whether the stop was inside the recipe's band (false: the closest validation was kept). */
  inBand: boolean;
  params: number;
  recipe: PretrainRecipe;
  /** Validation history: step (after it), smoothed loss, validation accuracy. */
  history: { step: number; loss: number; valAccuracy: number; valSampledAccuracy: number }[];
  /** Axis overrides the agent was built with (absent for the shipped engineered agents: none). */
  arch?: Partial<FamilyArch>;
  tokenizer?: TokenizerName;
  corpus?: CorpusSpec;
  /** `plateau` recipes with a corpus ladder: every corpus size tried, in order (`corpus` holds the one kept). */
  ladder?: LadderRung[];
  /** Content address of the build (src/cohort/cache.ts), when it was built for the cache. */
  cacheKey?: string;
}

/** One rung of a corpus ladder: the corpus size tried and what its converged model reached on validation. */
export interface LadderRung {
  size: number;
  steps: number;
  valAccuracy: number;
  plateaued: boolean;
  inBand: boolean;
}
