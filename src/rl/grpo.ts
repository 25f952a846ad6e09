// Clipped GRPO surrogate + k3 KL loss with grpo/bnpo/dr_grpo aggregation and dLoss/dlogp weights; docs/method.md ("One training step", step 7), paper Eq. 5.
import { assertInt } from './stats';

/** How per-token losses are aggregated into one scalar. */
export type LossType = 'grpo' | 'bnpo' | 'dr_grpo';

/** Inputs of {@link grpoLoss}. All per-token arrays are (S, maxNewTokens) row-major, S = B*K completions. */
export interface GrpoLossInput {
  /** log pi_theta(y_t | ...) of the sampled tokens under the current parameters. */
  logp: ArrayLike<number>;
  /** log-probs under the rollout policy (treated as constants). Default: `logp` (innerEpochs = 1, rho = 1). */
  logpOld?: ArrayLike<number>;
  /** log-probs under the frozen reference (base) model. Required when beta > 0; if given with beta = 0 it only feeds `meanKl`. */
  ref?: ArrayLike<number>;
  /** 1 for completion tokens up to and including EOS, 0 after. */
  mask: ArrayLike<number>;
  /** One advantage per completion, length S. */
  advantages: ArrayLike<number>;
  /** Row length of the per-token arrays. */
  maxNewTokens: number;
  /** Clip range eps: rho is clipped to [1 - eps, 1 + eps]. Default 0.2. */
  epsClip?: number;
  /** KL coefficient. Default 0. */
  beta?: number;
  /** Aggregation. Default 'grpo'. */
  lossType?: LossType;
}

/** Output of {@link grpoLoss}. */
export interface GrpoLossOutput {
  /** Aggregated loss (to minimise). */
  loss: number;
  /** `weights[i] = dLoss / dlogp[i]` for every token; 0 where the mask is 0. */
  weights: Float64Array;
  /** Share of masked tokens where the clipped branch is the active one of the min (its gradient is 0). */
  clipFraction: number;
  /** Mean k3 KL to the reference over masked tokens; `null` when no `ref` was given. */
  meanKl: number | null;
  /** Mean importance ratio rho over masked tokens. */
  meanRho: number;
  /** Number of masked tokens. */
  numTokens: number;
  /** Number of completions S. */
  numSequences: number;
}

/**
 * GRPO loss of one agent. Per masked token:
 * `l_t = -min(rho_t*A, clip(rho_t, 1-eps, 1+eps)*A) + beta*KL_t`, `rho_t = exp(logp_t - logpOld_t)`,
 * `KL_t = exp(ref_t - logp_t) - (ref_t - logp_t) - 1`. Aggregation:
 * - `grpo`: mean over sequences of each sequence's token mean (a sequence with no token contributes 0 but counts);
 * - `bnpo`: sum over masked tokens / number of masked tokens;
 * - `dr_grpo`: sum over masked tokens / (S * maxNewTokens).
 * Weights: d l_t / d logp_t = -rho_t*A when the unclipped branch is active (clip inactive; at the clip boundary
 * both branches agree), 0 when the clipped branch is active, plus beta*(1 - exp(ref_t - logp_t)); times the
 * aggregation coefficient of that token.
 */
export function grpoLoss(input: GrpoLossInput): GrpoLossOutput {
  const { logp, mask, advantages, maxNewTokens: T } = input;
  const logpOld = input.logpOld ?? logp;
  const ref = input.ref;
  const epsClip = input.epsClip ?? 0.2;
  const beta = input.beta ?? 0;
  const lossType = input.lossType ?? 'grpo';

  assertInt('maxNewTokens', T, 1);
  if (!(epsClip >= 0 && epsClip < 1)) throw new Error(`epsClip must be in [0, 1), got ${epsClip}`);
  if (!(beta >= 0)) throw new Error(`beta must be >= 0, got ${beta}`);
  if (beta > 0 && ref === undefined) throw new Error('beta > 0 needs reference log-probs (ref)');
  if (lossType !== 'grpo' && lossType !== 'bnpo' && lossType !== 'dr_grpo') {
    throw new Error(`unknown lossType ${String(lossType)}`);
  }
  const n = logp.length;
  if (n % T !== 0) throw new Error(`logp length ${n} is not a multiple of maxNewTokens ${T}`);
  for (const [name, arr] of [
    ['logpOld', logpOld],
    ['mask', mask],
    ['ref', ref],
  ] as const) {
    if (arr !== undefined && arr.length !== n)
      throw new Error(`${name} length ${arr.length} != logp length ${n}`);
  }
  const S = n / T;
  if (advantages.length !== S) throw new Error(`expected ${S} advantages, got ${advantages.length}`);

  let numTokens = 0;
  const rowLen = new Int32Array(S);
  for (let s = 0; s < S; s++) {
    for (let j = s * T; j < (s + 1) * T; j++) if (mask[j] !== 0) rowLen[s]++;
    numTokens += rowLen[s];
  }

  const weights = new Float64Array(n);
  let loss = 0;
  let clipped = 0;
  let klSum = 0;
  let rhoSum = 0;
  const lo = 1 - epsClip;
  const hi = 1 + epsClip;
  for (let s = 0; s < S; s++) {
    const A = advantages[s];
    let coef: number;
    if (lossType === 'grpo') coef = 1 / (S * Math.max(rowLen[s], 1));
    else if (lossType === 'bnpo') coef = 1 / Math.max(numTokens, 1);
    else coef = 1 / (S * T);
    for (let j = s * T; j < (s + 1) * T; j++) {
      if (mask[j] === 0) continue;
      const rho = Math.exp(logp[j] - logpOld[j]);
      rhoSum += rho;
      const clipActive = (A > 0 && rho > hi) || (A < 0 && rho < lo);
      const surrogate = Math.min(rho * A, Math.min(Math.max(rho, lo), hi) * A);
      let l = 0 - surrogate;
      let dl = clipActive ? 0 : 0 - rho * A;
      if (clipActive) clipped++;
      if (ref !== undefined) {
        const d = ref[j] - logp[j];
        const ed = Math.exp(d);
        const kl = ed - d - 1;
        klSum += kl;
        if (beta > 0) {
          l += beta * kl;
          dl += beta * (1 - ed);
        }
      }
      loss += coef * l;
      weights[j] = coef * dl + 0; // `+ 0` turns -0 into +0
    }
  }
  const denom = Math.max(numTokens, 1);
  return {
    loss: loss + 0,
    weights,
    clipFraction: clipped / denom,
    meanKl: ref === undefined ? null : klSum / denom,
    meanRho: numTokens > 0 ? rhoSum / numTokens : 1,
    numTokens,
    numSequences: S,
  };
}
