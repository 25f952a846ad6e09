// Supervised fine-tuning / pretraining loop: next-token cross-entropy on completion tokens only
// (prompt and padding targets get weight 0), mean over the counted tokens, AdamW with global-norm
// clipping, cosine learning-rate schedule with linear warmup (as in nanoGPT train.py). Runs on any
// backend; the only readback per step is the loss (and the gradient norm, packed with it).
import type { AdamWParams } from '../engine/backend';
import type { Tensor } from '../engine/tensor';
import type { GPT } from './gpt';

/** One fixed-length batch: rows of T+1 tokens; inputs are columns 0..T-1, targets 1..T. */
export interface SFTBatch {
  B: number;
  /** Input positions per row (sequence length - 1). */
  T: number;
  /** u32 (B, T+1) token rows. */
  tokens: Uint32Array;
  /** (B, T): 1 where the target tokens[b, t+1] is trained on, 0 where it is masked (prompt, padding). */
  mask: Float32Array;
}

/** Supplies the batch of each step. */
export type SFTBatchSource = (step: number) => SFTBatch;

export interface SFTOptions {
  /** Number of optimizer steps. */
  steps: number;
  /** Peak learning rate. */
  lr: number;
  /** Linear warmup steps (default 0). */
  warmupSteps?: number;
  /** Final learning rate as a fraction of lr after cosine decay (default 0.1; 1 = constant). */
  minLrFrac?: number;
  beta1?: number; // default 0.9
  beta2?: number; // default 0.99
  eps?: number; // default 1e-8
  /** Decoupled weight decay, applied to the whole flat buffer (default 0). */
  weightDecay?: number;
  /** Global gradient-norm clip (default 1; 0 = no clipping). */
  maxNorm?: number;
  /** AdamW steps already taken by this model's optimizer (bias correction continues; default 0). */
  stepOffset?: number;
}

export interface SFTStepInfo {
  step: number;
  loss: number;
  lr: number;
  /** Global gradient norm before clipping (NaN when not clipping). */
  gradNorm: number;
}

/** Learning rate of step s (0-based): linear warmup, then cosine from lr to lr*minLrFrac. */
export function lrAt(s: number, o: SFTOptions): number {
  const warm = o.warmupSteps ?? 0;
  const minFrac = o.minLrFrac ?? 0.1;
  if (s < warm) return (o.lr * (s + 1)) / warm;
  const span = Math.max(1, o.steps - warm);
  const t = Math.min(1, (s - warm) / span);
  return o.lr * (minFrac + (1 - minFrac) * 0.5 * (1 + Math.cos(Math.PI * t)));
}

/**
 * A batch from (prompt, completion) id lists: each row is prompt + completion + EOS, padded with
 * EOS to `seqLen` tokens; targets are trained from the first completion token up to and including
 * the first EOS, padding is masked.
 */
export function makeSFTBatch(
  examples: readonly { prompt: readonly number[]; completion: readonly number[] }[],
  seqLen: number,
  eosId: number,
): SFTBatch {
  const B = examples.length;
  const T = seqLen - 1;
  const tokens = new Uint32Array(B * seqLen).fill(eosId);
  const mask = new Float32Array(B * T);
  examples.forEach((ex, b) => {
    const n = ex.prompt.length + ex.completion.length + 1;
    if (n > seqLen)
      throw new Error(
        `example ${b}: prompt ${ex.prompt.length} + completion ${ex.completion.length} + EOS exceeds seqLen ${seqLen}`,
      );
    if (ex.prompt.length < 1) throw new Error(`example ${b}: empty prompt`);
    tokens.set(ex.prompt, b * seqLen);
    tokens.set(ex.completion, b * seqLen + ex.prompt.length);
    // target at input position t is token t+1: count targets at token indices prompt.length .. n-1
    for (let t = ex.prompt.length - 1; t < n - 1; t++) mask[b * T + t] = 1;
  });
  return { B, T, tokens, mask };
}

/** Device buffers of the loop for one (B, T), allocated once per model and shape. */
interface Bufs {
  tokens: Tensor; // u32 (B, T+1)
  targets: Tensor; // u32 (B*T)
  dlosses: Tensor; // (B*T) mask / count
  losses: Tensor; // (B*T)
  stats: Tensor; // (2): mean loss, squared gradient norm
}
const bufCache = new WeakMap<GPT, Map<string, Bufs>>();

function buffers(model: GPT, B: number, T: number): Bufs {
  let map = bufCache.get(model);
  if (!map) bufCache.set(model, (map = new Map()));
  const key = `${B}x${T}`;
  let b = map.get(key);
  if (!b) {
    const be = model.backend;
    b = {
      tokens: be.alloc([B, T + 1], 'u32', 'sft.tokens'),
      targets: be.alloc([B * T], 'u32', 'sft.targets'),
      dlosses: be.alloc([B * T], 'f32', 'sft.dlosses'),
      losses: be.alloc([B * T], 'f32', 'sft.losses'),
      stats: be.alloc([2], 'f32', 'sft.stats'),
    };
    map.set(key, b);
  }
  return b;
}

/** Free the loop's device buffers kept for `model`. */
export function releaseSFTBuffers(model: GPT): void {
  for (const b of bufCache.get(model)?.values() ?? [])
    for (const t of Object.values(b)) model.backend.free(t);
  bufCache.delete(model);
}

/**
 * One supervised step (forward, masked mean cross-entropy, backward, clipped AdamW) with the loss and
 * the pre-clip gradient norm read back together.
 */
export async function sftStep(
  model: GPT,
  batch: SFTBatch,
  hp: AdamWParams,
  maxNorm: number,
): Promise<{ loss: number; gradNorm: number }> {
  const { B, T } = batch;
  const N = B * T;
  const V = model.cfg.vocabSize;
  const be = model.backend;
  if (batch.tokens.length !== B * (T + 1) || batch.mask.length !== N) {
    throw new Error(
      `SFT batch: tokens ${batch.tokens.length} (want B*(T+1) = ${B * (T + 1)}), mask ${batch.mask.length} (want B*T = ${N})`,
    );
  }
  const targets = new Uint32Array(N);
  let count = 0;
  for (let b = 0; b < B; b++) {
    for (let t = 0; t < T; t++) targets[b * T + t] = batch.tokens[b * (T + 1) + t + 1];
  }
  for (let i = 0; i < N; i++) count += batch.mask[i];
  if (count <= 0) throw new Error('SFT batch has no unmasked target tokens');
  const dl = new Float32Array(N);
  for (let i = 0; i < N; i++) dl[i] = batch.mask[i] / count;
  const d = buffers(model, B, T);
  be.write(d.tokens, batch.tokens);
  be.write(d.targets, targets);
  be.write(d.dlosses, dl);
  model.zeroGrad();
  const logits = model.forward(d.tokens, B, T, T + 1);
  be.crossEntropyForward({ losses: d.losses, logits, targets: d.targets, N, V });
  const dlogits = model.gradLogits();
  be.fill(dlogits, 0);
  be.crossEntropyBackward({ dlogits, logits, targets: d.targets, dlosses: d.dlosses, N, V });
  model.backward(dlogits);
  // mean masked loss = dlosses . losses, as a (1 x N) @ (N x 1) matmul on the device
  be.matmulForward({
    out: be.view(d.stats, 0, [1, 1]),
    inp: d.dlosses,
    weight: d.losses,
    bias: null,
    N: 1,
    C: N,
    OC: 1,
  });
  model.step(hp, maxNorm);
  if (maxNorm > 0) be.copy(d.stats, model.normSq, 1, 1, 0);
  const s = (await be.read(d.stats)) as Float32Array;
  return { loss: s[0], gradNorm: maxNorm > 0 ? Math.sqrt(s[1]) : NaN };
}

/**
 * Train `model` for opts.steps steps on batches from `source`; returns the loss of every step.
 * `onStep` sees each step's figures; returning false stops early.
 */
export async function trainSFT(
  model: GPT,
  source: SFTBatchSource,
  opts: SFTOptions,
  onStep?: (info: SFTStepInfo) => boolean | void,
): Promise<number[]> {
  const losses: number[] = [];
  const maxNorm = opts.maxNorm ?? 1;
  for (let s = 0; s < opts.steps; s++) {
    const lr = lrAt(s, opts);
    const hp: AdamWParams = {
      lr,
      beta1: opts.beta1 ?? 0.9,
      beta2: opts.beta2 ?? 0.99,
      eps: opts.eps ?? 1e-8,
      weightDecay: opts.weightDecay ?? 0,
      step: (opts.stepOffset ?? 0) + s + 1,
    };
    const { loss, gradNorm } = await sftStep(model, source(s), hp, maxNorm);
    losses.push(loss);
    if (onStep?.({ step: s, loss, lr, gradNorm }) === false) break;
  }
  return losses;
}
