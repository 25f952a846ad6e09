// The wasm backend's tensor memory: blocks of the kernel module's linear memory, handed out by a bump
// pointer and recycled by exact size (as the WebGPU backend pools buffers), growing the memory on demand.
// Typed-array views are rebuilt whenever growth replaces the memory's ArrayBuffer.
import { HEAP_BASE } from './kernels';

/** Block sizes round up to 256 bytes (VIEW_ALIGN elements), so every view offset stays aligned too. */
const BLOCK_ALIGN = 256;

export class WasmMemory {
  private top = HEAP_BASE;
  private readonly pools = new Map<number, number[]>();
  private buf: ArrayBuffer;
  private f32a: Float32Array;
  private u32a: Uint32Array;
  /** Blocks taken from the bump pointer (pool misses). */
  fresh = 0;
  /** Bytes of every block handed out so far (live plus pooled). */
  held = 0;

  constructor(readonly memory: WebAssembly.Memory) {
    this.buf = memory.buffer;
    this.f32a = new Float32Array(this.buf);
    this.u32a = new Uint32Array(this.buf);
  }

  /** A block of at least `bytes` bytes: its offset and its (rounded) size. */
  take(bytes: number): { ptr: number; block: number } {
    const block = Math.max(BLOCK_ALIGN, Math.ceil(bytes / BLOCK_ALIGN) * BLOCK_ALIGN);
    const pool = this.pools.get(block);
    if (pool && pool.length > 0) return { ptr: pool.pop()!, block };
    const ptr = this.top;
    const end = ptr + block;
    const have = this.memory.buffer.byteLength;
    if (end > have) {
      // grow by what is needed, and at least a quarter of what there is (fewer, larger growths)
      const pages = Math.max(Math.ceil((end - have) / 65536), Math.ceil(have / 65536 / 4));
      try {
        this.memory.grow(pages);
      } catch {
        throw new Error(
          `wasm backend out of memory: ${(end / 2 ** 20).toFixed(0)} MiB asked (WebAssembly memory is limited to 4 GiB); use a smaller model or batch (an experiment config can instead split the RL batch into smaller passes: train.rowsPerPass)`,
        );
      }
    }
    this.top = end;
    this.fresh++;
    this.held += block;
    return { ptr, block };
  }

  /** Return a block to its size's pool. */
  give(ptr: number, block: number): void {
    const pool = this.pools.get(block);
    if (pool) pool.push(ptr);
    else this.pools.set(block, [ptr]);
  }

  private refresh(): void {
    if (this.memory.buffer !== this.buf) {
      this.buf = this.memory.buffer;
      this.f32a = new Float32Array(this.buf);
      this.u32a = new Uint32Array(this.buf);
    }
  }

  /** The whole memory as f32 (valid until the next growth). */
  get f32(): Float32Array {
    this.refresh();
    return this.f32a;
  }
  get u32(): Uint32Array {
    this.refresh();
    return this.u32a;
  }
  /** Bytes of linear memory in use by the module (tensors, pools and static data). */
  get bytes(): number {
    return this.memory.buffer.byteLength;
  }
}
