// Parity of shaders/elementwise.wgsl against src/engine/cpu/elementwise.ts: GELU forward/backward
// (including large |x|, where a naive tanh overflows) and the residual add and its backward, at
// awkward sizes and at the MLP's size (B*T*4C).
import type { Backend } from '../backend';
import type { CompareResult } from '../compare';
import { type ParityCase, pair, poisoned, randn } from './parityUtil';

const sizes = [1, 37 * 45, 1000, 64 * 4 * 32 + 3, 512 * 4 * 128];

/** randn * 3 with a few extreme values spliced in (tanh saturation, x^3 overflow in f32). */
function geluInput(n: number, seed: number): Float32Array {
  const x = randn(n, seed, 3);
  [0, -0, 20, -20, 100, -100, 1e20, -1e20, 5.5, -5.5].forEach((v, i) => {
    if (i * 7 < n) x[i * 7] = v;
  });
  return x;
}

async function gelu(gpu: Backend, cpu: Backend, N: number, seed: number): Promise<CompareResult[]> {
  const inp = pair(gpu, cpu, [N], geluInput(N, seed), 'inp');
  const out = poisoned(gpu, cpu, [N], 'f32', 'out');
  const dout = pair(gpu, cpu, [N], randn(N, seed + 1), 'dout');
  const dinp = pair(gpu, cpu, [N], randn(N, seed + 2), 'dinp'); // pre-filled: accumulation + coverage
  for (const [be, s] of [
    [gpu, 'gpu'],
    [cpu, 'cpu'],
  ] as const) {
    be.geluForward({ out: out[s], inp: inp[s], N });
    be.geluBackward({ dinp: dinp[s], inp: inp[s], dout: dout[s], N });
  }
  const res = [await out.check(`gelu forward N=${N}`), await dinp.check(`gelu backward N=${N}`)];
  for (const p of [inp, out, dout, dinp]) p.free();
  return res;
}

async function residual(gpu: Backend, cpu: Backend, N: number, seed: number): Promise<CompareResult[]> {
  const a = pair(gpu, cpu, [N], randn(N, seed), 'a');
  const b = pair(gpu, cpu, [N], randn(N, seed + 1), 'b');
  const out = poisoned(gpu, cpu, [N], 'f32', 'out');
  const dout = pair(gpu, cpu, [N], randn(N, seed + 2), 'dout');
  const da = pair(gpu, cpu, [N], randn(N, seed + 3), 'da');
  const db = pair(gpu, cpu, [N], randn(N, seed + 4), 'db');
  for (const [be, s] of [
    [gpu, 'gpu'],
    [cpu, 'cpu'],
  ] as const) {
    be.residualForward({ out: out[s], a: a[s], b: b[s], N });
    be.residualBackward({ da: da[s], db: db[s], dout: dout[s], N });
  }
  const res = [
    await out.check(`residual forward N=${N}`, 0, 0),
    await da.check(`residual backward da N=${N}`, 0, 0),
    await db.check(`residual backward db N=${N}`, 0, 0),
  ];
  for (const p of [a, b, out, dout, da, db]) p.free();
  return res;
}

export const cases: ParityCase[] = [
  ...sizes.map((N, i) => ({
    name: `elementwise: gelu N=${N}`,
    run: (g: Backend, c: Backend) => gelu(g, c, N, 400 + 10 * i),
  })),
  ...sizes.map((N, i) => ({
    name: `elementwise: residual N=${N}`,
    run: (g: Backend, c: Backend) => residual(g, c, N, 500 + 10 * i),
  })),
];
