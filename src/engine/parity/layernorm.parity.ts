// Parity of shaders/layernorm.wgsl against the CPU twin src/engine/cpu/layernorm.ts.
import type { CompareResult } from '../compare';
import { layernormForward as cpuLayernormForward } from '../cpu/layernorm';
import { type ParityCase, pair, poisoned, randn } from './parityUtil';

/** Seeded rows with a non-zero mean and uneven scale, like a residual stream. */
function rows(N: number, C: number, seed: number): Float32Array {
  const a = randn(N * C, seed, 1.5);
  for (let i = 0; i < a.length; i++) a[i] += 0.3 + 0.1 * (i % 7);
  return a;
}

// (N, C): awkward sizes, C above and below the 64-thread row workgroup and the 32-channel tile,
// and the model's typical B*T = 64..512 rows with C = 32..128.
const shapes: [number, number][] = [[37, 45], [5, 3], [13, 200], [64, 32], [300, 96], [512, 128]];

export const cases: ParityCase[] = shapes.flatMap(([N, C], s): ParityCase[] => [
  {
    name: `layernorm: forward N=${N} C=${C}`,
    async run(gpu, cpu) {
      const inp = pair(gpu, cpu, [N, C], rows(N, C, 100 + s), 'inp');
      const w = pair(gpu, cpu, [C], randn(C, 200 + s, 0.5), 'weight');
      const bias = pair(gpu, cpu, [C], randn(C, 300 + s), 'bias');
      const out = poisoned(gpu, cpu, [N, C], 'f32', 'out');
      const mean = poisoned(gpu, cpu, [N], 'f32', 'mean');
      const rstd = poisoned(gpu, cpu, [N], 'f32', 'rstd');
      gpu.layernormForward(out.gpu, mean.gpu, rstd.gpu, inp.gpu, w.gpu, bias.gpu, N, C);
      cpu.layernormForward(out.cpu, mean.cpu, rstd.cpu, inp.cpu, w.cpu, bias.cpu, N, C);
      const res: CompareResult[] = [await out.check('out'), await mean.check('mean'), await rstd.check('rstd')];
      for (const p of [inp, w, bias, out, mean, rstd]) p.free();
      return res;
    },
  },
  {
    name: `layernorm: backward N=${N} C=${C}`,
    async run(gpu, cpu) {
      const x = rows(N, C, 400 + s);
      const weight = randn(C, 500 + s, 0.5);
      const m = new Float32Array(N);
      const r = new Float32Array(N);
      cpuLayernormForward(new Float32Array(N * C), m, r, x, weight, new Float32Array(C), N, C);
      const inp = pair(gpu, cpu, [N, C], x, 'inp');
      const w = pair(gpu, cpu, [C], weight, 'weight');
      const mean = pair(gpu, cpu, [N], m, 'mean');
      const rstd = pair(gpu, cpu, [N], r, 'rstd');
      const dout = pair(gpu, cpu, [N, C], randn(N * C, 600 + s), 'dout');
      // gradients pre-filled with the same random values: checks accumulation and coverage
      const dinp = pair(gpu, cpu, [N, C], randn(N * C, 700 + s), 'dinp');
      const dw = pair(gpu, cpu, [C], randn(C, 800 + s), 'dweight');
      const db = pair(gpu, cpu, [C], randn(C, 900 + s), 'dbias');
      gpu.layernormBackward(dinp.gpu, dw.gpu, db.gpu, dout.gpu, inp.gpu, w.gpu, mean.gpu, rstd.gpu, N, C);
      cpu.layernormBackward(dinp.cpu, dw.cpu, db.cpu, dout.cpu, inp.cpu, w.cpu, mean.cpu, rstd.cpu, N, C);
      const res = [await dinp.check('dinp'), await dw.check('dweight'), await db.check('dbias')];
      for (const p of [inp, w, mean, rstd, dout, dinp, dw, db]) p.free();
      return res;
    },
  },
]);
