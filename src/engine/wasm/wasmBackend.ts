// The wasm backend: tensors live in the linear memory of a WebAssembly module whose 128-bit SIMD kernels
// (wasm/*.ts, AssemblyScript) run the hot ops (matmul forward and backward, attention, layer norm,
// log-softmax with entropy and cross-entropy, the squared norm and AdamW); the other ops run the CPU
// reference's code (src/engine/cpu/) on views of the same memory. Same contracts as the CPU reference
// (src/engine/backend.ts), against which every kernel is parity-tested (wasmBackend.test.ts).
import type { AdamWParams, Backend, BackendCounters, BackendInfo } from '../backend';
import type { DType, Tensor } from '../tensor';
import { VIEW_ALIGN } from '../backend';
import { shapeSize } from '../../util/shape';
import * as enc from '../cpu/encoder';
import * as rope from '../cpu/rope';
import * as smp from '../cpu/sample';
import { instantiateKernels, resolveKernelVariant, type KernelPreference, type KernelVariant, type Kernels } from './kernels';
import { WasmMemory } from './wasmMemory';

/** A tensor in wasm memory: `ptr` is its byte offset; `block` the bytes it owns (0 for a view). */
export class WasmTensor implements Tensor {
  freed = false;
  constructor(
    readonly shape: readonly number[],
    readonly dtype: DType,
    readonly label: string,
    readonly ptr: number,
    readonly size: number,
    readonly block: number,
  ) {}
}

const p = (t: Tensor | null): number => (t ? (t as WasmTensor).ptr : 0);

export class WasmBackend implements Backend {
  readonly info: BackendInfo;
  readonly counters: BackendCounters = {
    dispatches: 0,
    readbacks: 0,
    allocations: 0,
    bytesHeld: 0,
    pipelines: 0,
  };
  private scratch: { ptr: number; block: number } | null = null;
  private wtScratch: { ptr: number; block: number } | null = null;
  /**
   * Matmul forward kernel: 'dot' (2x4 blocks of dot products along C, horizontal sums at the end) or
   * 'broadcast' (the weight packed into (C, 8) column panels in scratch, 4x8 blocks of broadcast multiplies,
   * no sums); 'auto' takes broadcast from 8 rows on, where packing costs under 1/8 of the product. Tests force each.
   */
  matmulForwardVariant: 'auto' | 'dot' | 'broadcast' = 'auto';

  private constructor(
    private readonly k: Kernels,
    private readonly mem: WasmMemory,
    readonly kernels: KernelVariant,
  ) {
    const where =
      typeof process !== 'undefined' && process.versions?.node ? `Node ${process.versions.node}` : 'browser';
    const relaxed = kernels === 'relaxed';
    this.info = {
      name: 'wasm',
      kernels,
      adapter: `WebAssembly SIMD128${relaxed ? ' with relaxed-SIMD FMA' : ''}, 1 thread (${where})`,
      features: relaxed ? ['simd128', 'relaxed-simd'] : ['simd128'],
    };
  }

  /**
   * A backend with its own module instance and memory; rejects (WasmUnavailableError) without wasm SIMD,
   * or without relaxed SIMD where `kernels` is 'relaxed'. The default is the simd variant everywhere
   * (Node's results stay byte-identical whatever flags a process has); the page asks for 'auto'.
   */
  static async create(kernels: KernelPreference = 'simd'): Promise<WasmBackend> {
    const variant = resolveKernelVariant(kernels);
    const { kernels: k, memory } = await instantiateKernels(16, variant);
    return new WasmBackend(k, new WasmMemory(memory), variant);
  }

  /** Bytes of the module's linear memory (tensors, pools, static data): the engine's memory. */
  get memoryBytes(): number {
    return this.mem.bytes;
  }

  private f(t: Tensor): Float32Array {
    const w = t as WasmTensor;
    if (w.dtype !== 'f32') throw new Error(`tensor ${t.label} is not f32`);
    const i = w.ptr >> 2;
    return this.mem.f32.subarray(i, i + w.size);
  }
  private fo(t: Tensor | null): Float32Array | null {
    return t ? this.f(t) : null;
  }
  private u(t: Tensor): Uint32Array {
    const w = t as WasmTensor;
    if (w.dtype !== 'u32') throw new Error(`tensor ${t.label} is not u32`);
    const i = w.ptr >> 2;
    return this.mem.u32.subarray(i, i + w.size);
  }
  private data(t: Tensor): Float32Array | Uint32Array {
    return t.dtype === 'f32' ? this.f(t) : this.u(t);
  }
  /** Scratch of at least n floats (attention rows), kept between calls. */
  private scratchPtr(n: number): number {
    if (!this.scratch || this.scratch.block < n * 4) {
      if (this.scratch) this.mem.give(this.scratch.ptr, this.scratch.block);
      this.scratch = this.take(Math.max(n, 256) * 4);
    }
    return this.scratch.ptr;
  }
  /** Scratch for a packed weight of n floats (grows to the largest weight, then stays). */
  private wtPtr(n: number): number {
    if (!this.wtScratch || this.wtScratch.block < n * 4) {
      if (this.wtScratch) this.mem.give(this.wtScratch.ptr, this.wtScratch.block);
      this.wtScratch = this.take(n * 4);
    }
    return this.wtScratch.ptr;
  }
  private take(bytes: number): { ptr: number; block: number } {
    const before = this.mem.fresh;
    const b = this.mem.take(bytes);
    if (this.mem.fresh !== before) this.counters.allocations++;
    this.counters.bytesHeld = this.mem.held;
    return b;
  }

  alloc(shape: readonly number[], dtype: DType = 'f32', label = 'tensor'): Tensor {
    const n = shapeSize(shape);
    const { ptr, block } = this.take(n * 4);
    return new WasmTensor([...shape], dtype, label, ptr, n, block);
  }
  view(base: Tensor, offset: number, shape: readonly number[], label = `${base.label}.view`): Tensor {
    const n = shapeSize(shape);
    if (offset % VIEW_ALIGN !== 0)
      throw new Error(`view offset ${offset} is not a multiple of ${VIEW_ALIGN}`);
    if (offset + n > base.size)
      throw new Error(`view [${offset}, ${offset + n}) exceeds ${base.label} (${base.size})`);
    return new WasmTensor([...shape], base.dtype, label, (base as WasmTensor).ptr + offset * 4, n, 0);
  }
  write(t: Tensor, data: Float32Array | Uint32Array): void {
    if (data.length !== t.size)
      throw new Error(`write to ${t.label}: ${data.length} values for ${t.size} elements`);
    this.data(t).set(data);
  }
  async read(t: Tensor): Promise<Float32Array | Uint32Array> {
    this.counters.readbacks++;
    return this.data(t).slice();
  }
  async readMany(tensors: readonly Tensor[]): Promise<(Float32Array | Uint32Array)[]> {
    if (tensors.length === 0) return [];
    this.counters.readbacks++;
    return tensors.map((t) => this.data(t).slice());
  }
  fill(t: Tensor, value: number): void {
    this.data(t).fill(value);
  }
  copy(dst: Tensor, src: Tensor, n: number, dstOffset = 0, srcOffset = 0): void {
    this.data(dst).set(this.data(src).subarray(srcOffset, srcOffset + n), dstOffset);
  }
  free(t: Tensor): void {
    const w = t as WasmTensor;
    if (w.block === 0 || w.freed) return;
    w.freed = true;
    this.mem.give(w.ptr, w.block);
  }
  async sync(): Promise<void> {}
  destroy(): void {
    this.scratch = null;
    this.wtScratch = null;
  }

  private op(): void {
    this.counters.dispatches++;
  }

  // ---- ops on the CPU reference's code (views of wasm memory) --------------------------------------
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
  ): void {
    this.op();
    enc.encoderForward(this.f(out), this.f(wte), this.fo(wpe), this.u(tokens), B, T, C, tokStride, pos0);
  }
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
  ): void {
    this.op();
    enc.encoderBackward(this.f(dwte), this.fo(dwpe), this.f(dout), this.u(tokens), B, T, C, tokStride, pos0);
  }
  ropeForward(out: Tensor, inp: Tensor, B: number, T: number, C: number, NH: number, pos0: number): void {
    this.op();
    rope.ropeForward(this.f(out), this.f(inp), B, T, C, NH, pos0);
  }
  ropeBackward(dinp: Tensor, dout: Tensor, B: number, T: number, C: number, NH: number, pos0: number): void {
    this.op();
    rope.ropeBackward(this.f(dinp), this.f(dout), B, T, C, NH, pos0);
  }
  kvCacheWrite(
    kcache: Tensor,
    vcache: Tensor,
    qkv: Tensor,
    B: number,
    T: number,
    pos0: number,
    Tmax: number,
    C: number,
  ): void {
    this.op();
    // the reference's copy loop (src/engine/cpu/attention.ts kvCacheWrite) as row copies within memory
    const m = this.mem.f32;
    const [kc, vc, q] = [p(kcache) >> 2, p(vcache) >> 2, p(qkv) >> 2];
    for (let b = 0; b < B; b++) {
      for (let t = 0; t < T; t++) {
        const src = q + (b * T + t) * 3 * C;
        const dst = (b * Tmax + pos0 + t) * C;
        m.copyWithin(kc + dst, src + C, src + 2 * C);
        m.copyWithin(vc + dst, src + 2 * C, src + 3 * C);
      }
    }
  }
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
    logp: Tensor | null = null,
    logpOffset = 0,
  ): void {
    this.op();
    smp.sampleTokens(
      this.u(out),
      this.f(logits),
      rows,
      V,
      temperature,
      seed,
      counter,
      outStride,
      outOffset,
      this.fo(logp),
      logpOffset,
    );
  }

  // ---- SIMD kernels ----------------------------------------------------------------------------------
  geluForward(out: Tensor, inp: Tensor, N: number): void {
    this.op();
    this.k.geluForward(p(out), p(inp), N);
  }
  geluBackward(dinp: Tensor, inp: Tensor, dout: Tensor, N: number): void {
    this.op();
    this.k.geluBackward(p(dinp), p(inp), p(dout), N);
  }
  residualForward(out: Tensor, a: Tensor, b: Tensor, N: number): void {
    this.op();
    this.k.residualForward(p(out), p(a), p(b), N);
  }
  residualBackward(da: Tensor, db: Tensor, dout: Tensor, N: number): void {
    this.op();
    this.k.residualBackward(p(da), p(db), p(dout), N);
  }
  matmulForward(
    out: Tensor,
    inp: Tensor,
    weight: Tensor,
    bias: Tensor | null,
    N: number,
    C: number,
    OC: number,
  ): void {
    this.op();
    const v = this.matmulForwardVariant;
    if (v === 'broadcast' || (v === 'auto' && N >= 8)) {
      const wT = this.wtPtr(C * OC);
      this.k.packPanels(wT, p(weight), OC, C);
      this.k.matmulForwardT(p(out), p(inp), wT, p(weight), p(bias), N, C, OC);
    } else this.k.matmulForward(p(out), p(inp), p(weight), p(bias), N, C, OC);
  }
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
  ): void {
    this.op();
    // dinp[n,:] += sum_o dout[n,o] weight[o,:]; dweight[o,:] += sum_n dout[n,o] inp[n,:]
    if (dinp) this.k.addRowCombination(p(dinp), p(dout), OC, 1, p(weight), N, OC, C);
    this.k.addRowCombination(p(dweight), p(dout), 1, OC, p(inp), OC, N, C);
    if (dbias) this.k.biasBackward(p(dbias), p(dout), N, OC);
  }
  layernormForward(
    out: Tensor,
    mean: Tensor,
    rstd: Tensor,
    inp: Tensor,
    weight: Tensor,
    bias: Tensor,
    N: number,
    C: number,
  ): void {
    this.op();
    this.k.layernormForward(p(out), p(mean), p(rstd), p(inp), p(weight), p(bias), N, C);
  }
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
  ): void {
    this.op();
    this.k.layernormBackward(
      p(dinp),
      p(dweight),
      p(dbias),
      p(dout),
      p(inp),
      p(weight),
      p(mean),
      p(rstd),
      N,
      C,
    );
  }
  attentionForward(out: Tensor, att: Tensor, qkv: Tensor, B: number, T: number, C: number, NH: number): void {
    this.op();
    this.k.attentionForward(p(out), p(att), p(qkv), B, T, C, NH);
  }
  attentionBackward(
    dqkv: Tensor,
    dout: Tensor,
    qkv: Tensor,
    att: Tensor,
    B: number,
    T: number,
    C: number,
    NH: number,
  ): void {
    this.op();
    const s = this.scratchPtr(T);
    this.k.attentionBackward(p(dqkv), p(dout), p(qkv), p(att), B, T, C, NH, s);
  }
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
  ): void {
    this.op();
    const s = this.scratchPtr(pos0 + T);
    this.k.attentionCached(p(out), p(qkv), p(kcache), p(vcache), B, T, pos0, Tmax, C, NH, s);
  }
  logprobForward(
    logp: Tensor | null,
    entropy: Tensor | null,
    certainty: Tensor | null,
    logits: Tensor,
    targets: Tensor,
    N: number,
    V: number,
    temperature: number,
  ): void {
    this.op();
    this.k.logprobForward(p(logp), p(entropy), p(certainty), p(logits), p(targets), N, V, temperature);
  }
  logprobBackward(
    dlogits: Tensor,
    logits: Tensor,
    targets: Tensor,
    weights: Tensor,
    N: number,
    V: number,
    temperature: number,
  ): void {
    this.op();
    this.k.logprobBackward(p(dlogits), p(logits), p(targets), p(weights), N, V, temperature);
  }
  crossEntropyForward(losses: Tensor, logits: Tensor, targets: Tensor, N: number, V: number): void {
    this.op();
    this.k.crossEntropyForward(p(losses), p(logits), p(targets), N, V);
  }
  crossEntropyBackward(
    dlogits: Tensor,
    logits: Tensor,
    targets: Tensor,
    dlosses: Tensor,
    N: number,
    V: number,
  ): void {
    this.op();
    this.k.crossEntropyBackward(p(dlogits), p(logits), p(targets), p(dlosses), N, V);
  }
  sumSquares(out: Tensor, inp: Tensor, N: number): void {
    this.op();
    this.k.sumSquares(p(out), p(inp), N);
  }
  adamw(
    params: Tensor,
    grads: Tensor,
    m: Tensor,
    v: Tensor,
    normSq: Tensor | null,
    maxNorm: number,
    N: number,
    hp: AdamWParams,
  ): void {
    this.op();
    const scale = normSq ? Math.min(1, maxNorm / (Math.sqrt(this.f(normSq)[0]) + 1e-6)) : 1;
    const bc1 = 1 - Math.pow(hp.beta1, hp.step);
    const bc2 = 1 - Math.pow(hp.beta2, hp.step);
    this.k.adamw(
      p(params),
      p(grads),
      p(m),
      p(v),
      N,
      scale,
      hp.lr,
      hp.beta1,
      hp.beta2,
      hp.eps,
      hp.weightDecay,
      bc1,
      bc2,
    );
  }
}
