// The WebGPU backend: tensors live in pooled GPUBuffers, ops record WGSL dispatches into one command
// encoder that is submitted on read/sync, with their pipelines from the cache in ./pipelines.ts. The op
// methods are in ./webgpuOps.ts, their wrappers in ./ops/<family>.ts, their kernels in
// shaders/<family>.wgsl, each with a CPU twin in ../cpu/<family>.ts.
import type { Backend, BackendCounters, BackendInfo } from '../backend';
import type { DType, Tensor } from '../tensor';
import { checkedViewSize, checkWrite } from '../backend';
import { GpuTimer } from './gpuTimer';
import { shapeSize } from '../../util/shape';
import { acquireDevice } from './device';
import type { GpuContext, Kernel, Param } from './context';
import { U, F, cdiv, defineKernel } from './context';
import { BufferPool } from './pool';
import { PipelineCache } from './pipelines';
import { GpuTensor } from './tensor';
import { WebGpuOps } from './webgpuOps';
import common from '../../../shaders/common.wgsl?raw';
import utilSrc from '../../../shaders/util.wgsl?raw';
import { KernelChoices, type TunedOp, type VariantOf } from './choices';

export { GpuTensor };

const UNIFORM_SLOT = 256; // bytes per dispatch's uniform block (minUniformBufferOffsetAlignment)
const UNIFORM_SLOTS = 512;
const fillKernel = defineKernel({ label: 'fill', code: common + utilSrc, entry: 'fill_forward' });

export class WebGpuBackend extends WebGpuOps implements Backend, GpuContext {
  readonly counters: BackendCounters = {
    dispatches: 0,
    readbacks: 0,
    allocations: 0,
    bytesHeld: 0,
    pipelines: 0,
  };
  private readonly pool: BufferPool;
  private readonly pipelines: PipelineCache;
  /** The first failure of a background prepare(), thrown by the next checkErrors. */
  private prepareError: Error | null = null;
  private destroyed = false;
  private readonly scratchMap = new Map<string, GpuTensor>();
  private readonly uniforms: GPUBuffer;
  private readonly uniformHost = new ArrayBuffer(UNIFORM_SLOT);
  private slot = 0;
  private encoder: GPUCommandEncoder | null = null;
  private pass: GPUComputePassEncoder | null = null;
  private firstError: string | null = null;
  lost: GPUDeviceLostInfo | null = null;

  private constructor(
    readonly device: GPUDevice,
    readonly info: BackendInfo,
  ) {
    super();
    this.pool = new BufferPool(device, this.counters);
    this.pipelines = new PipelineCache(device, this.counters, () =>
      this.destroyed ? 'destroyed' : this.lost ? 'lost' : null,
    );
    this.uniforms = device.createBuffer({
      label: 'uniforms',
      size: UNIFORM_SLOT * UNIFORM_SLOTS,
      usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
    });
    device.addEventListener('uncapturederror', (ev) => {
      const e = (ev as GPUUncapturedErrorEvent).error;
      this.firstError ??= e.message;
    });
    void device.lost.then((info) => {
      this.lost = info;
    });
  }

  /** Acquire a device and build the backend; throws WebGpuUnavailableError when WebGPU is missing. */
  static async create(opts: { prepare?: boolean } = {}): Promise<WebGpuBackend> {
    const acq = await acquireDevice();
    const backend = new WebGpuBackend(acq.device, {
      name: 'webgpu',
      adapter: acq.adapterName,
      features: acq.features,
      software: acq.software,
    });
    // Off by default: on SwiftShader the GPU process compiles pipelines one at a time, so compiling all 49
    // in the background delays the first step (1155 ms vs 551 ms compiling on first use; docs/performance.md).
    if (opts.prepare ?? false) {
      // compile every registered kernel in the background; a failure surfaces at the next sync/read
      backend.prepare().catch((e: unknown) => {
        backend.prepareError ??= e instanceof Error ? e : new Error(String(e));
      });
    }
    return backend;
  }

  /** The kernel variant of every tuned op at every shape (measured, forced or by rule; ./choices.ts). */
  readonly kernels = new KernelChoices();
  protected pick<O extends TunedOp>(op: O, d: readonly number[]): VariantOf<O> {
    return this.kernels.pick(op, d);
  }

  // ---- pipelines (./pipelines.ts) ---------------------------------------------------------------
  /** Whether the pipeline of `k` is created (by prepare() or an earlier dispatch). */
  hasPipeline(k: Kernel): boolean {
    return this.pipelines.has(k);
  }
  /**
   * Create the pipelines of every registered kernel (defineKernel; or of `ks`) that has none yet, with
   * createComputePipelineAsync, `concurrency` at a time, into the cache dispatches use. Resolves to the number
   * of registered kernels and the wall time; rejects naming the kernel when one fails to compile.
   * Dispatches meanwhile stay correct: a kernel not ready yet is created synchronously, and its async
   * result is then dropped. create({ prepare: true }) starts this in the background.
   */
  prepare(ks?: readonly Kernel[], concurrency?: number): Promise<{ kernels: number; ms: number }> {
    return this.pipelines.prepare(ks, concurrency);
  }

  // ---- dispatch machinery --------------------------------------------------------------------
  private getEncoder(): GPUCommandEncoder {
    this.encoder ??= this.device.createCommandEncoder({ label: 'ops' });
    return this.encoder;
  }
  private endPass(): void {
    this.pass?.end();
    this.pass = null;
  }
  /** Submit everything recorded so far. */
  flush(): void {
    this.endPass();
    if (this.encoder) {
      this.device.queue.submit([this.encoder.finish()]);
      this.encoder = null;
    }
    this.slot = 0;
  }

  run(kernel: Kernel, tensors: readonly Tensor[], params: readonly Param[], groups: readonly number[]): void {
    if (this.slot >= UNIFORM_SLOTS) this.flush();
    const pipeline = this.pipelines.get(kernel);
    const entries: GPUBindGroupEntry[] = [];
    if (params.length > 0) {
      const dv = new DataView(this.uniformHost);
      params.forEach((p, i) => {
        if (p.t === 'u') dv.setUint32(i * 4, p.v >>> 0, true);
        else if (p.t === 'i') dv.setInt32(i * 4, p.v | 0, true);
        else dv.setFloat32(i * 4, p.v, true);
      });
      const off = this.slot * UNIFORM_SLOT;
      this.device.queue.writeBuffer(
        this.uniforms,
        off,
        this.uniformHost,
        0,
        Math.max(16, cdiv(params.length * 4, 16) * 16),
      );
      entries.push({ binding: 0, resource: { buffer: this.uniforms, offset: off, size: UNIFORM_SLOT } });
      this.slot++;
    }
    tensors.forEach((t, i) => {
      const g = t as GpuTensor;
      entries.push({
        binding: i + 1,
        resource: { buffer: g.buffer, offset: g.offset * 4, size: Math.max(4, g.size * 4) },
      });
    });
    const bindGroup = this.device.createBindGroup({ layout: pipeline.getBindGroupLayout(0), entries });
    const writes = this.timer?.next(`${kernel.label}:${kernel.entry}`) ?? null;
    if (writes) {
      // timed: this dispatch alone in a pass whose beginning and end write GPU timestamps
      this.endPass();
      this.pass = this.getEncoder().beginComputePass({ label: 'timed', timestampWrites: writes });
    }
    this.pass ??= this.getEncoder().beginComputePass({ label: 'ops' });
    this.pass.setPipeline(pipeline);
    this.pass.setBindGroup(0, bindGroup);
    this.pass.dispatchWorkgroups(groups[0] ?? 1, groups[1] ?? 1, groups[2] ?? 1);
    this.counters.dispatches++;
    if (writes) this.endPass();
  }

  // ---- GPU timestamps (benchmarks) -------------------------------------------------------------
  private timer: GpuTimer | null = null;

  /** Whether the device writes GPU timestamps (the adapter has 'timestamp-query'). */
  get hasTimestamps(): boolean {
    return this.device.features.has('timestamp-query');
  }
  /**
   * Time dispatches on the GPU: until endTimestamps, each of the next `maxDispatches` dispatches runs
   * alone in a compute pass that writes timestamps at its beginning and end. Needs hasTimestamps.
   */
  beginTimestamps(maxDispatches: number): void {
    if (!this.hasTimestamps) throw new Error('this adapter has no timestamp-query feature');
    if (this.timer) throw new Error('beginTimestamps: timing is already on');
    this.timer = new GpuTimer(this.device, maxDispatches);
  }
  /** Stop timing; resolves to each timed dispatch's kernel ('label:entry') and GPU ms (pass end - beginning), in order. */
  async endTimestamps(): Promise<{ kernel: string; ms: number }[]> {
    const t = this.timer;
    if (!t) throw new Error('endTimestamps without beginTimestamps');
    this.timer = null;
    this.endPass();
    return t.read(
      () => this.getEncoder(),
      () => this.flush(),
      () => this.checkErrors(),
    );
  }

  grid(total: number, wgSize: number): [number, number] {
    const g = cdiv(Math.max(total, 1), wgSize);
    if (g <= 65535) return [g, 1];
    const y = cdiv(g, 65535);
    return [cdiv(g, y), y];
  }

  scratch(key: string, size: number): Tensor {
    const cur = this.scratchMap.get(key);
    if (cur && cur.size >= size) return size === cur.size ? cur : this.view(cur, 0, [size], key);
    if (cur) this.free(cur);
    const t = this.alloc([size], 'f32', `scratch:${key}`) as GpuTensor;
    this.scratchMap.set(key, t);
    return t;
  }

  /** Throw the first WebGPU validation/internal error seen since the last check, if any. */
  private checkErrors(): void {
    if (this.lost) throw new Error(`WebGPU device lost (${this.lost.reason}): ${this.lost.message}`);
    if (this.prepareError) {
      const e = this.prepareError;
      this.prepareError = null;
      throw e;
    }
    if (this.firstError) {
      const msg = this.firstError;
      this.firstError = null;
      throw new Error(`WebGPU error: ${msg}`);
    }
  }

  // ---- memory --------------------------------------------------------------------------------
  alloc(shape: readonly number[], dtype: DType = 'f32', label = 'tensor'): Tensor {
    const n = shapeSize(shape);
    const buffer = this.pool.acquire(Math.max(n, 1) * 4, label);
    return new GpuTensor([...shape], dtype, label, buffer, 0, n, false);
  }
  view(base: Tensor, offset: number, shape: readonly number[], label = `${base.label}.view`): Tensor {
    const b = base as GpuTensor;
    const n = checkedViewSize(b, offset, shape);
    return new GpuTensor([...shape], b.dtype, label, b.buffer, b.offset + offset, n, true);
  }
  write(t: Tensor, data: Float32Array | Uint32Array): void {
    const g = t as GpuTensor;
    checkWrite(g, data);
    // Queue writes are ordered before the next submit: flush what was recorded so order holds.
    this.flush();
    this.device.queue.writeBuffer(g.buffer, g.offset * 4, data.buffer, data.byteOffset, data.byteLength);
  }
  async read(t: Tensor): Promise<Float32Array | Uint32Array> {
    return (await this.readMany([t]))[0];
  }
  /** Every tensor copied into one staging buffer (back to back), one submit, one map: one readback. */
  async readMany(tensors: readonly Tensor[]): Promise<(Float32Array | Uint32Array)[]> {
    if (tensors.length === 0) return [];
    const at: number[] = [];
    let bytes = 0;
    for (const t of tensors) {
      at.push(bytes);
      bytes += Math.max(t.size, 1) * 4;
    }
    const staging = this.pool.acquireStaging(bytes);
    this.endPass();
    const enc = this.getEncoder();
    tensors.forEach((t, i) => {
      const g = t as GpuTensor;
      enc.copyBufferToBuffer(g.buffer, g.offset * 4, staging, at[i], Math.max(g.size, 1) * 4);
    });
    this.flush();
    this.counters.readbacks++;
    try {
      await staging.mapAsync(GPUMapMode.READ, 0, bytes);
    } catch (e) {
      this.checkErrors();
      throw e;
    }
    const copy = staging.getMappedRange(0, bytes).slice(0);
    staging.unmap();
    this.pool.releaseStaging(staging);
    this.checkErrors();
    return tensors.map((t, i) =>
      t.dtype === 'f32' ? new Float32Array(copy, at[i], t.size) : new Uint32Array(copy, at[i], t.size),
    );
  }
  fill(t: Tensor, value: number): void {
    const g = t as GpuTensor;
    const bits = g.dtype === 'u32' ? value >>> 0 : 0;
    this.run(
      fillKernel,
      [t],
      [U(g.size), F(value), U(bits), U(g.dtype === 'u32' ? 1 : 0)],
      this.grid(g.size, 256),
    );
  }
  copy(dst: Tensor, src: Tensor, n: number, dstOffset = 0, srcOffset = 0): void {
    const d = dst as GpuTensor;
    const s = src as GpuTensor;
    if (n <= 0) return;
    this.endPass();
    this.getEncoder().copyBufferToBuffer(
      s.buffer,
      (s.offset + srcOffset) * 4,
      d.buffer,
      (d.offset + dstOffset) * 4,
      n * 4,
    );
  }
  free(t: Tensor): void {
    const g = t as GpuTensor;
    if (g.isView) return;
    this.pool.release(g.buffer);
  }
  async sync(): Promise<void> {
    this.flush();
    await this.device.queue.onSubmittedWorkDone();
    this.checkErrors();
  }
  destroy(): void {
    this.destroyed = true;
    this.flush();
    this.pool.destroy();
    this.uniforms.destroy();
    this.device.destroy();
  }
}
