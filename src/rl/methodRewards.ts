// Reward dispatch of one trainer step: every label-free method goes through rewards.ts's label-free API
// (whose request types have no ground-truth field); only 'gt' is handed the truth. docs/method.md (label
// isolation, reward methods).
import { deriveRng } from '../util/rng';
import {
  groundTruthRewards,
  labelFreeRewards,
  type CohortAnswers,
  type LabelFreeRequest,
  type RewardMethod,
  type RewardResult,
} from './rewards';
import type { TokenBatch } from './tokenStats';
import type { TeacherMode } from './coLabeling';

/** What a step knows when rewards are computed. Ground truth is NOT among it: see `truthForGt`. */
export interface RewardInputs {
  method: RewardMethod;
  cohort: CohortAnswers;
  /** co-rl-frozen only: the frozen base copies' answers to the same prompts (same B, K, agent order). */
  frozen?: CohortAnswers;
  /** Vote threshold. */
  tau: number;
  /** co-rl's and co-rl-frozen's teacher (default 'ring'). */
  teacher?: TeacherMode;
  /** Per agent: per-token entropy of its completions (for rent). */
  entropy: readonly TokenBatch[];
  /** Per agent: per-token self-certainty (for intuitor); null when not computed. */
  certainty: readonly (TokenBatch | null)[];
  /** Run seed, agent ids and 1-based step: the random method's coin is deriveRng(seed, 'random-reward', id, step). */
  seed: number;
  agentIds: readonly string[];
  step: number;
}

/**
 * Rewards of one step. `truthForGt` is called only for the 'gt' method; label-free methods never
 * call it, so their rewards cannot depend on the ground truth.
 */
export function stepRewards(x: RewardInputs, truthForGt: () => string[]): RewardResult {
  if (x.method === 'gt') return groundTruthRewards(x.cohort, truthForGt());
  let req: LabelFreeRequest;
  switch (x.method) {
    case 'co-rl':
    case 'ttrl':
      req = { method: x.method, cohort: x.cohort, tau: x.tau, teacher: x.teacher };
      break;
    case 'co-rl-frozen':
      if (!x.frozen) throw new Error('co-rl-frozen: no answers of the frozen base copies for this step');
      req = { method: x.method, cohort: x.cohort, frozen: x.frozen, tau: x.tau, teacher: x.teacher };
      break;
    case 'intuitor':
      req = {
        method: 'intuitor',
        selfCertainty: x.certainty.map((c, n) => {
          if (!c) throw new Error(`intuitor: no self-certainty for agent ${x.agentIds[n]}`);
          return c;
        }),
      };
      break;
    case 'rent':
      req = { method: 'rent', entropy: x.entropy };
      break;
    case 'random':
      req = {
        method: 'random',
        counts: x.cohort.answers.map((a) => a.length),
        rands: x.agentIds.map((id) => {
          const rng = deriveRng(x.seed, 'random-reward', id, x.step);
          return () => rng.float();
        }),
      };
      break;
    default:
      throw new Error(`unknown reward method ${String(x.method)}`);
  }
  return labelFreeRewards(req);
}
