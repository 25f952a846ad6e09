// The frozen teachers of the co-rl-frozen control (docs/method.md, the distillation control): each agent's
// base copy (the trainer's frozen KL reference, never updated; decoded by its CohortModels, src/rl/cohortModels.ts,
// as jobs N..2N-1 of the step's rollout) rolls out the step's prompts in its agent's view, K samples at the
// rollout temperature, from its own seed stream
// deriveSeed(seed, FROZEN_ROLLOUT_LABEL, id, step), which no trained copy ever draws from.
import { deriveSeed } from '../util/rng';
import type { RolloutOptions } from './rollout';

/** The seed label of the frozen copies' rollouts (the trained copies use 'rollout'). */
export const FROZEN_ROLLOUT_LABEL = 'frozen-teacher-rollout';

/** The frozen copies' rollout options of step `step`: the trained copies' sampling, their own seeds. */
export function frozenRolloutOptions(
  trained: readonly RolloutOptions[],
  ids: readonly string[],
  seed: number,
  step: number,
): RolloutOptions[] {
  return trained.map((o, n) => ({ ...o, seed: deriveSeed(seed, FROZEN_ROLLOUT_LABEL, ids[n], step) }));
}
