// The benchmark suite, run unchanged on either backend (Node for CPU, a browser page for WebGPU):
// matmul GFLOP/s at the model's shapes and the time of one supervised step of the tiny preset.
// Figures are medians of several timed repetitions after warm-up, wall-clock around sync().
import type { Backend } from '../engine/backend';
import { randn } from '../engine/parity/parityUtil';

/** A matmul shape: out (N,OC) = inp (N,C) @ weight (OC,C)^T. */
export interface MatmulShape {
  name: string;
  N: number;
  C: number;
  OC: number;
}

export interface MatmulFigure extends MatmulShape {
  ms: number;
  gflops: number;
}

export interface BackendReport {
  backend: string;
  adapter: string;
  timing: 'wall-clock';
  matmul: MatmulFigure[];
  extra: Record<string, unknown>;
}

/** The matmul shapes of a model with width C, MLP ratio 4, vocab V, for B*T rows. */
export function modelMatmulShapes(BT: number, C: number, V: number): MatmulShape[] {
  return [
    { name: 'qkv', N: BT, C, OC: 3 * C },
    { name: 'attproj', N: BT, C, OC: C },
    { name: 'fc', N: BT, C, OC: 4 * C },
    { name: 'fcproj', N: BT, C: 4 * C, OC: C },
    { name: 'lmhead', N: BT, C, OC: V },
  ];
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};

/** Median milliseconds of `fn` (reps awaited calls per sample, then sync), after `warmup` samples. */
export async function timeMs(
  backend: Backend, fn: () => void | Promise<unknown>, reps: number, samples = 5, warmup = 1,
): Promise<number> {
  const now = (): number => performance.now();
  const times: number[] = [];
  for (let s = 0; s < warmup + samples; s++) {
    await backend.sync();
    const t0 = now();
    for (let r = 0; r < reps; r++) await fn();
    await backend.sync();
    if (s >= warmup) times.push((now() - t0) / reps);
  }
  return median(times);
}

/** GFLOP/s of matmulForward at each shape. */
export async function benchMatmul(backend: Backend, shapes: MatmulShape[], reps: number): Promise<MatmulFigure[]> {
  const out: MatmulFigure[] = [];
  for (const s of shapes) {
    const inp = backend.alloc([s.N, s.C]);
    const w = backend.alloc([s.OC, s.C]);
    const b = backend.alloc([s.OC]);
    const o = backend.alloc([s.N, s.OC]);
    backend.write(inp, randn(s.N * s.C, 1));
    backend.write(w, randn(s.OC * s.C, 2));
    backend.write(b, randn(s.OC, 3));
    const ms = await timeMs(backend, () => backend.matmulForward(o, inp, w, b, s.N, s.C, s.OC), reps);
    out.push({ ...s, ms, gflops: (2 * s.N * s.C * s.OC) / (ms * 1e6) });
    for (const t of [inp, w, b, o]) backend.free(t);
  }
  return out;
}

/** The "tiny" model preset the step benchmark trains (the size of the playground's agents). */
export const TINY_BENCH = {
  model: { nLayer: 2, nHead: 2, nEmbd: 64, mlpRatio: 4, vocabSize: 24, blockSize: 16, pos: 'learned' as const, seed: 1 },
  /** Sequences per batch. */
  B: 32,
};
