// The wasm backend: tensors live in the linear memory of a WebAssembly module (wasmHeap.ts) whose SIMD kernels
// (wasm/*.ts, AssemblyScript) run the hot ops (matmul forward and backward, attention, layer norm,
// log-softmax with entropy and cross-entropy, the squared norm and AdamW; wasmOps.ts); the other ops of the
// op table (src/engine/ops/) run their CPU kernel on views of the same memory, counted in `cpuFallbacks`.
// Same contracts as the CPU reference, against which every kernel is parity-tested (wasmParity.suite.ts,
// on both kernel variants).
import type { Backend, BackendCounters, BackendInfo } from '../backend';
import type { DType, Tensor } from '../tensor';
import { OP_NAMES, type OpName } from '../ops/table';
import { OpBackend, cpuOps, installOps } from '../ops/run';
import { instantiateKernels, resolveKernelVariant, type KernelPreference, type KernelVariant, type Kernels } from './kernels';
import { WasmMemory } from './wasmMemory';
import { WasmHeap } from './wasmHeap';
import { counted, directOps, handWritten } from './wasmOps';

export class WasmBackend extends OpBackend implements Backend {
  readonly info: BackendInfo;
  readonly counters: BackendCounters = {
    dispatches: 0,
    readbacks: 0,
    allocations: 0,
    bytesHeld: 0,
    pipelines: 0,
  };
  /** Calls of each op that ran its CPU kernel over wasm memory (the module has no kernel for it). */
  readonly cpuFallbacks: Partial<Record<OpName, number>> = {};
  readonly h: WasmHeap;
  /**
   * Matmul forward kernel: 'dot' (2x4 blocks of dot products along C, horizontal sums at the end) or
   * 'broadcast' (the weight packed into (C, 8) column panels in scratch, 4x8 blocks of broadcast multiplies,
   * no sums); 'auto' takes broadcast from 8 rows on, where packing costs under 1/8 of the product. Tests force each.
   */
  matmulForwardVariant: 'auto' | 'dot' | 'broadcast' = 'auto';

  private constructor(
    readonly k: Kernels,
    mem: WasmMemory,
    readonly kernels: KernelVariant,
  ) {
    super();
    this.h = new WasmHeap(mem, this.counters);
    const dispatch = () => this.counters.dispatches++;
    const own = handWritten(this);
    const fallback = cpuOps(this.h, (name) => {
      dispatch();
      this.cpuFallbacks[name] = (this.cpuFallbacks[name] ?? 0) + 1;
    });
    const kernelOps = { ...directOps(k, own), ...own };
    installOps(this, { ...fallback, ...counted(kernelOps, dispatch) }, 'the wasm backend');
    const where =
      typeof process !== 'undefined' && process.versions?.node ? `Node ${process.versions.node}` : 'browser';
    const relaxed = kernels === 'relaxed';
    this.info = {
      name: 'wasm',
      kernels,
      adapter: `WebAssembly SIMD128${relaxed ? ' with relaxed-SIMD FMA' : ''}, 1 thread (${where})`,
      features: relaxed ? ['simd128', 'relaxed-simd'] : ['simd128'],
      cpuKernelOps: OP_NAMES.filter((n) => !(n in kernelOps)),
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
}
