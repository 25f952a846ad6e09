// GPU timestamps of single dispatches (benchmarks and kernel choice, docs/performance.md): while a timer is
// on, each of the next `cap` dispatches runs alone in a compute pass that writes a timestamp at its
// beginning and end; at the end the query set is resolved into a buffer and read back once.

export class GpuTimer {
  private readonly set: GPUQuerySet;
  private readonly cap: number;
  private readonly labels: string[] = [];

  constructor(
    private readonly device: GPUDevice,
    maxDispatches: number,
  ) {
    this.cap = Math.max(1, Math.floor(maxDispatches));
    this.set = device.createQuerySet({ type: 'timestamp', count: 2 * this.cap });
  }

  /** The timestamp writes of the next dispatch's own pass, labelled `label`; null once `cap` are taken. */
  next(label: string): GPUComputePassTimestampWrites | null {
    if (this.labels.length >= this.cap) return null;
    const i = 2 * this.labels.length;
    this.labels.push(label);
    return { querySet: this.set, beginningOfPassWriteIndex: i, endOfPassWriteIndex: i + 1 };
  }

  /**
   * Encode the resolve and copy into `enc` (the caller submits it), then resolve to each timed dispatch's
   * label and GPU ms (pass end minus beginning), in order; `checkErrors` runs after the readback.
   */
  async read(
    encode: () => GPUCommandEncoder,
    submit: () => void,
    checkErrors: () => void,
  ): Promise<{ kernel: string; ms: number }[]> {
    const count = this.labels.length;
    if (count === 0) {
      this.set.destroy();
      return [];
    }
    const bytes = 16 * count;
    const resolve = this.device.createBuffer({
      label: 'timestamps',
      size: bytes,
      usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC,
    });
    const staging = this.device.createBuffer({
      label: 'timestamps.read',
      size: bytes,
      usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
    });
    const enc = encode();
    enc.resolveQuerySet(this.set, 0, 2 * count, resolve, 0);
    enc.copyBufferToBuffer(resolve, 0, staging, 0, bytes);
    submit();
    try {
      await staging.mapAsync(GPUMapMode.READ);
      const ns = new BigUint64Array(staging.getMappedRange().slice(0));
      staging.unmap();
      checkErrors();
      return this.labels.map((kernel, i) => ({ kernel, ms: Number(ns[2 * i + 1] - ns[2 * i]) / 1e6 }));
    } finally {
      for (const b of [resolve, staging]) b.destroy();
      this.set.destroy();
    }
  }
}
