// Natural families (docs/method.md ("Natural diversity")): bundles that differ the way real model families do, in architecture,
// tokenizer and pretraining corpus together, each with a few sizes; none is pretrained on a hand-picked
// region. Each pretrains on a seeded random draw of the train split (its own corpus stream: agents of two
// families with the same stream and seed read the same problems), validates on the validation split, and
// stops by the `plateau` rule written in docs/cohorts.md before any RL of these families was run: trained
// until it has learnt its finite corpus by heart, the model's remaining errors are set by its inductive
// biases and its corpus, not by where training happened to stop.
import type { FamilySpec, PretrainRecipe } from './familySpec';

/** The natural recipe: train each corpus of a size ladder to its plateau; keep the first in the [0.25, 0.75] band. */
export const NATURAL_RECIPE: PretrainRecipe = {
  mix: [{ region: 'all', weight: 1 }],
  maxSteps: 6000,
  batch: 32,
  lr: 4e-3,
  warmupSteps: 30,
  band: [0.25, 0.75],
  sampledBand: [0, 1],
  bandSamples: 1,
  evalEvery: 1000,
  valSize: 400,
  pool: 'split',
  stop: 'plateau',
  plateauTolerance: 0.05,
  corpusLadder: [250, 350, 500, 700, 1000, 1400, 2000],
};

/** Every natural family. */
export const NATURAL_FAMILIES: Readonly<Record<string, FamilySpec>> = {
  'nat-rope': {
    name: 'nat-rope',
    description:
      'natural: rotary positions, 2 blocks x 32 wide, 4 heads, MLP x4; one token per digit; corpus stream a',
    arch: { nLayer: 2, nHead: 4, nEmbd: 32, mlpRatio: 4, pos: 'rope' },
    sizes: { xxs: { nEmbd: 16 }, xs: { nEmbd: 24 }, s: {}, m: { nLayer: 3 } },
    view: 'plain',
    tokenizer: 'digit',
    corpus: { draw: 'random' },
    recipe: NATURAL_RECIPE,
  },
  'nat-deep': {
    name: 'nat-deep',
    description:
      'natural: rotary positions, 3 blocks x 24 wide, 2 heads, MLP x2; one token per digit; corpus stream a (as nat-rope)',
    arch: { nLayer: 3, nHead: 2, nEmbd: 24, mlpRatio: 2, pos: 'rope' },
    sizes: { xs: { nEmbd: 16 }, s: {} },
    view: 'plain',
    tokenizer: 'digit',
    corpus: { draw: 'random' },
    recipe: NATURAL_RECIPE,
  },
  'nat-abs': {
    name: 'nat-abs',
    description:
      'natural: learned positions, 2 blocks x 32 wide, 4 heads, MLP x2; one token per digit; corpus stream a (as nat-rope)',
    arch: { nLayer: 2, nHead: 4, nEmbd: 32, mlpRatio: 2, pos: 'learned' },
    sizes: { s: {}, m: { nLayer: 3 } },
    view: 'plain',
    tokenizer: 'digit',
    corpus: { draw: 'random' },
    recipe: NATURAL_RECIPE,
  },
  'nat-chunk': {
    name: 'nat-chunk',
    description:
      'natural: learned positions, 2 blocks x 32 wide, 2 heads, MLP x4; numbers in 2-digit tokens (as Llama 3 chunks them, up to 2 here); corpus stream b',
    arch: { nLayer: 2, nHead: 2, nEmbd: 32, mlpRatio: 4, pos: 'learned' },
    sizes: { s: {}, m: { nLayer: 3 } },
    view: 'plain',
    tokenizer: 'chunk2',
    corpus: { draw: 'random', stream: 'b' },
    recipe: NATURAL_RECIPE,
  },
  'nat-rev': {
    name: 'nat-rev',
    description:
      'natural: rotary positions, 2 blocks x 24 wide, 2 heads, MLP x4; numbers least-significant digit first (reversed view); corpus stream c',
    arch: { nLayer: 2, nHead: 2, nEmbd: 24, mlpRatio: 4, pos: 'rope' },
    sizes: { s: {}, m: { nEmbd: 32 } },
    view: 'reversed',
    tokenizer: 'digit',
    corpus: { draw: 'random', stream: 'c' },
    recipe: NATURAL_RECIPE,
  },
};
