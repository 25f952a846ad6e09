// Ops of the optimizer. CPU kernels: src/engine/cpu/optim.ts.
import { declareOp } from './declare';
import * as opt from '../cpu/optim';

/** out[0] = sum_i inp[i]^2 by a deterministic reduction (a fixed f32 order on WebGPU: lanes then a tree; float64 on the CPU). out (1). */
export const sumSquares = declareOp({
  args: { out: 'f32', inp: 'f32', N: 'int' },
  cpu: (a) => opt.sumSquares(a.out, a.inp, a.N),
});

/**
 * AdamW on N elements. If normSq is given (a 1-element tensor holding the global squared
 * gradient norm), gradients are scaled by min(1, maxNorm / (sqrt(normSq) + 1e-6)) first.
 * m = b1 m + (1-b1) g; v = b2 v + (1-b2) g^2; mhat = m/(1-b1^t); vhat = v/(1-b2^t);
 * param -= lr * (mhat / (sqrt(vhat) + eps) + weightDecay * param).
 */
export const adamw = declareOp({
  args: {
    params: 'f32',
    grads: 'f32',
    m: 'f32',
    v: 'f32',
    normSq: 'f32|null',
    maxNorm: 'float',
    N: 'int',
    hp: 'adamw',
  },
  cpu: (a) => opt.adamw(a.params, a.grads, a.m, a.v, a.normSq, a.maxNorm, a.N, a.hp),
});
