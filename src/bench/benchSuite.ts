// The benchmark suite's shared parts, run unchanged on either backend (Node for CPU, a browser page
// for WebGPU): the models of a cohort preset and their matmul shapes, shape selection, timing
// helpers (medians of several repetitions after warm-up) and the plain triple loop the CPU matmul
// is measured against.
import type { Backend } from '../engine/backend';
import type { GPTConfig } from '../model/config';
import { randn } from '../engine/parity/parityUtil';

/** A matmul shape: out (N,OC) = inp (N,C) @ weight (OC,C)^T (+ bias (OC) when `bias`). */
export interface MatmulShape {
  /** `<agent>.<phase>.<op>`, e.g. 'A.sft.qkv'. */
  name: string;
  N: number;
  C: number;
  OC: number;
  bias: boolean;
}

/** One agent of the benchmarked preset, with the batch shapes its training runs at. */
export interface BenchModel {
  /** Agent id in the preset ('A', 'B', ...). */
  agent: string;
  family: string;
  cfg: GPTConfig;
  /** Supervised (pretraining) batch: B rows of T input positions. */
  sft: { B: number; T: number };
  /** Co-RL step: rows = prompts x samples; prompt length Tp; completion slots maxNew. */
  rl: { rows: number; Tp: number; maxNew: number };
}

/** What a run is asked to measure (sent from the CLI to the page as plain data). */
export interface BenchPlan {
  preset: string;
  models: BenchModel[];
  shapes: MatmulShape[];
  /** Which agents' supervised step to time (empty: none). */
  sftAgents: string[];
  /** Matmuls per timed sample (back to back, one sync at the end). */
  matmulReps: number;
  /** Timed samples (the figure is their median) after `warmup` untimed ones. */
  samples: number;
  warmup: number;
  /** Supervised steps per timed sample. */
  sftReps: number;
  /** Time everything by wall clock even where the adapter has timestamp queries. */
  wallClock: boolean;
  /** Steps of the lean Co-RL step run (counts, memory after step 10 and this step; 0 = skip it). */
  leanSteps: number;
}

/** The five matmuls of a block + head at `N` rows, named `<prefix>.<op>`. */
function blockShapes(prefix: string, N: number, cfg: GPTConfig): MatmulShape[] {
  const C = cfg.nEmbd;
  const H = cfg.mlpRatio * C;
  return [
    { name: `${prefix}.qkv`, N, C, OC: 3 * C, bias: true },
    { name: `${prefix}.attproj`, N, C, OC: C, bias: true },
    { name: `${prefix}.fc`, N, C, OC: H, bias: true },
    { name: `${prefix}.fcproj`, N, C: H, OC: C, bias: true },
    { name: `${prefix}.lmhead`, N, C, OC: cfg.vocabSize, bias: false }, // tied to wte, no bias
  ];
}

/**
 * Every matmul shape a model runs at: the supervised step (B*T rows), one decode step of the Co-RL
 * rollouts (rows = B*K, one token each) and the Co-RL policy forward/backward (B*K rows of the whole
 * prompt + completion).
 */
export function modelMatmulShapes(m: BenchModel): MatmulShape[] {
  const policyT = m.rl.Tp + m.rl.maxNew - 1;
  return [
    ...blockShapes(`${m.agent}.sft`, m.sft.B * m.sft.T, m.cfg),
    ...blockShapes(`${m.agent}.decode`, m.rl.rows, m.cfg),
    ...blockShapes(`${m.agent}.policy`, m.rl.rows * policyT, m.cfg),
  ];
}

/** Thrown for a shape or preset name the benchmark does not know; the message lists the valid ones. */
export class UnknownBenchNameError extends Error {
  constructor(what: string, got: readonly string[], valid: readonly string[]) {
    super(
      `unknown ${what}${got.length > 1 ? 's' : ''} ${got.map((g) => JSON.stringify(g)).join(', ')}; valid: ${valid.join(', ')}`,
    );
    this.name = 'UnknownBenchNameError';
  }
}

/**
 * The shapes named in `filter` (comma-separated names; a name without dots, like 'qkv', or with one,
 * like 'A.sft', selects every shape it prefixes or ends). Null or '' keeps all. Throws listing the
 * valid names when a name matches nothing.
 */
export function selectShapes(all: readonly MatmulShape[], filter: string | null): MatmulShape[] {
  if (!filter) return [...all];
  const wanted = filter
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const matches = (s: MatmulShape, w: string): boolean =>
    s.name === w || s.name.startsWith(`${w}.`) || s.name.endsWith(`.${w}`);
  const unknown = wanted.filter((w) => !all.some((s) => matches(s, w)));
  if (unknown.length > 0 || wanted.length === 0) {
    throw new UnknownBenchNameError(
      'shape',
      unknown.length ? unknown : [filter],
      all.map((s) => s.name),
    );
  }
  return all.filter((s) => wanted.some((w) => matches(s, w)));
}

/** Median of a non-empty list. */
export const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};

/** GFLOP/s of an (N,C)x(C,OC) product taking `ms` milliseconds. */
export const gflops = (s: { N: number; C: number; OC: number }, ms: number): number =>
  (2 * s.N * s.C * s.OC) / (ms * 1e6);

/**
 * Median milliseconds per call of `fn`: each sample runs `reps` calls back to back, then `sync`
 * (GPU completion); `warmup` samples are run first and dropped.
 */
export async function timeMs(
  fn: () => void | Promise<unknown>,
  sync: () => Promise<unknown>,
  reps: number,
  samples = 5,
  warmup = 1,
): Promise<number> {
  const times: number[] = [];
  for (let s = 0; s < warmup + samples; s++) {
    await sync();
    const t0 = performance.now();
    for (let r = 0; r < reps; r++) await fn();
    await sync();
    if (s >= warmup) times.push((performance.now() - t0) / reps);
  }
  return median(times);
}

/** Input data of a matmul shape (the same seeds on every backend and library). */
export function matmulInputs(s: MatmulShape): {
  inp: Float32Array;
  weight: Float32Array;
  bias: Float32Array | null;
} {
  return {
    inp: randn(s.N * s.C, 1),
    weight: randn(s.OC * s.C, 2, 0.1),
    bias: s.bias ? randn(s.OC, 3) : null,
  };
}

/** Our matmulForward at `s` on `backend`: median ms per call, wall clock (reps calls, then read the output). */
export async function benchOurMatmul(
  backend: Backend,
  s: MatmulShape,
  plan: Pick<BenchPlan, 'matmulReps' | 'samples' | 'warmup'>,
): Promise<{ ms: number; out: Float32Array }> {
  const d = matmulInputs(s);
  const inp = backend.alloc([s.N, s.C]);
  const w = backend.alloc([s.OC, s.C]);
  const b = d.bias ? backend.alloc([s.OC]) : null;
  const o = backend.alloc([s.N, s.OC]);
  backend.write(inp, d.inp);
  backend.write(w, d.weight);
  if (b && d.bias) backend.write(b, d.bias);
  let out = new Float32Array(0);
  try {
    const ms = await timeMs(
      () => backend.matmulForward({ out: o, inp, weight: w, bias: b, N: s.N, C: s.C, OC: s.OC }),
      async () => {
        out = Float32Array.from(await backend.read(o));
      },
      plan.matmulReps,
      plan.samples,
      plan.warmup,
    );
    return { ms, out };
  } finally {
    for (const t of [inp, w, b, o]) if (t) backend.free(t);
  }
}

/** The plain triple loop: out[n,o] = bias[o] + sum_c inp[n,c] * weight[o,c]. */
export function naiveMatmul(
  out: Float32Array,
  inp: Float32Array,
  weight: Float32Array,
  bias: Float32Array | null,
  N: number,
  C: number,
  OC: number,
): void {
  for (let n = 0; n < N; n++) {
    for (let o = 0; o < OC; o++) {
      let s = bias ? bias[o] : 0;
      for (let c = 0; c < C; c++) s += inp[n * C + c] * weight[o * C + c];
      out[n * OC + o] = s;
    }
  }
}
