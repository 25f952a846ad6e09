// The wasm backend: tensors live in the linear memory of a WebAssembly module (wasmHeap.ts) whose SIMD kernels
// (wasm/*.ts, AssemblyScript) run the hot ops (matmul forward and backward, attention, layer norm,
// log-softmax with entropy and cross-entropy, the squared norm and AdamW); the other ops run the CPU
// reference's code (src/engine/cpu/) on views of the same memory. Same contracts as the CPU reference
// (src/engine/backend.ts), against which every kernel is parity-tested (wasmParity.suite.ts, on both kernel variants).
import type { AdamWParams, Backend, BackendCounters, BackendInfo } from '../backend';
import type { DType, Tensor } from '../tensor';
import * as enc from '../cpu/encoder';
import * as rope from '../cpu/rope';
import * as smp from '../cpu/sample';
import { instantiateKernels, resolveKernelVariant, type KernelPreference, type KernelVariant, type Kernels } from './kernels';
import { WasmMemory } from './wasmMemory';
import { WasmHeap, type WasmTensor } from './wasmHeap';


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
  private readonly h: WasmHeap;
  /**
   * Matmul forward kernel: 'dot' (2x4 blocks of dot products along C, horizontal sums at the end) or
   * 'broadcast' (the weight packed into (C, 8) column panels in scratch, 4x8 blocks of broadcast multiplies,
   * no sums); 'auto' takes broadcast from 8 rows on, where packing costs under 1/8 of the product. Tests force each.
   */
  matmulForwardVariant: 'auto' | 'dot' | 'broadcast' = 'auto';

  private constructor(
    private readonly k: Kernels,
    mem: WasmMemory,
    readonly kernels: KernelVariant,
  ) {
    this.h = new WasmHeap(mem, this.counters);
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
    return this.h.mem.bytes;
  }

  // ---- memory (wasmHeap.ts) ----------------------------------------------------------------------------
  alloc(shape: readonly number[], dtype: DType = 'f32', label = 'tensor'): Tensor {
    return this.h.alloc(shape, dtype, label);
  }
  view(base: Tensor, offset: number, shape: readonly number[], label = `${base.label}.view`): Tensor {
    return this.h.view(base, offset, shape, label);
  }
  write(t: Tensor, data: Float32Array | Uint32Array): void {
    this.h.write(t, data);
  }
  read(t: Tensor): Promise<Float32Array | Uint32Array> {
    return this.h.read(t);
  }
  readMany(tensors: readonly Tensor[]): Promise<(Float32Array | Uint32Array)[]> {
    return this.h.readMany(tensors);
  }
  fill(t: Tensor, value: number): void {
    this.h.fill(t, value);
  }
  copy(dst: Tensor, src: Tensor, n: number, dstOffset = 0, srcOffset = 0): void {
    this.h.copy(dst, src, n, dstOffset, srcOffset);
  }
  free(t: Tensor): void {
    this.h.free(t);
  }
  async sync(): Promise<void> {}
  destroy(): void {
    this.h.destroy();
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
    enc.encoderForward(this.h.f(out), this.h.f(wte), this.h.fo(wpe), this.h.u(tokens), B, T, C, tokStride, pos0);
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
    enc.encoderBackward(this.h.f(dwte), this.h.fo(dwpe), this.h.f(dout), this.h.u(tokens), B, T, C, tokStride, pos0);
  }
  ropeForward(out: Tensor, inp: Tensor, B: number, T: number, C: number, NH: number, pos0: number): void {
    this.op();
    rope.ropeForward(this.h.f(out), this.h.f(inp), B, T, C, NH, pos0);
  }
  ropeBackward(dinp: Tensor, dout: Tensor, B: number, T: number, C: number, NH: number, pos0: number): void {
    this.op();
    rope.ropeBackward(this.h.f(dinp), this.h.f(dout), B, T, C, NH, pos0);
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
    const m = this.h.mem.f32;
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
      this.h.u(out),
      this.h.f(logits),
      rows,
      V,
      temperature,
      seed,
      counter,
      outStride,
      outOffset,
      this.h.fo(logp),
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
      const wT = this.h.wtPtr(C * OC);
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
    const s = this.h.scratchPtr(T);
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
    const s = this.h.scratchPtr(pos0 + T);
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
    const scale = normSq ? Math.min(1, maxNorm / (Math.sqrt(this.h.f(normSq)[0]) + 1e-6)) : 1;
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
