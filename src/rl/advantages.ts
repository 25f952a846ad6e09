// Group-relative GRPO advantages with group/batch/none reward scaling; follows docs/method.md ("One training step", step 6) and paper Eq. 6.
import { allEqual, assertInt, mean, unbiasedStd } from './stats';

/** How rewards are scaled after centring on the group mean. */
export type ScaleRewards = 'group' | 'batch' | 'none';

/** The epsilon added to the std in the advantage denominator. */
export const ADVANTAGE_EPS = 1e-4;

/**
 * Advantages of one agent's batch of rewards: `A_k = (r_k - mean_group) / (std + eps)`, where a group is the
 * K completions of one prompt (index b*K + k) and std is unbiased (n - 1).
 * - `group` (default): std of the group;
 * - `batch`: std of the agent's whole batch of B*K rewards (the centring stays per group);
 * - `none`: no division, `A_k = r_k - mean_group`.
 * A group whose rewards are all equal gets exactly zero advantage (no gradient) in every mode.
 * @param rewards one agent's rewards, length B*K
 * @param K samples per prompt
 */
export function computeAdvantages(
  rewards: ArrayLike<number>,
  K: number,
  scaleRewards: ScaleRewards = 'group',
  eps = ADVANTAGE_EPS,
): Float64Array {
  assertInt('K', K, 1);
  if (rewards.length % K !== 0)
    throw new Error(`rewards length ${rewards.length} is not a multiple of K = ${K}`);
  const B = rewards.length / K;
  const out = new Float64Array(rewards.length);
  const batchStd = scaleRewards === 'batch' ? unbiasedStd(rewards) : 0;
  for (let b = 0; b < B; b++) {
    const g = Array.prototype.slice.call(rewards, b * K, (b + 1) * K) as number[];
    if (allEqual(g)) continue; // exactly zero, not a rounding residue
    const m = mean(g);
    let denom: number;
    if (scaleRewards === 'group') denom = unbiasedStd(g) + eps;
    else if (scaleRewards === 'batch') denom = batchStd + eps;
    else if (scaleRewards === 'none') denom = 1;
    else throw new Error(`unknown scaleRewards ${String(scaleRewards)}`);
    for (let k = 0; k < K; k++) out[b * K + k] = (g[k] - m) / denom;
  }
  return out;
}
