// Natural families (SCIENCE.md §8): bundles that differ the way real model families do, in architecture,
// tokenizer and pretraining corpus together, each with a few sizes; none is pretrained on a hand-picked
// region. All pretrain on the whole train split's problems (a seeded draw or a disjoint share), validate on
// the validation split, and stop by the `budget` rule written in docs/cohorts.md before any RL was run.
import type { FamilySpec, PretrainRecipe } from './families';

/** The natural recipe: a fixed budget, validated on the validation split, kept by the [0.25, 0.75] band. */
export const NATURAL_RECIPE: PretrainRecipe = {
  mix: [{ region: 'all', weight: 1 }],
  maxSteps: 2000,
  batch: 32,
  lr: 4e-3,
  warmupSteps: 30,
  band: [0.25, 0.75],
  sampledBand: [0, 1],
  bandSamples: 1,
  evalEvery: 250,
  valSize: 400,
  pool: 'split',
  stop: 'budget',
};

/** Every natural family. */
export const NATURAL_FAMILIES: Readonly<Record<string, FamilySpec>> = {
  'nat-rope': {
    name: 'nat-rope',
    description: 'natural: rotary positions, 2 blocks x 32 wide, 4 heads, MLP x4; one token per digit; a seeded draw of 3000 train problems',
    arch: { nLayer: 2, nHead: 4, nEmbd: 32, mlpRatio: 4, pos: 'rope' },
    sizes: { xs: { nEmbd: 24 }, s: {}, m: { nLayer: 3 } },
    view: 'plain',
    tokenizer: 'digit',
    corpus: { draw: 'random', size: 3000 },
    recipe: NATURAL_RECIPE,
  },
  'nat-abs': {
    name: 'nat-abs',
    description: 'natural: learned positions, 2 blocks x 32 wide, 4 heads, MLP x2; one token per digit; a seeded draw of 3000 train problems',
    arch: { nLayer: 2, nHead: 4, nEmbd: 32, mlpRatio: 2, pos: 'learned' },
    sizes: { s: {}, m: { nLayer: 3 } },
    view: 'plain',
    tokenizer: 'digit',
    corpus: { draw: 'random', size: 3000 },
    recipe: NATURAL_RECIPE,
  },
  'nat-chunk': {
    name: 'nat-chunk',
    description: 'natural: learned positions, 2 blocks x 32 wide, 2 heads, MLP x4; numbers in 2-digit tokens (as Llama 3 chunks them, up to 2 here); share 1 of 2 of the train split',
    arch: { nLayer: 2, nHead: 2, nEmbd: 32, mlpRatio: 4, pos: 'learned' },
    sizes: { s: {}, m: { nLayer: 3 } },
    view: 'plain',
    tokenizer: 'chunk2',
    corpus: { draw: 'share', index: 1, of: 2 },
    recipe: NATURAL_RECIPE,
  },
  'nat-rev': {
    name: 'nat-rev',
    description: 'natural: rotary positions, 2 blocks x 24 wide, 2 heads, MLP x4; numbers least-significant digit first (reversed view); share 0 of 2 of the train split',
    arch: { nLayer: 2, nHead: 2, nEmbd: 24, mlpRatio: 4, pos: 'rope' },
    sizes: { s: {}, m: { nEmbd: 32 } },
    view: 'reversed',
    tokenizer: 'digit',
    corpus: { draw: 'share', index: 0, of: 2 },
    recipe: NATURAL_RECIPE,
  },
};
