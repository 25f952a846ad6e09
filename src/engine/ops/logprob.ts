// Ops of log-probabilities, entropy, losses and sampling. CPU kernels: src/engine/cpu/logprob.ts, cpu/sample.ts.
import { declareOp } from './declare';
import * as lp from '../cpu/logprob';
import * as smp from '../cpu/sample';

/**
 * Per row n of logits (N,V), with z = logits[n]/temperature and p = softmax(z):
 * logp[n] = log p[targets[n]], entropy[n] = -sum p log p,
 * certainty[n] = logsumexp(z) - mean(z) - log V (self-certainty, KL(Uniform || p)).
 * Any of the outputs may be null.
 */
export const logprobForward = declareOp({
  args: {
    logp: 'f32|null',
    entropy: 'f32|null',
    certainty: 'f32|null',
    logits: 'f32',
    targets: 'u32',
    N: 'int',
    V: 'int',
    temperature: 'float',
  },
  cpu: (a) => lp.logprobForward(a.logp, a.entropy, a.certainty, a.logits, a.targets, a.N, a.V, a.temperature),
});

/**
 * dlogits[n,:] += weights[n] * d(logp[n])/d(logits[n,:]) = weights[n] * (onehot(target) - p) / temperature.
 * The GRPO backward entry point: weights are dLoss/dlogp per token.
 */
export const logprobBackward = declareOp({
  args: {
    dlogits: 'f32',
    logits: 'f32',
    targets: 'u32',
    weights: 'f32',
    N: 'int',
    V: 'int',
    temperature: 'float',
  },
  cpu: (a) => lp.logprobBackward(a.dlogits, a.logits, a.targets, a.weights, a.N, a.V, a.temperature),
});

/** losses[n] = -log softmax(logits[n])[targets[n]]. */
export const crossEntropyForward = declareOp({
  args: { losses: 'f32', logits: 'f32', targets: 'u32', N: 'int', V: 'int' },
  cpu: (a) => lp.crossEntropyForward(a.losses, a.logits, a.targets, a.N, a.V),
});

/** dlogits[n,:] += dlosses[n] * (softmax(logits[n]) - onehot(targets[n])). */
export const crossEntropyBackward = declareOp({
  args: { dlogits: 'f32', logits: 'f32', targets: 'u32', dlosses: 'f32', N: 'int', V: 'int' },
  cpu: (a) => lp.crossEntropyBackward(a.dlogits, a.logits, a.targets, a.dlosses, a.N, a.V),
});

/**
 * For each row r of logits (rows,V): temperature <= 0 → argmax (ties to the lowest id);
 * else draw from softmax(logits/temperature) by inverse CDF with u = uniform01(seed, counter, r)
 * (src/engine/random.ts). Writes out[r*outStride + outOffset] (u32). With `logp`, the same pass also
 * writes logp[logpOffset + r] = log softmax(logits[r] / T')[token], T' = temperature (1 when greedy):
 * sampling and its log-prob in one dispatch.
 */
export const sampleTokens = declareOp({
  args: {
    out: 'u32',
    logits: 'f32',
    rows: 'int',
    V: 'int',
    temperature: 'float',
    seed: 'int',
    counter: 'int',
    outStride: 'int',
    outOffset: 'int',
    logp: 'f32?',
    logpOffset: 'int?',
  },
  cpu: (a) =>
    smp.sampleTokens(
      a.out,
      a.logits,
      a.rows,
      a.V,
      a.temperature,
      a.seed,
      a.counter,
      a.outStride,
      a.outOffset,
      a.logp,
      a.logpOffset ?? 0,
    ),
});
