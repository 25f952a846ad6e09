// WebGpuBackend.prepare() against a scripted fake GPUDevice (Node, no GPU): every registered kernel gets
// one pipeline, a dispatch racing an in-flight async creation keeps its synchronous pipeline and the late
// async one is dropped, and a compile error (awaited or from create()'s background prepare) names its
// kernel. The real device is covered by e2e/pipelines.spec.ts.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { registeredKernels, type Kernel } from './context';
import { WebGpuBackend } from './webgpuBackend';

interface Deferred {
  label: string;
  resolve(): void;
  reject(e: Error): void;
}

/** A fake device: pipelines are plain objects; async creations wait until the test settles them (or `auto`). */
class FakeDevice {
  syncCreated: string[] = [];
  asyncAsked: string[] = [];
  modules = 0;
  deferred: Deferred[] = [];
  auto = true;
  /** Labels ('label:entry') whose creation fails to compile. */
  broken = new Set<string>();
  readonly lost = new Promise<never>(() => {});
  readonly features = new Set<string>();
  readonly queue = { writeBuffer() {}, submit() {}, onSubmittedWorkDone: () => Promise.resolve() };
  addEventListener() {}
  createBuffer() {
    return { destroy() {} };
  }
  createShaderModule(d: { label: string }) {
    this.modules++;
    return {
      label: d.label,
      getCompilationInfo: () =>
        Promise.resolve({
          messages: [{ type: 'error', lineNum: 3, linePos: 5, message: `bad code in ${d.label}` }],
        }),
    };
  }
  private pipeline(label: string) {
    return { label, getBindGroupLayout: () => ({}) };
  }
  createComputePipeline(d: { label: string }) {
    this.syncCreated.push(d.label);
    return this.pipeline(d.label);
  }
  createComputePipelineAsync(d: { label: string }) {
    this.asyncAsked.push(d.label);
    return new Promise((resolve, reject) => {
      const settle: Deferred = {
        label: d.label,
        resolve: () =>
          this.broken.has(d.label) ? reject(new Error('GPUPipelineError')) : resolve(this.pipeline(d.label)),
        reject,
      };
      if (this.auto) queueMicrotask(settle.resolve);
      else this.deferred.push(settle);
    });
  }
  createBindGroup() {
    return {};
  }
  createCommandEncoder() {
    return {
      beginComputePass: () => ({ setPipeline() {}, setBindGroup() {}, dispatchWorkgroups() {}, end() {} }),
      finish: () => ({}),
    };
  }
  destroy() {}
}

let device: FakeDevice;
const g = globalThis as Record<string, unknown>;
const saved = { navigator: g.navigator, GPUBufferUsage: g.GPUBufferUsage };

beforeEach(() => {
  device = new FakeDevice();
  const adapter = {
    features: new Set<string>(),
    limits: {},
    info: { vendor: 'fake' },
    requestDevice: () => Promise.resolve(device),
  };
  Object.defineProperty(globalThis, 'navigator', {
    value: { gpu: { requestAdapter: () => Promise.resolve(adapter) } },
    configurable: true,
  });
  g.GPUBufferUsage = { UNIFORM: 1, COPY_DST: 2, STORAGE: 4, COPY_SRC: 8, MAP_READ: 16 };
});
afterEach(() => {
  Object.defineProperty(globalThis, 'navigator', { value: saved.navigator, configurable: true });
  g.GPUBufferUsage = saved.GPUBufferUsage;
});

const name = (k: Kernel) => `${k.label}:${k.entry}`;
const tick = () => new Promise((r) => setTimeout(r, 0));

describe('WebGpuBackend.prepare', () => {
  it('creates one pipeline per registered kernel, asynchronously, one shader module per code', async () => {
    const be = await WebGpuBackend.create({ prepare: false });
    const ks = registeredKernels();
    const r = await be.prepare();
    expect(r.kernels).toBe(ks.length);
    expect(be.counters.pipelines).toBe(ks.length);
    expect(device.syncCreated).toEqual([]);
    expect([...device.asyncAsked].sort()).toEqual(ks.map(name).sort());
    expect(device.modules).toBe(new Set(ks.map((k) => `${k.label}\n${k.code}`)).size);
    expect(ks.every((k) => be.hasPipeline(k))).toBe(true);
    // a second prepare and a dispatch create nothing more
    await be.prepare();
    be.fill(be.alloc([4]), 1);
    expect(device.asyncAsked.length).toBe(ks.length);
    expect(device.syncCreated).toEqual([]);
    expect(be.counters.pipelines).toBe(ks.length);
  });

  it('keeps at most `concurrency` creations in flight', async () => {
    const be = await WebGpuBackend.create({ prepare: false });
    device.auto = false;
    const done = be.prepare(undefined, 2);
    await tick();
    expect(device.asyncAsked.length).toBe(2);
    while (device.deferred.length) {
      device.deferred.shift()!.resolve();
      await tick();
      expect(device.deferred.length).toBeLessThanOrEqual(2);
    }
    await done;
    expect(be.counters.pipelines).toBe(registeredKernels().length);
  });

  it('a dispatch racing an in-flight creation keeps its synchronous pipeline; the late async one is dropped', async () => {
    const be = await WebGpuBackend.create({ prepare: false });
    const fill = registeredKernels().find((k) => k.label === 'fill')!;
    device.auto = false;
    const done = be.prepare([fill]);
    await tick();
    expect(device.asyncAsked).toEqual(['fill:fill_forward']);
    be.fill(be.alloc([4]), 2); // needs the fill pipeline now: created synchronously
    expect(device.syncCreated).toEqual(['fill:fill_forward']);
    expect(be.counters.pipelines).toBe(1);
    device.deferred.shift()!.resolve();
    await done;
    expect(be.counters.pipelines).toBe(1);
    be.fill(be.alloc([4]), 3);
    expect(device.syncCreated.length).toBe(1);
  });

  it('a compile error names the kernel, awaited or from the background prepare of create()', async () => {
    const be = await WebGpuBackend.create({ prepare: false });
    const bad: Kernel = { label: 'broken', code: 'fn main( {', entry: 'main' };
    device.broken.add('broken:main');
    await expect(be.prepare([bad])).rejects.toThrow(
      'WebGPU kernel broken:main failed to compile: 3:5 bad code in broken',
    );
    expect(be.hasPipeline(bad)).toBe(false);

    const ks = registeredKernels();
    device.broken.add(name(ks[3]));
    const bg = await WebGpuBackend.create({ prepare: true });
    for (let i = 0; i < 20; i++) await tick();
    await expect(bg.sync()).rejects.toThrow(`WebGPU kernel ${name(ks[3])} failed to compile`);
    await expect(bg.sync()).resolves.toBeUndefined(); // reported once
  });
});
