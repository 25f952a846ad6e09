// The Backend interface: every tensor op the model and trainer use, implemented by the CPU
// reference backend (plain loops) and the WebGPU backend (WGSL kernels). Conventions follow
// karpathy/llm.c: arguments are outputs first, then inputs, then sizes; all tensors are flat,
// row-major float32 (or uint32 for token ids); backward ops ACCUMULATE (+=) into every gradient
// they write, so callers zero gradient buffers before a backward pass.
import type { DecodeOps } from './decode';
import type { DType, Tensor } from './tensor';
import { shapeSize } from '../util/shape';

/** Views must start at a multiple of this many elements (256 bytes: WebGPU's binding alignment). */
export const VIEW_ALIGN = 64;

/** The element count of a view of `shape` at `offset` into `base`, or the error a Backend's `view` throws. */
export function checkedViewSize(base: Tensor, offset: number, shape: readonly number[]): number {
  const n = shapeSize(shape);
  if (offset % VIEW_ALIGN !== 0) throw new Error(`view offset ${offset} is not a multiple of ${VIEW_ALIGN}`);
  if (offset + n > base.size)
    throw new Error(`view [${offset}, ${offset + n}) exceeds ${base.label} (${base.size})`);
  return n;
}

/** The error a Backend's `write` throws when `data` does not fill `t` exactly. */
export function checkWrite(t: Tensor, data: Float32Array | Uint32Array): void {
  if (data.length !== t.size)
    throw new Error(`write to ${t.label}: ${data.length} values for ${t.size} elements`);
}

/**
 * Work recorded on a backend whose result needs tensors read back: `tensors` to read, and `finish` to
 * build the result from their values (in order). Lets callers batch many results into one readback.
 */
export interface Pending<T> {
  readonly tensors: readonly Tensor[];
  finish(values: (Float32Array | Uint32Array)[]): T;
}

/** Resolve pending results with ONE readback of all their tensors (none when no tensor is needed). */
export async function resolvePending<T>(backend: Backend, pending: readonly Pending<T>[]): Promise<T[]> {
  const all = pending.flatMap((p) => p.tensors);
  const values = all.length > 0 ? await backend.readMany(all) : [];
  let i = 0;
  return pending.map((p) => {
    const mine = values.slice(i, i + p.tensors.length);
    i += p.tensors.length;
    return p.finish(mine);
  });
}

/** Hyperparameters of one AdamW step (decoupled weight decay, as in Loshchilov & Hutter). */
export interface AdamWParams {
  lr: number;
  beta1: number;
  beta2: number;
  eps: number;
  weightDecay: number;
  /** 1-based step count, used for bias correction. */
  step: number;
}

/** What a backend says about where it runs (shown in the UI and printed by tests/benchmarks). */
export interface BackendInfo {
  name: 'cpu' | 'webgpu' | 'wasm';
  /** e.g. "google swiftshader" or "nvidia hopper", or "JavaScript (Node 20)". */
  adapter: string;
  /** Optional-feature flags the backend uses (e.g. 'timestamp-query', 'subgroups'). */
  features: string[];
  /** WebGPU only: the adapter is a software one (SwiftShader, or marked as a fallback adapter). */
  software?: boolean;
  /** wasm only: the kernel variant, 'simd' or 'relaxed' (fused multiply-add; src/engine/wasm/kernels.ts). */
  kernels?: 'simd' | 'relaxed';
}

/**
 * The engine's id where results must compare like with like (cache keys, cell ids, byte-identity checks):
 * the backend's name, with the wasm kernel variant when it is not the plain one ('wasm-relaxed').
 */
export const engineId = (info: BackendInfo): string =>
  info.name === 'wasm' && info.kernels === 'relaxed' ? 'wasm-relaxed' : info.name;

/** Counters every backend keeps so benchmarks and tests can check dispatch/readback/alloc budgets. */
export interface BackendCounters {
  dispatches: number;
  readbacks: number;
  /** Fresh storage allocations (pool misses on WebGPU). */
  allocations: number;
  /** Bytes currently held by live tensors plus pooled free buffers. */
  bytesHeld: number;
  /** Compute pipelines created (WebGPU: one per kernel, by prepare() or at its first dispatch; CPU: 0). */
  pipelines: number;
}

/** Every op; the fused decode ops (src/engine/decode.ts) are optional (generate falls back to the unfused ones). */
export interface Backend extends Partial<DecodeOps> {
  readonly info: BackendInfo;
  readonly counters: BackendCounters;
  /**
   * Compile every kernel's pipeline ahead of its first dispatch (WebGPU; the CPU backend has none).
   * Resolves to the kernel count and wall time; rejects naming a kernel that fails to compile.
   */
  prepare?(): Promise<{ kernels: number; ms: number }>;

  // ---- memory --------------------------------------------------------------------------------
  /** A new tensor of the given shape; contents are unspecified (poison-test friendly). */
  alloc(shape: readonly number[], dtype?: DType, label?: string): Tensor;
  /** A view of `base` starting at element `offset` (multiple of VIEW_ALIGN) with `shape`. */
  view(base: Tensor, offset: number, shape: readonly number[], label?: string): Tensor;
  /** Copy host data into a tensor (data.length must equal t.size). */
  write(t: Tensor, data: Float32Array | Uint32Array): void;
  /** Read a tensor back to the host; resolves after all queued work that writes it. */
  read(t: Tensor): Promise<Float32Array | Uint32Array>;
  /**
   * Read several tensors back in ONE readback (one staging buffer, one map on WebGPU; counted once):
   * result i holds tensors[i]'s values (Float32Array or Uint32Array by its dtype).
   */
  readMany(tensors: readonly Tensor[]): Promise<(Float32Array | Uint32Array)[]>;
  /** Set every element to `value`. */
  fill(t: Tensor, value: number): void;
  /** dst[dstOffset + i] = src[srcOffset + i] for i < n (elements; same dtype). */
  copy(dst: Tensor, src: Tensor, n: number, dstOffset?: number, srcOffset?: number): void;
  /** Return a tensor's storage to the backend (views free nothing). */
  free(t: Tensor): void;
  /** Submit queued work and wait for it to finish. */
  sync(): Promise<void>;
  /** Release everything the backend holds. */
  destroy(): void;

  // ---- embedding -----------------------------------------------------------------------------
  /**
   * out[b,t,:] = wte[tok] + (wpe ? wpe[pos0+t] : 0), tok = tokens[b*tokStride + pos0 + t].
   * out (B,T,C); wte (V,C); wpe (maxT,C) or null (rotary positions); tokens u32 (B,tokStride).
   */
  encoderForward(
    out: Tensor,
    wte: Tensor,
    wpe: Tensor | null,
    tokens: Tensor,
    B: number,
    T: number,
    C: number,
    tokStride: number,
    pos0: number,
  ): void;
  /** dwte[tok] += dout[b,t]; dwpe[pos0+t] += dout[b,t] (if wpe). Same indexing as forward. */
  encoderBackward(
    dwte: Tensor,
    dwpe: Tensor | null,
    dout: Tensor,
    tokens: Tensor,
    B: number,
    T: number,
    C: number,
    tokStride: number,
    pos0: number,
  ): void;

  // ---- rotary positions (RoPE) on the q and k parts of qkv -----------------------------------
  /**
   * out = rope(inp): inp/out (B,T,3C) laid out [q | k | v], heads of size hs = C/NH.
   * Within each head, pairs (2i, 2i+1) of q and k rotate by angle (pos0+t) * 10000^(-2i/hs);
   * v is copied unchanged.
   */
  ropeForward(out: Tensor, inp: Tensor, B: number, T: number, C: number, NH: number, pos0: number): void;
  /** dinp += rope^T(dout) (the inverse rotation on q and k; identity on v). */
  ropeBackward(dinp: Tensor, dout: Tensor, B: number, T: number, C: number, NH: number, pos0: number): void;

  // ---- matmul --------------------------------------------------------------------------------
  /** out[n,o] = (bias ? bias[o] : 0) + sum_c inp[n,c] * weight[o,c]. out (N,OC); inp (N,C); weight (OC,C). */
  matmulForward(
    out: Tensor,
    inp: Tensor,
    weight: Tensor,
    bias: Tensor | null,
    N: number,
    C: number,
    OC: number,
  ): void;
  /**
   * dinp += dout @ weight (skipped if null); dweight += dout^T @ inp; dbias += sum_n dout (if bias).
   */
  matmulBackward(
    dinp: Tensor | null,
    dweight: Tensor,
    dbias: Tensor | null,
    dout: Tensor,
    inp: Tensor,
    weight: Tensor,
    N: number,
    C: number,
    OC: number,
  ): void;

  // ---- layer norm ----------------------------------------------------------------------------
  /** out = (inp - mean) * rstd * weight + bias per row; saves mean (N) and rstd (N). eps = 1e-5. */
  layernormForward(
    out: Tensor,
    mean: Tensor,
    rstd: Tensor,
    inp: Tensor,
    weight: Tensor,
    bias: Tensor,
    N: number,
    C: number,
  ): void;
  layernormBackward(
    dinp: Tensor,
    dweight: Tensor,
    dbias: Tensor,
    dout: Tensor,
    inp: Tensor,
    weight: Tensor,
    mean: Tensor,
    rstd: Tensor,
    N: number,
    C: number,
  ): void;

  // ---- causal multi-head self-attention ------------------------------------------------------
  /**
   * qkv (B,T,3C) → out (B,T,C); att (B,NH,T,T) keeps the softmax probabilities (zero above the
   * diagonal), used by backward and by the attention heatmap. Scale 1/sqrt(hs).
   */
  attentionForward(out: Tensor, att: Tensor, qkv: Tensor, B: number, T: number, C: number, NH: number): void;
  /** dqkv += gradient of attentionForward w.r.t. qkv. */
  attentionBackward(
    dqkv: Tensor,
    dout: Tensor,
    qkv: Tensor,
    att: Tensor,
    B: number,
    T: number,
    C: number,
    NH: number,
  ): void;
  /**
   * Key/value cache: kcache[b, pos0+t, :] = k part of qkv[b,t]; vcache likewise.
   * qkv (B,T,3C); caches (B,Tmax,C).
   */
  kvCacheWrite(
    kcache: Tensor,
    vcache: Tensor,
    qkv: Tensor,
    B: number,
    T: number,
    pos0: number,
    Tmax: number,
    C: number,
  ): void;
  /**
   * Attention of T new queries (at absolute positions pos0..pos0+T-1, q part of qkv (B,T,3C))
   * over cached keys/values 0..pos0+t (causal). out (B,T,C). Call kvCacheWrite first.
   */
  attentionCached(
    out: Tensor,
    qkv: Tensor,
    kcache: Tensor,
    vcache: Tensor,
    B: number,
    T: number,
    pos0: number,
    Tmax: number,
    C: number,
    NH: number,
  ): void;

  // ---- elementwise ---------------------------------------------------------------------------
  /** GELU, tanh approximation (GPT-2). */
  geluForward(out: Tensor, inp: Tensor, N: number): void;
  geluBackward(dinp: Tensor, inp: Tensor, dout: Tensor, N: number): void;
  /** out = a + b. */
  residualForward(out: Tensor, a: Tensor, b: Tensor, N: number): void;
  /** da += dout; db += dout. */
  residualBackward(da: Tensor, db: Tensor, dout: Tensor, N: number): void;

  // ---- log-probabilities, entropy, losses ----------------------------------------------------
  /**
   * Per row n of logits (N,V), with z = logits[n]/temperature and p = softmax(z):
   * logp[n] = log p[targets[n]], entropy[n] = -sum p log p,
   * certainty[n] = logsumexp(z) - mean(z) - log V (self-certainty, KL(Uniform || p)).
   * Any of the outputs may be null.
   */
  logprobForward(
    logp: Tensor | null,
    entropy: Tensor | null,
    certainty: Tensor | null,
    logits: Tensor,
    targets: Tensor,
    N: number,
    V: number,
    temperature: number,
  ): void;
  /**
   * dlogits[n,:] += weights[n] * d(logp[n])/d(logits[n,:]) = weights[n] * (onehot(target) - p) / temperature.
   * The GRPO backward entry point: weights are dLoss/dlogp per token.
   */
  logprobBackward(
    dlogits: Tensor,
    logits: Tensor,
    targets: Tensor,
    weights: Tensor,
    N: number,
    V: number,
    temperature: number,
  ): void;
  /** losses[n] = -log softmax(logits[n])[targets[n]]. */
  crossEntropyForward(losses: Tensor, logits: Tensor, targets: Tensor, N: number, V: number): void;
  /** dlogits[n,:] += dlosses[n] * (softmax(logits[n]) - onehot(targets[n])). */
  crossEntropyBackward(
    dlogits: Tensor,
    logits: Tensor,
    targets: Tensor,
    dlosses: Tensor,
    N: number,
    V: number,
  ): void;

  // ---- sampling ------------------------------------------------------------------------------
  /**
   * For each row r of logits (rows,V): temperature <= 0 → argmax (ties to the lowest id);
   * else draw from softmax(logits/temperature) by inverse CDF with u = uniform01(seed, counter, r)
   * (src/engine/random.ts). Writes out[r*outStride + outOffset] (u32). With `logp`, the same pass also
   * writes logp[logpOffset + r] = log softmax(logits[r] / T')[token], T' = temperature (1 when greedy):
   * sampling and its log-prob in one dispatch.
   */
  sampleTokens(
    out: Tensor,
    logits: Tensor,
    rows: number,
    V: number,
    temperature: number,
    seed: number,
    counter: number,
    outStride: number,
    outOffset: number,
    logp?: Tensor | null,
    logpOffset?: number,
  ): void;

  // ---- optimizer -----------------------------------------------------------------------------
  /** out[0] = sum_i inp[i]^2 by a deterministic reduction (a fixed f32 order on WebGPU: lanes then a tree; float64 on the CPU). out (1). */
  sumSquares(out: Tensor, inp: Tensor, N: number): void;
  /**
   * AdamW on N elements. If normSq is given (a 1-element tensor holding the global squared
   * gradient norm), gradients are scaled by min(1, maxNorm / (sqrt(normSq) + 1e-6)) first.
   * m = b1 m + (1-b1) g; v = b2 v + (1-b2) g^2; mhat = m/(1-b1^t); vhat = v/(1-b2^t);
   * param -= lr * (mhat / (sqrt(vhat) + eps) + weightDecay * param).
   */
  adamw(
    params: Tensor,
    grads: Tensor,
    m: Tensor,
    v: Tensor,
    normSq: Tensor | null,
    maxNorm: number,
    N: number,
    hp: AdamWParams,
  ): void;
}
