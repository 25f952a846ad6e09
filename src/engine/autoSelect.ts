// Backend 'auto' with a measurement: the WebGPU adapter it got, hardware or software (SwiftShader, or an
// adapter marked as a fallback), is timed for about a second against the CPU engine on the cohort's own
// decoding shapes, and the faster one trains, with the figures and the reason recorded. The choice is cached
// per adapter, model width and B × K (IndexedDB where there is one), so the next start of the same cohort
// on the same adapter does not measure again.
import type { Backend } from './backend';
import { idbKv, type KvStore } from './idbKv';
import { cpuFallback, selectBackend, type BackendPreference, type SelectedBackend } from './select';

/** The decoding shapes timed: rows (B × K), model width and MLP width. */
export interface AutoShape {
  rows: number;
  C: number;
  H: number;
}
/** The default preset's (16 × 8 rows, width 32, MLP 128): what is timed when the cohort's is unknown. */
export const DEFAULT_AUTO_SHAPE: AutoShape = { rows: 128, C: 32, H: 128 };
const shapeText = (s: AutoShape): string => `${s.rows} rows x width ${s.C} x MLP ${s.H}`;
/** Chains (matmul, GELU, matmul) queued per readback, as a decode step queues its dispatches. */
const CHAINS_PER_READ = 16;

/** One backend's probe: a round queues CHAINS_PER_READ chains (matmul C→H, GELU, matmul H→C) and reads back. */
function makeProbe(be: Backend, shape: AutoShape): { round(): Promise<void>; free(): void } {
  const { rows: ROWS, C, H } = shape;
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
        be.matmulForward({ out: t.h, inp: t.x, weight: t.w1, bias: t.b1, N: ROWS, C, OC: H });
        be.geluForward({ out: t.g, inp: t.h, N: ROWS * H });
        be.matmulForward({ out: t.y, inp: t.g, weight: t.w2, bias: t.b2, N: ROWS, C: H, OC: C });
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
  shape: AutoShape = DEFAULT_AUTO_SHAPE,
): Promise<[number, number]> {
  const pa = makeProbe(a, shape);
  const pb = makeProbe(b, shape);
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

/** What the cache keeps of one decision. */
export interface AutoRecord {
  choice: 'webgpu' | 'cpu';
  gpuRate: number;
  cpuRate: number;
  /** The CPU engine it was timed against (its adapter line). */
  cpuEngine: string;
  at: string;
}

/** The cache key of a decision: the adapter, whether it is software, and the shapes. */
export const autoKey = (adapter: string, software: boolean, s: AutoShape): string =>
  `${adapter}|${software ? 'software' : 'hardware'}|R${s.rows}|C${s.C}|H${s.H}`;

function isRecord(x: unknown): x is AutoRecord {
  const r = x as AutoRecord;
  return (
    !!r &&
    (r.choice === 'webgpu' || r.choice === 'cpu') &&
    Number.isFinite(r.gpuRate) &&
    Number.isFinite(r.cpuRate) &&
    typeof r.cpuEngine === 'string' &&
    typeof r.at === 'string'
  );
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
  /** Chains per second of (adapter, CPU engine) at `shape` (default probeRates). */
  measure?: (gpu: Backend, cpu: Backend, budgetMs: number, shape: AutoShape) => Promise<[number, number]>;
  /** Where decisions are cached (default IndexedDB 'co-rl-auto-choice'; null: never cached). */
  cache?: KvStore | null;
}

const defaultCache = (): KvStore => idbKv('co-rl-auto-choice', 'choices');

/**
 * `selectBackend`, except that `auto` on a WebGPU adapter, hardware or software, times it against the CPU
 * engine on `shape` (or takes the cached decision for that adapter and shape) and keeps the faster one
 * (destroying the other). 'webgpu', 'wasm' and 'cpu' are unchanged.
 */
export async function selectMeasuredBackend(
  pref: BackendPreference,
  env: AutoEnv = {},
  shape: AutoShape = DEFAULT_AUTO_SHAPE,
): Promise<AutoDecision> {
  const select = env.select ?? selectBackend;
  const first = await select(pref);
  if (pref !== 'auto' || first.backend.info.name !== 'webgpu') return { ...first, note: '' };
  const gpu = first.backend;
  const kind = gpu.info.software ? 'software' : 'hardware';
  const cache = env.cache === undefined ? defaultCache() : env.cache;
  const key = autoKey(gpu.info.adapter, !!gpu.info.software, shape);
  const cached = cache ? await cache.get(key).catch(() => null) : null;
  if (isRecord(cached))
    return decide(gpu, null, cached, `cached ${cached.at.slice(0, 10)}`, kind, shape, env);
  const budget = env.budgetMs ?? 300;
  const measure = env.measure ?? ((g, c, b, s) => probeRates(g, c, b, undefined, s));
  const cpu = await (env.makeCpu ?? cpuEngine)();
  let gpuRate: number, cpuRate: number;
  const t0 = performance.now();
  try {
    [gpuRate, cpuRate] = await measure(gpu, cpu, budget, shape);
  } catch (e) {
    cpu.destroy();
    return {
      ...first,
      note: `auto: the ${kind} adapter could not be timed against the CPU engine (${e instanceof Error ? e.message : String(e)}); WebGPU kept`,
    };
  }
  const rec: AutoRecord = {
    choice: cpuRate > gpuRate ? 'cpu' : 'webgpu',
    gpuRate,
    cpuRate,
    cpuEngine: cpu.info.adapter,
    at: new Date().toISOString(),
  };
  await cache?.set(key, rec).catch(() => false);
  return decide(gpu, cpu, rec, `timed in ${Math.round(performance.now() - t0)} ms`, kind, shape, env);
}

/** The backend a decision picks (making the CPU engine when it came from the cache), with its lines. */
async function decide(
  gpu: Backend,
  madeCpu: Backend | null,
  r: AutoRecord,
  how: string,
  kind: string,
  shape: AutoShape,
  env: AutoEnv,
): Promise<AutoDecision> {
  const figures = `${kind} WebGPU adapter (${gpu.info.adapter}) ${r.gpuRate.toFixed(0)} vs CPU engine (${r.cpuEngine}) ${r.cpuRate.toFixed(0)} matmul-GELU-matmul chains/s on this cohort's shapes (${shapeText(shape)}), ${how}`;
  if (r.choice === 'cpu') {
    gpu.destroy();
    const cpu = madeCpu ?? (await (env.makeCpu ?? cpuEngine)());
    return {
      backend: cpu,
      fallbackReason: `auto measured: ${figures}, so the CPU engine is ${(r.cpuRate / r.gpuRate).toFixed(1)}x faster and trains (pick WebGPU in the settings to use the adapter anyway).`,
      note: 'measured',
    };
  }
  madeCpu?.destroy();
  return {
    backend: gpu,
    fallbackReason: '',
    note: `auto measured: ${figures}, so WebGPU is ${(r.gpuRate / r.cpuRate).toFixed(1)}x faster and trains.`,
  };
}
