// CPU twin of shaders/optim.wgsl: squared L2 norm (for global gradient-norm clipping) and AdamW
// with decoupled weight decay (Loshchilov & Hutter 2019; llm.c adamw_cpu), bias-corrected.
import type { AdamWParams } from '../ops/declare';
import type { Floats } from './types';

/** out[0] = sum_i inp[i]^2 over i < N. out (1); inp (N). */
export function sumSquares(out: Floats, inp: Floats, N: number): void {
  let s = 0;
  for (let i = 0; i < N; i++) s += inp[i] * inp[i];
  out[0] = s;
}

/**
 * One AdamW step on N elements, in place on params, m and v (all (N)). If normSq (1) is given,
 * gradients are first scaled by min(1, maxNorm / (sqrt(normSq[0]) + 1e-6)).
 */
export function adamw(
  params: Floats,
  grads: Floats,
  m: Floats,
  v: Floats,
  normSq: Floats | null,
  maxNorm: number,
  N: number,
  hp: AdamWParams,
): void {
  const scale = normSq ? Math.min(1, maxNorm / (Math.sqrt(normSq[0]) + 1e-6)) : 1;
  const bc1 = 1 - Math.pow(hp.beta1, hp.step); // bias corrections
  const bc2 = 1 - Math.pow(hp.beta2, hp.step);
  for (let i = 0; i < N; i++) {
    const g = grads[i] * scale;
    const mi = hp.beta1 * m[i] + (1 - hp.beta1) * g;
    const vi = hp.beta2 * v[i] + (1 - hp.beta2) * g * g;
    m[i] = mi;
    v[i] = vi;
    const mhat = mi / bc1;
    const vhat = vi / bc2;
    params[i] -= hp.lr * (mhat / (Math.sqrt(vhat) + hp.eps) + hp.weightDecay * params[i]);
  }
}
