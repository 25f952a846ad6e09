// What a family is (src/cohort/families.ts, naturalFamilies.ts): its architecture with named sizes,
// its prompt view and tokenizer, and its pretraining recipe. Plain objects, so a family round-trips through JSON.
import type { PosVariant } from '../model/config';
import type { TokenizerName, ViewName } from '../tasks';
import type { CorpusSpec } from './corpus';
import type { MixPart, PoolMode } from './regions';

/** The shape of a family's transformer (vocabulary and context come from the task and view). */
export interface FamilyArch {
  /** Transformer blocks. */
  nLayer: number;
  /** Attention heads (divides nEmbd; head size even for rope). */
  nHead: number;
  /** Model width. */
  nEmbd: number;
  /** MLP hidden width as a multiple of nEmbd. */
  mlpRatio: number;
  /** Positional variant. */
  pos: PosVariant;
}

/** How a family's base agents are pretrained (supervised next-token on correct completions). */
export interface PretrainRecipe {
  /** Training mixture over regions of the train split (weights relative). */
  mix: MixPart[];
  /** Most optimizer steps (also the length of the cosine schedule). */
  maxSteps: number;
  /** Examples per step. */
  batch: number;
  /** Peak learning rate. */
  lr: number;
  /** Linear warmup steps. */
  warmupSteps: number;
  /**
   * Stop at the first validation where greedy accuracy lies in `band` AND sampled accuracy (mean over
   * `bandSamples` samples per problem at temperature 1: the p(correct) RL rollouts start from) lies in
   * `sampledBand`. Both on the validation slice.
   */
  band: [number, number];
  sampledBand: [number, number];
  /** Samples per validation problem for the sampled accuracy. */
  bandSamples: number;
  /** Validate every this many steps. */
  evalEvery: number;
  /** Validation problems: the first valSize of the validation split (or of the pool, `pool-slice`). */
  valSize: number;
  /**
   * Where validation comes from (src/cohort/regions.ts `PoolMode`); absent = `pool-slice`, the mode the
   * engineered families' shipped checkpoints were made in (absent so their recorded recipes stay as they are).
   */
  pool?: PoolMode;
  /**
   * When to stop: `band` (absent; the engineered families): at the first validation inside both bands.
   * `budget` (natural families): train all maxSteps; keep the final model if it is inside the bands, else
   * the latest validation that was (a validation every evalEvery steps), else the closest one.
   * `plateau` (natural families): train all maxSteps and keep the final model; it is in band when its final
   * validation is inside the bands and within `plateauTolerance` of the validation before (src/cohort/pretrainRun.ts).
   */
  stop?: 'band' | 'budget' | 'plateau';
  /** `plateau`: the largest change between the last two validations that still counts as a plateau (default 0.05). */
  plateauTolerance?: number;
  /**
   * `plateau` with a random-draw corpus: corpus sizes tried in order, each trained to its plateau; the first
   * whose final model is in band is kept, else the one closest to the band (recorded `inBand: false`).
   */
  corpusLadder?: number[];
  /**
   * Share in [0, 0.5] of the corpus's problems pretrained on a seeded wrong final answer of the same length,
   * the working left as is (src/cohort/noise.ts); absent or 0: none.
   */
  noise?: number;
  /**
   * Working paths and their weights (src/cohort/workPathMix.ts): each corpus problem is pretrained on its
   * working along one path drawn by seed and key; absent: the task kind's own completion.
   */
  paths?: Record<string, number>;
  /**
   * With `paths`: the share in [0, 1] of corpus problems whose path follows a feature of the problem that
   * its prompt shows (src/tasks/workPaths.ts workPathFeature), drawn from the mix by seed and feature, so
   * every problem with that feature is taught along one path; the rest by seed and key. Absent or 0: by key.
   */
  pathFeature?: number;
}

/** A family of agents. */
export interface FamilySpec {
  name: string;
  /** One line for the UI and the docs. */
  description: string;
  /** The default size's architecture. */
  arch: FamilyArch;
  /** Named sizes: overrides of `arch` ("s" is the default and overrides nothing). */
  sizes: Record<string, Partial<FamilyArch>>;
  /** The prompt view its agents read and answer in. */
  view: ViewName;
  recipe: PretrainRecipe;
  /** How its text is cut into tokens (absent: `digit`, one token per character). */
  tokenizer?: TokenizerName;
  /** Which part of the train split it is pretrained on (absent: all of it). */
  corpus?: CorpusSpec;
  /** True for the families pretrained on a hand-picked region mix (the worked example): shown as "engineered". */
  engineered?: boolean;
}
