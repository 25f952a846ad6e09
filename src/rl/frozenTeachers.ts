// The frozen teachers of the co-rl-frozen control (docs/method.md, the distillation control): each agent's
// base copy (the trainer's frozen KL reference, never updated) as an agent that rolls out the step's
// prompts, K samples at the rollout temperature, from its own seed stream
// deriveSeed(seed, FROZEN_ROLLOUT_LABEL, id, step), which no trained copy ever draws from.
import type { Agent } from '../cohort/agent';
import type { GPT } from '../model/gpt';
import { deriveSeed } from '../util/rng';
import type { RolloutOptions } from './rollout';

/** The seed label of the frozen copies' rollouts (the trained copies use 'rollout'). */
export const FROZEN_ROLLOUT_LABEL = 'frozen-teacher-rollout';

/** Agent n's frozen base copy as an agent: its spec, tokenizer and view, with the frozen model `refs[n]`. */
export function frozenTeachers(agents: readonly Agent[], refs: readonly GPT[]): Agent[] {
  if (refs.length !== agents.length)
    throw new Error(`frozenTeachers: ${refs.length} frozen copies for ${agents.length} agents`);
  return agents.map((a, n) => {
    if (refs[n] === a.model) throw new Error(`agent ${a.spec.id}: its frozen copy is its trained model`);
    return { spec: a.spec, tokenizer: a.tokenizer, model: refs[n] };
  });
}

/** The frozen copies' rollout options of step `step`: the trained copies' sampling, their own seeds. */
export function frozenRolloutOptions(
  trained: readonly RolloutOptions[],
  ids: readonly string[],
  seed: number,
  step: number,
): RolloutOptions[] {
  return trained.map((o, n) => ({ ...o, seed: deriveSeed(seed, FROZEN_ROLLOUT_LABEL, ids[n], step) }));
}
