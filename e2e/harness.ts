// Browser-side test harness: collects every parity case in src/engine/parity/*.parity.ts and
// exposes them on window.harness for the Playwright specs to run one by one.
import { CpuBackend } from '../src/engine/cpu/cpuBackend';
import { WebGpuBackend } from '../src/engine/webgpu/webgpuBackend';
import type { ParityCase } from '../src/engine/parity/parityUtil';
import { describeCompare } from '../src/engine/compare';

const modules = import.meta.glob<{ cases: ParityCase[] }>('../src/engine/parity/*.parity.ts', {
  eager: true,
});
const cases = new Map<string, ParityCase>();
for (const m of Object.values(modules)) for (const c of m.cases) cases.set(c.name, c);

let gpuPromise: Promise<WebGpuBackend> | null = null;
const gpu = (): Promise<WebGpuBackend> => (gpuPromise ??= WebGpuBackend.create());

/** Extra browser-side checks registered by other modules (model parity, generation, ...). */
const extras = import.meta.glob<{ checks: Record<string, (g: WebGpuBackend) => Promise<unknown>> }>(
  '../src/**/*.browsercheck.ts',
  { eager: true },
);
const checks = new Map<string, (g: WebGpuBackend) => Promise<unknown>>();
for (const m of Object.values(extras)) for (const [k, f] of Object.entries(m.checks)) checks.set(k, f);

const harness = {
  async adapter(): Promise<string> {
    return (await gpu()).info.adapter;
  },
  parityNames(): string[] {
    return [...cases.keys()];
  },
  async parity(name: string): Promise<{ ok: boolean; lines: string[] }> {
    const c = cases.get(name);
    if (!c) throw new Error(`unknown parity case ${name}; known: ${[...cases.keys()].join(', ')}`);
    const results = await c.run(await gpu(), new CpuBackend());
    return { ok: results.length > 0 && results.every((r) => r.ok), lines: results.map(describeCompare) };
  },
  checkNames(): string[] {
    return [...checks.keys()];
  },
  async check(name: string): Promise<unknown> {
    const f = checks.get(name);
    if (!f) throw new Error(`unknown check ${name}; known: ${[...checks.keys()].join(', ')}`);
    return f(await gpu());
  },
};
(window as unknown as { harness: typeof harness }).harness = harness;
document.title = 'harness ready';
