// Tiny corpus-ladder recipes for tests (./ladder.test.ts, src/rl/pool/rungBuilds.test.ts): three rungs of two
// steps on 2-digit addw, either every rung in band (the ladder keeps its first) or none (it climbs to its last).
import type { PretrainRecipe } from './familySpec';

export const LADDER_TASK = { kind: 'addw', digits: 2 } as const;
const ladder = {
  maxSteps: 2,
  evalEvery: 1,
  valSize: 8,
  batch: 4,
  bandSamples: 1,
  corpusLadder: [20, 30, 40],
};
/** `first`: every rung in band; `none`: no rung is. */
export const LADDER_RECIPES: Record<'first' | 'none', Partial<PretrainRecipe>> = {
  first: { ...ladder, band: [0, 1], sampledBand: [0, 1], plateauTolerance: 1 },
  none: { ...ladder, band: [0.99, 1] },
};
