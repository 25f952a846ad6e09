// Backend 'auto' with a measurement: hardware adapters and explicit choices are untouched; a software
// adapter loses to a faster CPU engine (and wins against a slower one), the loser destroyed, the figures said.
import { describe, expect, it } from 'vitest';
import type { Backend } from './backend';
import { CpuBackend } from './cpu/cpuBackend';
import { probeRates, selectMeasuredBackend } from './autoSelect';

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
  it('a hardware adapter is used as it is, without measuring', async () => {
    const gpu = fakeGpu(false);
    let probed = 0;
    const r = await selectMeasuredBackend('auto', {
      select: async () => ({ backend: gpu, fallbackReason: '' }),
      measure: async () => [++probed, probed],
    });
    expect(r.backend).toBe(gpu);
    expect(r.note).toBe('');
    expect(probed).toBe(0);
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
