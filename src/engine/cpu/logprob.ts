// CPU twin of shaders/logprob.wgsl: temperature log-softmax per row, giving log-probs of targets,
// entropy, self-certainty (Kang et al. 2025, KL(U || p)) and cross-entropy, with their backward
// passes. Follows llm.c's crossentropy_forward / crossentropy_softmax_backward, max-subtracted.
import type { Floats } from './types';

/**
 * Per row n of logits (N, V), with z = logits[n] / temperature and p = softmax(z):
 * logp[n] = log p[targets[n]], entropy[n] = -sum_i p_i log p_i,
 * certainty[n] = logsumexp(z) - mean(z) - log V. Null outputs are skipped.
 */
export function logprobForward(
  logp: Floats | null,
  entropy: Floats | null,
  certainty: Floats | null,
  logits: Floats,
  targets: Uint32Array,
  N: number,
  V: number,
  temperature: number,
): void {
  for (let n = 0; n < N; n++) {
    const row = n * V; // logits[n] starts here, (V)
    let maxz = -Infinity;
    for (let i = 0; i < V; i++) maxz = Math.max(maxz, logits[row + i] / temperature);
    // sums relative to the max: s = sum e^(z-max), zs = sum (z-max), ezs = sum e^(z-max) (z-max)
    let s = 0;
    let zs = 0;
    let ezs = 0;
    for (let i = 0; i < V; i++) {
      const d = logits[row + i] / temperature - maxz;
      const e = Math.exp(d);
      s += e;
      zs += d;
      ezs += e * d;
    }
    const logs = Math.log(s); // logsumexp(z) - max
    if (logp) logp[n] = logits[row + targets[n]] / temperature - maxz - logs;
    if (entropy) entropy[n] = logs - ezs / s; // -sum p (z - lse)
    if (certainty) certainty[n] = logs - zs / V - Math.log(V);
  }
}

/**
 * dlogits[n, i] += weights[n] * (onehot(targets[n])_i - p_i) / temperature, p = softmax(logits[n] / T).
 * dlogits, logits (N, V); targets, weights (N).
 */
export function logprobBackward(
  dlogits: Floats,
  logits: Floats,
  targets: Uint32Array,
  weights: Floats,
  N: number,
  V: number,
  temperature: number,
): void {
  for (let n = 0; n < N; n++) {
    const row = n * V;
    let maxz = -Infinity;
    for (let i = 0; i < V; i++) maxz = Math.max(maxz, logits[row + i] / temperature);
    let s = 0;
    for (let i = 0; i < V; i++) s += Math.exp(logits[row + i] / temperature - maxz);
    const w = weights[n];
    for (let i = 0; i < V; i++) {
      const p = Math.exp(logits[row + i] / temperature - maxz) / s;
      const onehot = i === targets[n] ? 1 : 0;
      dlogits[row + i] += (w * (onehot - p)) / temperature;
    }
  }
}

/** losses[n] = -log softmax(logits[n])[targets[n]]. losses (N); logits (N, V). */
export function crossEntropyForward(
  losses: Floats,
  logits: Floats,
  targets: Uint32Array,
  N: number,
  V: number,
): void {
  for (let n = 0; n < N; n++) {
    const row = n * V;
    let maxz = -Infinity;
    for (let i = 0; i < V; i++) maxz = Math.max(maxz, logits[row + i]);
    let s = 0;
    for (let i = 0; i < V; i++) s += Math.exp(logits[row + i] - maxz);
    losses[n] = Math.log(s) - (logits[row + targets[n]] - maxz);
  }
}

/** dlogits[n, i] += dlosses[n] * (softmax(logits[n])_i - onehot(targets[n])_i). dlogits, logits (N, V). */
export function crossEntropyBackward(
  dlogits: Floats,
  logits: Floats,
  targets: Uint32Array,
  dlosses: Floats,
  N: number,
  V: number,
): void {
  for (let n = 0; n < N; n++) {
    const row = n * V;
    let maxz = -Infinity;
    for (let i = 0; i < V; i++) maxz = Math.max(maxz, logits[row + i]);
    let s = 0;
    for (let i = 0; i < V; i++) s += Math.exp(logits[row + i] - maxz);
    const dl = dlosses[n];
    for (let i = 0; i < V; i++) {
      const p = Math.exp(logits[row + i] - maxz) / s;
      const onehot = i === targets[n] ? 1 : 0;
      dlogits[row + i] += dl * (p - onehot);
    }
  }
}
