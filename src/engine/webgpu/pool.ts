// A GPU buffer pool: freed buffers are kept by size class and reused, so a steady training loop
// allocates nothing. Sizes round up to a power of two (min 256 bytes).
import type { BackendCounters } from '../backend';

const sizeClass = (bytes: number): number => Math.max(256, 2 ** Math.ceil(Math.log2(bytes)));

export class BufferPool {
  private readonly free = new Map<number, GPUBuffer[]>();
  private readonly staging = new Map<number, GPUBuffer[]>();
  private readonly all = new Set<GPUBuffer>();

  constructor(
    private readonly device: GPUDevice,
    private readonly counters: BackendCounters,
  ) {}

  /** A storage buffer of at least `bytes` bytes. */
  acquire(bytes: number, label: string): GPUBuffer {
    const size = sizeClass(bytes);
    const reuse = this.free.get(size)?.pop();
    if (reuse) return reuse;
    const buf = this.device.createBuffer({
      label,
      size,
      usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST,
    });
    this.all.add(buf);
    this.counters.allocations++;
    this.counters.bytesHeld += size;
    return buf;
  }
  release(buf: GPUBuffer): void {
    const list = this.free.get(buf.size) ?? [];
    list.push(buf);
    this.free.set(buf.size, list);
  }
  /** A mappable read-back buffer of at least `bytes` bytes. */
  acquireStaging(bytes: number): GPUBuffer {
    const size = sizeClass(bytes);
    const reuse = this.staging.get(size)?.pop();
    if (reuse) return reuse;
    const buf = this.device.createBuffer({
      label: 'staging',
      size,
      usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
    });
    this.all.add(buf);
    this.counters.allocations++;
    this.counters.bytesHeld += size;
    return buf;
  }
  releaseStaging(buf: GPUBuffer): void {
    const list = this.staging.get(buf.size) ?? [];
    list.push(buf);
    this.staging.set(buf.size, list);
  }
  destroy(): void {
    for (const b of this.all) b.destroy();
    this.all.clear();
    this.free.clear();
    this.staging.clear();
    this.counters.bytesHeld = 0;
  }
}
