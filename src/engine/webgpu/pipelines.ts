// The WebGPU backend's pipeline cache (./webgpuBackend.ts): one shader module per kernel source, one
// compute pipeline per kernel key, created on a dispatch's first use or ahead of it by prepare()
// (createComputePipelineAsync, a few at a time), each counted once in counters.pipelines.
import type { BackendCounters } from '../backend';
import type { Kernel } from './context';
import { kernelKey, registeredKernels } from './context';
import { compileErrors } from './compileErrors';

/**
 * Pipelines prepare() keeps compiling at once. The browser's GPU process may compile them in the order
 * asked (SwiftShader does, one at a time), and a dispatch's synchronous creation waits behind every
 * creation asked before it: a few lanes keep that wait short while still compiling in parallel where
 * the driver can.
 */
const PREPARE_CONCURRENCY = 2;

export class PipelineCache {
  private readonly pipelines = new Map<string, GPUComputePipeline>();
  /** Shader modules by label and code (several entry points share one module). */
  private readonly modules = new Map<string, GPUShaderModule>();
  /** Asynchronous pipeline creations in flight, by kernel key. */
  private readonly pending = new Map<string, Promise<void>>();

  /** `gone`: the backend was destroyed ('destroyed') or its device lost ('lost'); null while it serves. */
  constructor(
    private readonly device: GPUDevice,
    private readonly counters: BackendCounters,
    private readonly gone: () => 'destroyed' | 'lost' | null,
  ) {}

  private shaderModule(k: Kernel): GPUShaderModule {
    const key = `${k.label}\n${k.code}`;
    let m = this.modules.get(key);
    if (!m) {
      m = this.device.createShaderModule({ label: k.label, code: k.code });
      this.modules.set(key, m);
    }
    return m;
  }
  private descriptor(k: Kernel): GPUComputePipelineDescriptor {
    return {
      label: `${k.label}:${k.entry}`,
      layout: 'auto',
      compute: { module: this.shaderModule(k), entryPoint: k.entry, constants: k.constants },
    };
  }
  /** Cache a new pipeline; each kernel key gets exactly one (counted in counters.pipelines). */
  private store(key: string, p: GPUComputePipeline): void {
    if (this.pipelines.has(key)) throw new Error(`internal: a second pipeline for kernel ${key}`);
    this.pipelines.set(key, p);
    this.counters.pipelines++;
  }
  /** Whether the pipeline of `k` is created (by prepare() or an earlier dispatch). */
  has(k: Kernel): boolean {
    return this.pipelines.has(kernelKey(k));
  }
  /** The cached pipeline of `k`; one not prepared yet is created synchronously (the queue waits for its compile). */
  get(k: Kernel): GPUComputePipeline {
    const key = kernelKey(k);
    let p = this.pipelines.get(key);
    if (!p) {
      p = this.device.createComputePipeline(this.descriptor(k));
      this.store(key, p);
    }
    return p;
  }
  /** See WebGpuBackend.prepare. */
  async prepare(
    ks: readonly Kernel[] = registeredKernels(),
    concurrency = PREPARE_CONCURRENCY,
  ): Promise<{ kernels: number; ms: number }> {
    const t0 = performance.now();
    const queue = [...ks];
    const lane = async (): Promise<void> => {
      for (let k = queue.shift(); k; k = queue.shift()) await this.prepareOne(k);
    };
    await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, queue.length)) }, lane));
    return { kernels: ks.length, ms: performance.now() - t0 };
  }
  private prepareOne(k: Kernel): Promise<void> {
    const key = kernelKey(k);
    if (this.pipelines.has(key)) return Promise.resolve();
    let p = this.pending.get(key);
    if (!p) {
      const desc = this.descriptor(k);
      p = this.device
        .createComputePipelineAsync(desc)
        .then(
          (pipe) => {
            // a dispatch may have created it synchronously meanwhile: keep that one
            if (!this.pipelines.has(key) && this.gone() !== 'destroyed') this.store(key, pipe);
          },
          async (e: unknown) => {
            if (this.gone()) return; // reported as a lost device, not a compile error
            throw new Error(
              `WebGPU kernel ${k.label}:${k.entry} failed to compile: ${await compileErrors(desc.compute.module, e)}`,
            );
          },
        )
        .finally(() => this.pending.delete(key));
      this.pending.set(key, p);
    }
    return p;
  }
}
