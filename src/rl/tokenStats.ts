// Per-token statistics over masked (B*K, maxNewTokens) arrays: self-certainty, entropy, masked means; docs/method.md ("Reward methods" to "What is measured").
import { assertInt } from './stats';

/**
 * A per-token array for a batch of completions, row-major (rows = completions, cols = maxNewTokens),
 * with a mask that is 1 for completion tokens up to and including EOS and 0 after.
 */
export interface TokenBatch {
  /** Per-token values, length rows * maxNewTokens. */
  values: ArrayLike<number>;
  /** 1 for completion tokens (up to and including EOS), 0 after; same length as `values`. */
  mask: ArrayLike<number>;
  /** Row length. */
  maxNewTokens: number;
}

/** Number of rows (completions) of a token batch, after checking its shape. */
export function tokenBatchRows(t: TokenBatch): number {
  assertInt('maxNewTokens', t.maxNewTokens, 1);
  if (t.values.length !== t.mask.length) {
    throw new Error(`values (${t.values.length}) and mask (${t.mask.length}) lengths differ`);
  }
  if (t.values.length % t.maxNewTokens !== 0) {
    throw new Error(`length ${t.values.length} is not a multiple of maxNewTokens ${t.maxNewTokens}`);
  }
  return t.values.length / t.maxNewTokens;
}

/**
 * Mean of the masked values of each row. A row with no masked token gets 0.
 * @returns one mean per completion
 */
export function maskedRowMeans(t: TokenBatch): Float64Array {
  const rows = tokenBatchRows(t);
  const T = t.maxNewTokens;
  const out = new Float64Array(rows);
  for (let r = 0; r < rows; r++) {
    let s = 0;
    let n = 0;
    for (let j = r * T; j < (r + 1) * T; j++) {
      if (t.mask[j] !== 0) {
        s += t.values[j];
        n++;
      }
    }
    out[r] = n > 0 ? s / n : 0;
  }
  return out;
}

/** Mean over ALL masked tokens of the batch (token-weighted); 0 if no token is masked in. */
export function maskedMean(t: TokenBatch): number {
  tokenBatchRows(t);
  let s = 0;
  let n = 0;
  for (let j = 0; j < t.values.length; j++) {
    if (t.mask[j] !== 0) {
      s += t.values[j];
      n++;
    }
  }
  return n > 0 ? s / n : 0;
}

/** Numerically stable log(sum(exp(z_i / temperature))). */
export function logSumExp(z: ArrayLike<number>, temperature = 1): number {
  let m = -Infinity;
  for (let i = 0; i < z.length; i++) m = Math.max(m, z[i] / temperature);
  if (m === -Infinity) return -Infinity;
  let s = 0;
  for (let i = 0; i < z.length; i++) s += Math.exp(z[i] / temperature - m);
  return m + Math.log(s);
}

/**
 * Self-certainty of one next-token distribution (Intuitor): KL(Uniform || p) =
 * logsumexp(z) - mean(z) - log V, with logits z divided by the sampling temperature first.
 * @param logits one row of V logits
 */
export function selfCertaintyOfLogits(logits: ArrayLike<number>, temperature = 1): number {
  const V = logits.length;
  let s = 0;
  for (let i = 0; i < V; i++) s += logits[i] / temperature;
  return logSumExp(logits, temperature) - s / V - Math.log(V);
}

/**
 * Entropy H(p) (nats) of one next-token distribution p = softmax(z / temperature).
 * @param logits one row of V logits
 */
export function entropyOfLogits(logits: ArrayLike<number>, temperature = 1): number {
  const lse = logSumExp(logits, temperature);
  let h = 0;
  for (let i = 0; i < logits.length; i++) {
    const lp = logits[i] / temperature - lse;
    const p = Math.exp(lp);
    if (p > 0) h -= p * lp;
  }
  return h;
}
