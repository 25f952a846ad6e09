// Backend 'auto' with a measurement: a hardware WebGPU adapter is used as it is; a software one (SwiftShader,
// or an adapter marked as a fallback) is timed for about a second against the CPU engine on the default
// preset's decoding shapes, and the faster one trains, with the figures and the reason recorded.
import type { Backend } from './backend';
import { cpuFallback, selectBackend, type BackendPreference, type SelectedBackend } from './select';

/** Rows (B × K = 16 × 8), width and MLP width of the default preset's decoding: the shapes timed. */
const ROWS = 128,
  C = 32,
  H = 128;
/** Chains (matmul, GELU, matmul) queued per readback, as a decode step queues its dispatches. */
const CHAINS_PER_READ = 16;

/** One backend's probe: a round queues CHAINS_PER_READ chains (matmul C→H, GELU, matmul H→C) and reads back. */
function makeProbe(be: Backend): { round(): Promise<void>; free(): void } {
  const rnd = (n: number, seed: number) =>
    Float32Array.from({ length: n }, (_, i) => Math.sin(i * 12.9898 + seed) * 0.1);
  const t = {
    x: be.alloc([ROWS * C], 'f32', 'probe.x'),
    w1: be.alloc([H * C], 'f32', 'probe.w1'),
    b1: be.alloc([H], 'f32', 'probe.b1'),
    h: be.alloc([ROWS * H], 'f32', 'probe.h'),
    g: be.alloc([ROWS * H], 'f32', 'probe.g'),
    w2: be.alloc([C * H], 'f32', 'probe.w2'),
    b2: be.alloc([C], 'f32', 'probe.b2'),
    y: be.alloc([ROWS * C], 'f32', 'probe.y'),
  };
  be.write(t.x, rnd(ROWS * C, 1));
  be.write(t.w1, rnd(H * C, 2));
  be.write(t.b1, rnd(H, 3));
  be.write(t.w2, rnd(C * H, 4));
  be.write(t.b2, rnd(C, 5));
  return {
    async round() {
      for (let i = 0; i < CHAINS_PER_READ; i++) {
        be.matmulForward(t.h, t.x, t.w1, t.b1, ROWS, C, H);
        be.geluForward(t.g, t.h, ROWS * H);
        be.matmulForward(t.y, t.g, t.w2, t.b2, ROWS, H, C);
      }
      await be.readMany([t.y]);
    },
    free() {
      for (const x of Object.values(t)) be.free(x);
    },
  };
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/**
 * Chains per second of each backend: one untimed warm-up round each (pipeline compilation, JIT), then
 * rounds ALTERNATING between the two for about 2 × `budgetMs`, each timed alone, and the median round
 * of each: a load that changes during the measurement hits both alike. Frees what it allocated.
 */
export async function probeRates(
  a: Backend,
  b: Backend,
  budgetMs: number,
  now: () => number = () => performance.now(),
): Promise<[number, number]> {
  const pa = makeProbe(a);
  const pb = makeProbe(b);
  try {
    await pa.round();
    await pb.round();
    const ta: number[] = [];
    const tb: number[] = [];
    const t0 = now();
    do {
      for (const [p, out] of [
        [pa, ta],
        [pb, tb],
      ] as const) {
        const t = now();
        await p.round();
        out.push(now() - t);
      }
    } while (now() - t0 < 2 * budgetMs || ta.length < 3);
    const rate = (ms: number[]) => (CHAINS_PER_READ * 1000) / Math.max(1e-6, median(ms));
    return [rate(ta), rate(tb)];
  } finally {
    pa.free();
    pb.free();
  }
}

/**
 * The CPU engine 'auto' falls back to, the same one select.ts falls back to: the wasm SIMD engine, or the
 * CPU reference where WebAssembly SIMD is missing. The measurement compares the adapter against the engine
 * that would really train.
 */
export async function cpuEngine(): Promise<Backend> {
  return (await cpuFallback()).backend;
}

/** How `auto` decided, for the engine line. */
export interface AutoDecision extends SelectedBackend {
  /** Why this backend, with the measured figures ('' when no measurement was needed). */
  note: string;
}

/** What the measured choice needs; injectable for tests. */
export interface AutoEnv {
  /** Select a backend the plain way (default: select.ts). */
  select?: (pref: BackendPreference) => Promise<SelectedBackend>;
  /** The CPU engine the fallback uses (default: cpuEngine(), which the fallback of select.ts also means). */
  makeCpu?: () => Backend | Promise<Backend>;
  /** Milliseconds each candidate is timed (default 300: about a second in all with the warm-ups). */
  budgetMs?: number;
  /** Chains per second of (adapter, CPU engine) (default probeRates). */
  measure?: (gpu: Backend, cpu: Backend, budgetMs: number) => Promise<[number, number]>;
}

/**
 * `selectBackend`, except that `auto` on a software WebGPU adapter times it against the CPU engine and
 * keeps the faster one (destroying the other). 'webgpu', 'cpu' and hardware adapters are unchanged.
 */
export async function selectMeasuredBackend(
  pref: BackendPreference,
  env: AutoEnv = {},
): Promise<AutoDecision> {
  const select = env.select ?? selectBackend;
  const first = await select(pref);
  if (pref !== 'auto' || first.backend.info.name !== 'webgpu' || !first.backend.info.software)
    return { ...first, note: '' };
  const budget = env.budgetMs ?? 300;
  const measure = env.measure ?? probeRates;
  const gpu = first.backend;
  const cpu = await (env.makeCpu ?? cpuEngine)();
  let gpuRate: number, cpuRate: number;
  const t0 = performance.now();
  try {
    [gpuRate, cpuRate] = await measure(gpu, cpu, budget);
  } catch (e) {
    cpu.destroy();
    return {
      ...first,
      note: `auto: the software adapter could not be timed against the CPU engine (${e instanceof Error ? e.message : String(e)}); WebGPU kept`,
    };
  }
  const figures = `software WebGPU adapter (${gpu.info.adapter}) ${gpuRate.toFixed(0)} vs CPU engine (${cpu.info.adapter}) ${cpuRate.toFixed(0)} matmul-GELU-matmul chains/s on the default shapes, timed in ${Math.round(performance.now() - t0)} ms`;
  if (cpuRate > gpuRate) {
    gpu.destroy();
    return {
      backend: cpu,
      fallbackReason: `auto measured: ${figures}, so the CPU engine is ${(cpuRate / gpuRate).toFixed(1)}x faster and trains (pick WebGPU in the settings to use the adapter anyway).`,
      note: 'measured',
    };
  }
  cpu.destroy();
  return {
    backend: gpu,
    fallbackReason: '',
    note: `auto measured: ${figures}, so WebGPU is ${(gpuRate / cpuRate).toFixed(1)}x faster and trains.`,
  };
}
