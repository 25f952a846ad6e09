// Layer normalisation over the last dimension, CPU twin of shaders/layernorm.wgsl.
// Follows karpathy/llm.c train_gpt2.c layernorm_forward/backward (eps 1e-5, biased variance).
import type { Floats } from './types';

const EPS = 1e-5;

/**
 * out[n,:] = (inp[n,:] - mean[n]) * rstd[n] * weight + bias, with mean and rstd = 1/sqrt(var + eps)
 * of row n saved for the backward pass. out, inp (N, C); weight, bias (C); mean, rstd (N).
 */
export function layernormForward(
  out: Floats,
  mean: Floats,
  rstd: Floats,
  inp: Floats,
  weight: Floats,
  bias: Floats,
  N: number,
  C: number,
): void {
  for (let n = 0; n < N; n++) {
    const x = n * C; // row offset into inp/out
    let m = 0;
    for (let i = 0; i < C; i++) m += inp[x + i];
    m /= C;
    let v = 0;
    for (let i = 0; i < C; i++) {
      const d = inp[x + i] - m;
      v += d * d;
    }
    v /= C;
    const s = 1 / Math.sqrt(v + EPS);
    for (let i = 0; i < C; i++) {
      const norm = (inp[x + i] - m) * s;
      out[x + i] = norm * weight[i] + bias[i];
    }
    mean[n] = m;
    rstd[n] = s;
  }
}

/**
 * Accumulates the layernorm gradients: dinp (N, C), dweight (C), dbias (C) += from dout (N, C),
 * using the mean and rstd (N) saved by the forward pass.
 */
export function layernormBackward(
  dinp: Floats,
  dweight: Floats,
  dbias: Floats,
  dout: Floats,
  inp: Floats,
  weight: Floats,
  mean: Floats,
  rstd: Floats,
  N: number,
  C: number,
): void {
  for (let n = 0; n < N; n++) {
    const x = n * C;
    const m = mean[n];
    const s = rstd[n];
    // two reductions of the row: mean(dnorm) and mean(dnorm * norm)
    let dnormMean = 0;
    let dnormNormMean = 0;
    for (let i = 0; i < C; i++) {
      const norm = (inp[x + i] - m) * s;
      const dnorm = weight[i] * dout[x + i];
      dnormMean += dnorm;
      dnormNormMean += dnorm * norm;
    }
    dnormMean /= C;
    dnormNormMean /= C;
    for (let i = 0; i < C; i++) {
      const norm = (inp[x + i] - m) * s;
      const dnorm = weight[i] * dout[x + i];
      dbias[i] += dout[x + i];
      dweight[i] += norm * dout[x + i];
      dinp[x + i] += (dnorm - dnormMean - norm * dnormNormMean) * s;
    }
  }
}
