// Parity of the layer norm kernels (shaders/layernorm.wgsl, shaders/layernorm_rows.wgsl) against the
// CPU twin src/engine/cpu/layernorm.ts. Shapes pick their kernel variant as the backend does; the
// forced-variant cases check the other one at awkward sizes, so both variants are covered.
import type { Backend } from '../backend';
import type { Tensor } from '../tensor';
import type { CompareResult } from '../compare';
import { layernormForward as cpuLayernormForward } from '../cpu/layernorm';
import type { GpuContext } from '../webgpu/context';
import * as ln from '../webgpu/ops/layernorm';
import { type ParityCase, pair, poisoned, randn } from './parityUtil';

/** Seeded rows with a non-zero mean and uneven scale, like a residual stream. */
function rows(N: number, C: number, seed: number): Float32Array {
  const a = randn(N * C, seed, 1.5);
  for (let i = 0; i < a.length; i++) a[i] += 0.3 + 0.1 * (i % 7);
  return a;
}

// (N, C, forced variant): awkward sizes, C above and below the 64-thread row workgroup and the
// 32-channel tile, N off the 4-row backward slices, and the model's typical B*T = 64..512 rows with
// C = 24..128; then the variant each shape does not pick.
const shapes: [number, number, ln.LayernormVariant?][] = [
  [37, 45],
  [5, 3],
  [13, 200],
  [64, 32],
  [300, 96],
  [512, 128],
  [320, 24],
  [37, 45, 'workgroup'],
  [5, 3, 'workgroup'],
  [320, 24, 'workgroup'],
  [13, 200, 'rows'],
  [1, 7, 'rows'],
  [18, 129, 'rows'],
];

function forward(
  be: Backend,
  gpu: Backend,
  v: ln.LayernormVariant | undefined,
  t: Tensor[],
  N: number,
  C: number,
): void {
  const [out, mean, rstd, inp, w, bias] = t;
  if (v && be === gpu)
    ln.layernormForward(gpu as unknown as GpuContext, { out, mean, rstd, inp, weight: w, bias, N, C }, v);
  else be.layernormForward({ out, mean, rstd, inp, weight: w, bias, N, C });
}

function backward(
  be: Backend,
  gpu: Backend,
  v: ln.LayernormVariant | undefined,
  t: Tensor[],
  N: number,
  C: number,
): void {
  const [dinp, dw, db, dout, inp, w, mean, rstd] = t;
  if (v && be === gpu)
    ln.layernormBackward(
      gpu as unknown as GpuContext,
      { dinp, dweight: dw, dbias: db, dout, inp, weight: w, mean, rstd, N, C },
      v,
    );
  else be.layernormBackward({ dinp, dweight: dw, dbias: db, dout, inp, weight: w, mean, rstd, N, C });
}

export const cases: ParityCase[] = shapes.flatMap(([N, C, v], s): ParityCase[] => [
  {
    name: `layernorm: forward N=${N} C=${C} ${v ?? `(${ln.layernormVariant(N, C)})`}`,
    async run(gpu, cpu) {
      const inp = pair(gpu, cpu, [N, C], rows(N, C, 100 + s), 'inp');
      const w = pair(gpu, cpu, [C], randn(C, 200 + s, 0.5), 'weight');
      const bias = pair(gpu, cpu, [C], randn(C, 300 + s), 'bias');
      const out = poisoned(gpu, cpu, [N, C], 'f32', 'out');
      const mean = poisoned(gpu, cpu, [N], 'f32', 'mean');
      const rstd = poisoned(gpu, cpu, [N], 'f32', 'rstd');
      forward(gpu, gpu, v, [out.gpu, mean.gpu, rstd.gpu, inp.gpu, w.gpu, bias.gpu], N, C);
      forward(cpu, gpu, v, [out.cpu, mean.cpu, rstd.cpu, inp.cpu, w.cpu, bias.cpu], N, C);
      const res: CompareResult[] = [
        await out.check('out'),
        await mean.check('mean'),
        await rstd.check('rstd'),
      ];
      for (const p of [inp, w, bias, out, mean, rstd]) p.free();
      return res;
    },
  },
  {
    name: `layernorm: backward N=${N} C=${C} ${v ?? `(${ln.layernormVariant(N, C)})`}`,
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
      backward(gpu, gpu, v, [dinp.gpu, dw.gpu, db.gpu, dout.gpu, inp.gpu, w.gpu, mean.gpu, rstd.gpu], N, C);
      backward(cpu, gpu, v, [dinp.cpu, dw.cpu, db.cpu, dout.cpu, inp.cpu, w.cpu, mean.cpu, rstd.cpu], N, C);
      const res = [await dinp.check('dinp'), await dw.check('dweight'), await db.check('dbias')];
      for (const p of [inp, w, mean, rstd, dout, dinp, dw, db]) p.free();
      return res;
    },
  },
]);
