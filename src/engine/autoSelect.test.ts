// Backend 'auto' with a measurement: explicit choices are untouched; an adapter, hardware or software, loses
// to a faster CPU engine (and wins against a slower one), the loser destroyed, the figures said; the
// decision is cached per adapter and shape, and the cohort's shape is what is timed.
import { describe, expect, it } from 'vitest';
import type { Backend } from './backend';
import { CpuBackend } from './cpu/cpuBackend';
import { DEFAULT_AUTO_SHAPE, probeRates, selectMeasuredBackend, type AutoShape } from './autoSelect';
import type { KvStore } from './idbKv';

/** An in-memory decision cache that counts its reads and writes. */
function memCache(): KvStore & { map: Map<string, unknown>; writes: number } {
  const map = new Map<string, unknown>();
  const c = {
    map,
    writes: 0,
    get: async (k: string) => map.get(k) ?? null,
    set: async (k: string, v: unknown) => (c.writes++, map.set(k, v), true),
  };
  return c;
}

/** A CPU backend dressed as a WebGPU adapter (software or not), recording destroy(). */
function fakeGpu(software: boolean): Backend & { destroyed: boolean } {
  const be = new CpuBackend() as unknown as Backend & { destroyed: boolean; info: Backend['info'] };
  Object.defineProperty(be, 'info', {
    value: {
      name: 'webgpu',
      adapter: software ? 'google swiftshader' : 'nvidia hopper',
      features: [],
      software,
    },
  });
  be.destroyed = false;
  const d = be.destroy.bind(be);
  be.destroy = () => ((be.destroyed = true), d());
  return be;
}

describe('selectMeasuredBackend', () => {
  it('a fast hardware adapter is measured and kept, with both figures', async () => {
    const gpu = fakeGpu(false);
    const r = await selectMeasuredBackend('auto', {
      select: async () => ({ backend: gpu, fallbackReason: '' }),
      makeCpu: () => new CpuBackend(),
      measure: async () => [5000, 400],
      cache: null,
    });
    expect(r.backend).toBe(gpu);
    expect(r.fallbackReason).toBe('');
    expect(r.note).toMatch(
      /^auto measured: hardware WebGPU adapter \(nvidia hopper\) 5000 vs CPU engine .* 400 .*WebGPU is 12\.5x faster/,
    );
  });

  it('a slow hardware adapter loses to the CPU engine and is named with both figures', async () => {
    const gpu = fakeGpu(false);
    const cpu = new CpuBackend();
    const r = await selectMeasuredBackend('auto', {
      select: async () => ({ backend: gpu, fallbackReason: '' }),
      makeCpu: () => cpu,
      measure: async () => [90, 300],
      cache: null,
    });
    expect(r.backend).toBe(cpu);
    expect(gpu.destroyed).toBe(true);
    expect(r.fallbackReason).toMatch(
      /^auto measured: hardware WebGPU adapter \(nvidia hopper\) 90 vs CPU engine .* 300 .*3\.3x faster and trains/,
    );
  });

  it("times the cohort's own shape, caches per adapter and shape, and reuses a cached decision", async () => {
    const cache = memCache();
    const shapes: AutoShape[] = [];
    const env = (gpu: Backend) => ({
      select: async () => ({ backend: gpu, fallbackReason: '' }),
      makeCpu: () => new CpuBackend(),
      measure: async (_g: Backend, _c: Backend, _b: number, s: AutoShape): Promise<[number, number]> => (
        shapes.push(s),
        [100, 250]
      ),
      cache,
    });
    const big: AutoShape = { rows: 256, C: 64, H: 256 };
    const a = await selectMeasuredBackend('auto', env(fakeGpu(false)), big);
    expect(shapes).toEqual([big]);
    expect(a.backend.info.name).toBe('cpu');
    expect(a.fallbackReason).toContain('256 rows x width 64 x MLP 256');
    expect(cache.writes).toBe(1);
    // the same adapter and shape: no measurement, the cached figures, the same choice
    const b = await selectMeasuredBackend('auto', env(fakeGpu(false)), big);
    expect(shapes).toHaveLength(1);
    expect(b.backend.info.name).toBe('cpu');
    expect(b.fallbackReason).toMatch(/100 vs CPU engine .* 250 .*cached \d{4}-\d\d-\d\d/);
    // another shape, or the software adapter at the same shape, is measured again
    await selectMeasuredBackend('auto', env(fakeGpu(false)), DEFAULT_AUTO_SHAPE);
    await selectMeasuredBackend('auto', env(fakeGpu(true)), big);
    expect(shapes).toEqual([big, DEFAULT_AUTO_SHAPE, big]);
    expect(cache.map.size).toBe(3);
  });

  it('a damaged cache record is measured again, not trusted', async () => {
    const cache = memCache();
    let probed = 0;
    const gpu = fakeGpu(false);
    const env = {
      select: async () => ({ backend: gpu, fallbackReason: '' }),
      makeCpu: () => new CpuBackend(),
      measure: async (): Promise<[number, number]> => (probed++, [300, 100]),
      cache,
    };
    await cache.set(`nvidia hopper|hardware|R128|C32|H128`, { choice: 'cpu', gpuRate: 'x' });
    const r = await selectMeasuredBackend('auto', env);
    expect(probed).toBe(1);
    expect(r.backend).toBe(gpu);
  });

  it("'webgpu' chosen in the settings keeps a software adapter without measuring", async () => {
    const gpu = fakeGpu(true);
    const r = await selectMeasuredBackend('webgpu', {
      select: async () => ({ backend: gpu, fallbackReason: '' }),
      measure: async () => [1, 1],
    });
    expect(r.backend).toBe(gpu);
    expect(r.note).toBe('');
  });

  it('a software adapter slower than the CPU engine gives way to it, with the figures', async () => {
    const gpu = fakeGpu(true);
    const cpu = new CpuBackend();
    const r = await selectMeasuredBackend('auto', {
      select: async () => ({ backend: gpu, fallbackReason: '' }),
      makeCpu: () => cpu,
      measure: async () => [100, 210],
      cache: null,
    });
    expect(r.backend).toBe(cpu);
    expect(gpu.destroyed).toBe(true);
    expect(r.fallbackReason).toMatch(
      /^auto measured: software WebGPU adapter \(google swiftshader\) 100 vs CPU engine .* 210 .*2\.1x faster/,
    );
  });

  it('a software adapter faster than the CPU engine stays, and says so', async () => {
    const gpu = fakeGpu(true);
    let cpuDestroyed = false;
    const cpu = new CpuBackend();
    cpu.destroy = () => void (cpuDestroyed = true);
    const r = await selectMeasuredBackend('auto', {
      select: async () => ({ backend: gpu, fallbackReason: '' }),
      makeCpu: () => cpu,
      measure: async () => [300, 100],
      cache: null,
    });
    expect(r.backend).toBe(gpu);
    expect(cpuDestroyed).toBe(true);
    expect(r.fallbackReason).toBe('');
    expect(r.note).toMatch(/WebGPU is 3\.0x faster/);
  });

  it('probeRates gives both backends a positive rate within about its budget', async () => {
    const a = new CpuBackend();
    const b = new CpuBackend();
    const t0 = performance.now();
    const [ra, rb] = await probeRates(a, b, 50);
    expect(ra).toBeGreaterThan(0);
    expect(rb).toBeGreaterThan(0);
    expect(performance.now() - t0).toBeLessThan(10_000);
  });
});
