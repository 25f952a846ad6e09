// Agent families: an architecture (depth, width, positional variant) with named sizes, a prompt view
// (which fixes the tokenizer's alphabet) and a pretraining recipe (which regions of the train split it
// sees, how skewed, and where supervised pretraining stops). Different families are meant to be wrong
// in different places (docs/method.md, "Setting" and "Diversity and error overlap"); seeds within a family share a recipe, so their errors
// correlate. Plain objects, so a family round-trips through JSON.
import { makeGPTConfig, type GPTConfig, type PosVariant } from '../model/config';
import type { TokenizerName, ViewName } from '../tasks';
import type { CorpusSpec } from './corpus';
import { unknownName } from './names';
import { NATURAL_FAMILIES } from './naturalFamilies';
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

/** Shared recipe settings; families override the mix. */
const BASE_RECIPE: Omit<PretrainRecipe, 'mix'> = {
  maxSteps: 3000,
  batch: 32,
  lr: 4e-3,
  warmupSteps: 30,
  band: [0.5, 0.66],
  sampledBand: [0.55, 0.66],
  bandSamples: 4,
  evalEvery: 50,
  valSize: 400,
};

/** The engineered families: each pretrained on a hand-picked region mix (the worked example of docs/method.md ("Theory")). */
const ENGINEERED_FAMILIES: Readonly<Record<string, FamilySpec>> = {
  'lp-nocarry': {
    name: 'lp-nocarry',
    description:
      'engineered: learned positions, 2 blocks x 24 wide, plain view; pretrained 93% on problems without a units carry, 7% with one',
    arch: { nLayer: 2, nHead: 4, nEmbd: 24, mlpRatio: 4, pos: 'learned' },
    sizes: { s: {}, m: { nEmbd: 32 } },
    view: 'plain',
    recipe: {
      ...BASE_RECIPE,
      mix: [
        { region: 'no-carry', weight: 0.93 },
        { region: 'carry', weight: 0.07 },
      ],
    },
  },
  'rope-carry': {
    name: 'rope-carry',
    description:
      'engineered: rotary positions, 1 block x 32 wide, plain view; pretrained 88% on problems with a units carry, 12% without',
    arch: { nLayer: 1, nHead: 4, nEmbd: 32, mlpRatio: 4, pos: 'rope' },
    sizes: { s: {}, m: { nLayer: 2 } },
    view: 'plain',
    recipe: {
      ...BASE_RECIPE,
      mix: [
        { region: 'carry', weight: 0.88 },
        { region: 'no-carry', weight: 0.12 },
      ],
    },
  },
  'rope-carry-words': {
    name: 'rope-carry-words',
    description:
      'engineered: rotary positions, 1 block x 32 wide, words view ("37 plus 05?" -> "=42"); pretrained 88% on units-carry problems',
    arch: { nLayer: 1, nHead: 4, nEmbd: 32, mlpRatio: 4, pos: 'rope' },
    sizes: { s: {}, m: { nLayer: 2 } },
    view: 'words',
    // In the words view greedy accuracy runs ahead of sampled accuracy: a lower greedy ceiling.
    recipe: {
      ...BASE_RECIPE,
      band: [0.5, 0.64],
      sampledBand: [0.5, 0.66],
      mix: [
        { region: 'carry', weight: 0.88 },
        { region: 'no-carry', weight: 0.12 },
      ],
    },
  },
  'deep-rev': {
    name: 'deep-rev',
    description:
      'engineered: learned positions, 3 blocks x 16 wide, reversed view (numbers least-significant digit first); uniform data',
    arch: { nLayer: 3, nHead: 2, nEmbd: 16, mlpRatio: 4, pos: 'learned' },
    sizes: { s: {}, m: { nEmbd: 24 } },
    view: 'reversed',
    // In the reversed view addition is learned in a jump (greedy 0.35 -> 0.7 within 50 steps) while
    // samples lag far behind greedy answers: wider bands, validated every 10 steps.
    recipe: {
      ...BASE_RECIPE,
      band: [0.45, 0.64],
      sampledBand: [0.35, 0.66],
      evalEvery: 10,
      mix: [{ region: 'all', weight: 1 }],
    },
  },
};

/** Every family: the engineered ones (shipped checkpoints) and the natural ones (src/cohort/naturalFamilies.ts). */
export const FAMILIES: Readonly<Record<string, FamilySpec>> = {
  ...Object.fromEntries(Object.entries(ENGINEERED_FAMILIES).map(([k, f]) => [k, { ...f, engineered: true }])),
  ...NATURAL_FAMILIES,
};

/** All family names. */
export const FAMILY_NAMES = Object.keys(FAMILIES);

/** The family named `name`, or throw listing the valid names. */
export function getFamily(name: string): FamilySpec {
  const f = FAMILIES[name];
  if (!f) throw unknownName('family', name, FAMILY_NAMES);
  return f;
}

/** The architecture of a family at a size, or throw listing the family's sizes. */
export function familyArch(family: FamilySpec, size: string): FamilyArch {
  const o = family.sizes[size];
  if (!o) throw unknownName(`size of family '${family.name}'`, size, Object.keys(family.sizes));
  return { ...family.arch, ...o };
}

/** The GPT config of a family at a size for a vocabulary and context, with init seed `seed`. */
export function familyGPTConfig(
  family: FamilySpec,
  size: string,
  vocabSize: number,
  blockSize: number,
  seed: number,
): GPTConfig {
  return makeGPTConfig({ ...familyArch(family, size), vocabSize, blockSize, seed });
}
