// The peer the benchmark compares against: TensorFlow.js on its WebGPU backend, in the same page on
// the same adapter. It runs the same matmul shapes (tf.fused.matMul with transposeB and the bias
// fused in the same kernel, as ours) and the same tiny GPT supervised step (embeddings, causal
// multi-head attention with RoPE or learned positions, layer norm, GELU (tanh) MLP, head tied to
// the token embedding, masked mean cross-entropy, backward by autodiff, Adam from tf.train.adam).
// A dev dependency used only by src/bench (the app never imports this file).
import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-core/dist/register_all_gradients';
import '@tensorflow/tfjs-backend-webgpu';
import type { GPTConfig } from '../model/config';
import { type BenchPlan, type MatmulShape, matmulInputs, median, timeMs } from './benchSuite';

/** Start TF.js on WebGPU; returns its version and whether its device writes timestamps. */
export async function startTf(): Promise<{ version: string; backend: string; timestamps: boolean }> {
  const ok = await tf.setBackend('webgpu');
  if (!ok) throw new Error('TensorFlow.js could not start its WebGPU backend');
  await tf.ready();
  const be = tf.backend() as unknown as { device: GPUDevice };
  return {
    version: tf.version_core,
    backend: tf.getBackend(),
    timestamps: be.device.features.has('timestamp-query'),
  };
}

/** GPU milliseconds of the kernels `f` dispatches (tf.time: one timestamped pass per kernel). */
async function kernelMs(f: () => void): Promise<{ ms: number; kernels: number }> {
  const info = (await tf.time(f)) as tf.TimingInfo & { getExtraProfileInfo?: () => string };
  const extra = info.getExtraProfileInfo?.() ?? '';
  return { ms: info.kernelMs as number, kernels: extra ? extra.split(', ').length : 0 };
}

export interface PeerMatmul {
  /** Wall-clock ms per matmul: reps back to back, then the last output read back (NaN in 'gpu' mode). */
  wallMs: number;
  /** GPU ms per matmul from timestamp queries (null in 'wall' mode). */
  gpuMs: number | null;
  /** Kernels TF dispatches per matmul (null in 'wall' mode). */
  kernels: number | null;
  /** The last output ('wall' mode). */
  out: Float32Array;
}

/**
 * TF.js at one matmul shape: out = inp @ weight^T + bias with the bias fused. Mode 'wall' times
 * reps matmuls then a read back of the last output; 'gpu' sums the kernels' timestamps (tf.time).
 */
export async function tfMatmul(s: MatmulShape, plan: BenchPlan, mode: 'wall' | 'gpu'): Promise<PeerMatmul> {
  const d = matmulInputs(s);
  const a = tf.tensor2d(d.inp, [s.N, s.C]);
  const w = tf.tensor2d(d.weight, [s.OC, s.C]);
  const b = d.bias ? tf.tensor1d(d.bias) : undefined;
  const op = (): tf.Tensor => tf.fused.matMul({ a, b: w, transposeB: true, bias: b });
  let last: tf.Tensor | null = null;
  let out = new Float32Array(0);
  try {
    if (mode === 'gpu') {
      const per: number[] = [];
      let kernels = 0;
      for (let i = 0; i < plan.warmup + plan.samples; i++) {
        const k = await kernelMs(() => {
          for (let r = 0; r < plan.matmulReps; r++) op().dispose();
        });
        if (i >= plan.warmup) per.push(k.ms / plan.matmulReps);
        kernels = k.kernels / plan.matmulReps;
      }
      return { wallMs: NaN, gpuMs: median(per), kernels, out };
    }
    const wallMs = await timeMs(
      () => {
        last?.dispose();
        last = op();
      },
      async () => {
        if (last) {
          out = Float32Array.from(await last.data());
          last.dispose();
          last = null;
        }
      },
      plan.matmulReps,
      plan.samples,
      plan.warmup,
    );
    return { wallMs, gpuMs: null, kernels: null, out };
  } finally {
    (last as tf.Tensor | null)?.dispose();
    for (const t of [a, w, b]) t?.dispose();
  }
}

/** One block's variables. */
interface TfBlock {
  ln1w: tf.Variable;
  ln1b: tf.Variable;
  qkvw: tf.Variable;
  qkvb: tf.Variable;
  attprojw: tf.Variable;
  attprojb: tf.Variable;
  ln2w: tf.Variable;
  ln2b: tf.Variable;
  fcw: tf.Variable;
  fcb: tf.Variable;
  fcprojw: tf.Variable;
  fcprojb: tf.Variable;
}

const GELU_SCALE = Math.sqrt(2 / Math.PI);

/** The tiny GPT of `cfg` in TF.js, trained by `step` on (B, T+1) token rows with a loss mask. */
export class TfGpt {
  private readonly wte: tf.Variable;
  private readonly wpe: tf.Variable | null;
  private readonly blocks: TfBlock[] = [];
  private readonly lnfw: tf.Variable;
  private readonly lnfb: tf.Variable;
  private readonly vars: tf.Variable[] = [];
  private readonly optimizer: tf.AdamOptimizer;
  /** Causal mask (T, T): 0 on and below the diagonal, -1e9 above. */
  private readonly causal: tf.Tensor2D;
  /** RoPE tables (T, hs/2, 1), or null for learned positions. */
  private readonly rope: { cos: tf.Tensor; sin: tf.Tensor } | null;
  private readonly posIdx: tf.Tensor1D;

  constructor(
    readonly cfg: GPTConfig,
    readonly B: number,
    readonly T: number,
    lr: number,
    beta1: number,
    beta2: number,
    eps: number,
  ) {
    const { nEmbd: C, vocabSize: V, nLayer: L } = cfg;
    const H = cfg.mlpRatio * C;
    const hs = C / cfg.nHead;
    let seed = cfg.seed;
    const v = (shape: number[], init: 'normal' | 'ones' | 'zeros', std = 0.02): tf.Variable => {
      const t =
        init === 'normal'
          ? tf.randomNormal(shape, 0, std, 'float32', seed++)
          : init === 'ones'
            ? tf.ones(shape)
            : tf.zeros(shape);
      const x = tf.variable(t);
      t.dispose();
      this.vars.push(x);
      return x;
    };
    const resStd = 0.02 / Math.sqrt(2 * L);
    this.wte = v([V, C], 'normal');
    this.wpe = cfg.pos === 'learned' ? v([cfg.blockSize, C], 'normal') : null;
    for (let l = 0; l < L; l++) {
      this.blocks.push({
        ln1w: v([C], 'ones'),
        ln1b: v([C], 'zeros'),
        qkvw: v([3 * C, C], 'normal'),
        qkvb: v([3 * C], 'zeros'),
        attprojw: v([C, C], 'normal', resStd),
        attprojb: v([C], 'zeros'),
        ln2w: v([C], 'ones'),
        ln2b: v([C], 'zeros'),
        fcw: v([H, C], 'normal'),
        fcb: v([H], 'zeros'),
        fcprojw: v([C, H], 'normal', resStd),
        fcprojb: v([C], 'zeros'),
      });
    }
    this.lnfw = v([C], 'ones');
    this.lnfb = v([C], 'zeros');
    this.optimizer = tf.train.adam(lr, beta1, beta2, eps);
    const mask = new Float32Array(T * T);
    for (let i = 0; i < T; i++) for (let j = i + 1; j < T; j++) mask[i * T + j] = -1e9;
    this.causal = tf.tensor2d(mask, [T, T]);
    if (cfg.pos === 'rope') {
      // the angles of src/engine/cpu/rope.ts: pair i of position t turns by t * theta^i, theta = 10000^(-2/hs)
      const half = hs / 2;
      const theta = Math.fround(Math.pow(10000, -2 / hs));
      const cos = new Float32Array(T * half);
      const sin = new Float32Array(T * half);
      for (let t = 0; t < T; t++) {
        let f = 1;
        for (let i = 0; i < half; i++) {
          const ang = Math.fround(t * f);
          cos[t * half + i] = Math.cos(ang);
          sin[t * half + i] = Math.sin(ang);
          f = Math.fround(f * theta);
        }
      }
      this.rope = { cos: tf.tensor3d(cos, [T, half, 1]), sin: tf.tensor3d(sin, [T, half, 1]) };
    } else {
      this.rope = null;
    }
    const pos = new Int32Array(B * T);
    for (let i = 0; i < pos.length; i++) pos[i] = i % T;
    this.posIdx = tf.tensor1d(pos, 'int32');
  }

  /** Number of trainable parameters. */
  get paramCount(): number {
    return this.vars.reduce((s, x) => s + x.size, 0);
  }

  private layerNorm(x: tf.Tensor2D, w: tf.Tensor, b: tf.Tensor): tf.Tensor2D {
    const { mean, variance } = tf.moments(x, -1, true);
    return tf.add(tf.mul(tf.mul(tf.sub(x, mean), tf.rsqrt(tf.add(variance, 1e-5))), w), b);
  }

  /** (N, C) -> (B, NH, T, hs), rotated when the model uses RoPE. */
  private heads(x: tf.Tensor, rotate: boolean): tf.Tensor4D {
    const { nHead: NH, nEmbd: C } = this.cfg;
    const hs = C / NH;
    const h = tf.transpose(tf.reshape(x, [this.B, this.T, NH, hs]), [0, 2, 1, 3]) as tf.Tensor4D;
    if (!rotate || !this.rope) return h;
    const pairs = tf.reshape(h, [this.B, NH, this.T, hs / 2, 2]);
    const [x0, x1] = tf.split(pairs, 2, 4);
    const { cos, sin } = this.rope;
    const r0 = tf.sub(tf.mul(x0, cos), tf.mul(x1, sin));
    const r1 = tf.add(tf.mul(x0, sin), tf.mul(x1, cos));
    return tf.reshape(tf.concat([r0, r1], 4), [this.B, NH, this.T, hs]);
  }

  /** Masked mean next-token cross-entropy of the batch. */
  private loss(inputs: tf.Tensor1D, targets: tf.Tensor1D, weights: tf.Tensor1D): tf.Scalar {
    const { nEmbd: C, nHead: NH, vocabSize: V } = this.cfg;
    const N = this.B * this.T;
    const hs = C / NH;
    let x = tf.gather(this.wte, inputs) as tf.Tensor2D; // (N, C)
    if (this.wpe) x = tf.add(x, tf.gather(this.wpe, this.posIdx));
    for (const p of this.blocks) {
      const ln1 = this.layerNorm(x, p.ln1w, p.ln1b);
      const qkv = tf.fused.matMul({ a: ln1, b: p.qkvw, transposeB: true, bias: p.qkvb });
      const [q, k, v] = tf.split(qkv, 3, 1);
      const scores = tf.add(
        tf.mul(tf.matMul(this.heads(q, true), this.heads(k, true), false, true), 1 / Math.sqrt(hs)),
        this.causal,
      );
      const att = tf.matMul(tf.softmax(scores), this.heads(v, false));
      const y = tf.reshape(tf.transpose(att, [0, 2, 1, 3]), [N, C]) as tf.Tensor2D;
      x = tf.add(x, tf.fused.matMul({ a: y, b: p.attprojw, transposeB: true, bias: p.attprojb }));
      const ln2 = this.layerNorm(x, p.ln2w, p.ln2b);
      const h = tf.fused.matMul({ a: ln2, b: p.fcw, transposeB: true, bias: p.fcb });
      const inner = tf.mul(tf.add(h, tf.mul(tf.pow(h, 3), 0.044715)), GELU_SCALE);
      const g = tf.mul(tf.mul(h, 0.5), tf.add(tf.tanh(inner), 1)) as tf.Tensor2D;
      x = tf.add(x, tf.fused.matMul({ a: g, b: p.fcprojw, transposeB: true, bias: p.fcprojb }));
    }
    const logits = tf.matMul(this.layerNorm(x, this.lnfw, this.lnfb), this.wte, false, true); // tied head
    const logp = tf.logSoftmax(logits);
    const picked = tf.sum(tf.mul(logp, tf.oneHot(targets, V)), 1);
    return tf.neg(tf.sum(tf.mul(picked, weights))) as tf.Scalar;
  }

  /** The batch as device tensors: input and target ids (B*T) and weights mask/count. */
  private upload(
    tokens: Uint32Array,
    mask: Float32Array,
  ): { inputs: tf.Tensor1D; targets: tf.Tensor1D; weights: tf.Tensor1D } {
    const { B, T } = this;
    const inp = new Int32Array(B * T);
    const tgt = new Int32Array(B * T);
    let count = 0;
    for (let b = 0; b < B; b++) {
      for (let t = 0; t < T; t++) {
        inp[b * T + t] = tokens[b * (T + 1) + t];
        tgt[b * T + t] = tokens[b * (T + 1) + t + 1];
      }
    }
    for (const m of mask) count += m;
    const w = mask.map((m) => m / count);
    return { inputs: tf.tensor1d(inp, 'int32'), targets: tf.tensor1d(tgt, 'int32'), weights: tf.tensor1d(w) };
  }

  /** One step without waiting: upload the batch, forward, backward, Adam; returns the loss tensor. */
  stepNoSync(tokens: Uint32Array, mask: Float32Array): tf.Scalar {
    const d = this.upload(tokens, mask);
    const loss = this.optimizer.minimize(() => this.loss(d.inputs, d.targets, d.weights), true, this.vars)!;
    for (const t of Object.values(d)) t.dispose();
    return loss;
  }

  /** One step with the loss read back (the one readback of the step, as ours). */
  async step(tokens: Uint32Array, mask: Float32Array): Promise<number> {
    const loss = this.stepNoSync(tokens, mask);
    const v = (await loss.data())[0];
    loss.dispose();
    return v;
  }

  /** GPU ms and kernel count of one step's dispatches (timestamp queries). */
  async stepKernelMs(tokens: Uint32Array, mask: Float32Array): Promise<{ ms: number; kernels: number }> {
    let loss: tf.Scalar | null = null;
    const k = await kernelMs(() => {
      loss = this.stepNoSync(tokens, mask);
    });
    await (loss as tf.Scalar | null)?.data();
    (loss as tf.Scalar | null)?.dispose();
    return k;
  }

  dispose(): void {
    for (const x of this.vars) x.dispose();
    this.optimizer.dispose();
    for (const t of [this.causal, this.posIdx, this.rope?.cos, this.rope?.sin]) t?.dispose();
  }
}

/** Median wall-clock ms of TF's step over `samples` (each `reps` steps, each awaiting its loss). */
export async function timeTfStep(
  m: TfGpt,
  tokens: Uint32Array,
  mask: Float32Array,
  plan: BenchPlan,
): Promise<number> {
  return timeMs(
    () => m.step(tokens, mask),
    async () => {},
    plan.sftReps,
    plan.samples,
    plan.warmup,
  );
}
