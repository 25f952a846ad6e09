// The wasm engine's memory side: tensors as byte ranges of the module's linear memory (WasmTensor), their
// typed-array views, allocation and freeing through the block pool (wasmMemory.ts), the scratch buffers
// kernels reuse between calls, and the Backend's memory methods (alloc, view, write, read, fill, copy,
// free). The ops are in wasmBackend.ts, which owns one heap.
import type { BackendCounters } from '../backend';
import { checkedViewSize, checkWrite } from '../backend';
import type { DType, Tensor } from '../tensor';
import { shapeSize } from '../../util/shape';
import type { WasmMemory } from './wasmMemory';

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

/** Tensors and scratch in one module's memory, counting allocations and bytes held into `counters`. */
export class WasmHeap {
  private scratch: { ptr: number; block: number } | null = null;
  private wtScratch: { ptr: number; block: number } | null = null;

  constructor(
    readonly mem: WasmMemory,
    private readonly counters: BackendCounters,
  ) {}

  /** Bytes of the module's linear memory (tensors, pools, static data): the engine's memory. */
  get memoryBytes(): number {
    return this.mem.bytes;
  }

  f(t: Tensor): Float32Array {
    const w = t as WasmTensor;
    if (w.dtype !== 'f32') throw new Error(`tensor ${t.label} is not f32`);
    const i = w.ptr >>> 2; // unsigned: offsets reach 4 GiB
    return this.mem.f32.subarray(i, i + w.size);
  }
  fo(t: Tensor | null): Float32Array | null {
    return t ? this.f(t) : null;
  }
  u(t: Tensor): Uint32Array {
    const w = t as WasmTensor;
    if (w.dtype !== 'u32') throw new Error(`tensor ${t.label} is not u32`);
    const i = w.ptr >>> 2; // unsigned: offsets reach 4 GiB
    return this.mem.u32.subarray(i, i + w.size);
  }
  data(t: Tensor): Float32Array | Uint32Array {
    return t.dtype === 'f32' ? this.f(t) : this.u(t);
  }
  /** Scratch of at least n floats (attention rows), kept between calls. */
  scratchPtr(n: number): number {
    if (!this.scratch || this.scratch.block < n * 4) {
      if (this.scratch) this.mem.give(this.scratch.ptr, this.scratch.block);
      this.scratch = this.take(Math.max(n, 256) * 4);
    }
    return this.scratch.ptr;
  }
  /** Scratch for a packed weight of n floats (grows to the largest weight, then stays). */
  wtPtr(n: number): number {
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
    const n = checkedViewSize(base, offset, shape);
    return new WasmTensor([...shape], base.dtype, label, (base as WasmTensor).ptr + offset * 4, n, 0);
  }
  write(t: Tensor, data: Float32Array | Uint32Array): void {
    checkWrite(t, data);
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

}
