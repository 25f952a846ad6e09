// Parity of shaders/matmul.wgsl against src/engine/cpu/matmul.ts: forward (with and without bias)
// and all three backward products, at awkward sizes (not multiples of the 64x64 tile or the K
// slice of 16) and at the model's typical shapes (qkv 3C, MLP 4C, logits V). Shapes pick their kernel
// variant as the backend does; the `variant` cases force the other one, so both the register-blocked
// and the shared-memory tiled kernels are checked at awkward sizes.
import type { Backend } from '../backend';
import type { Tensor } from '../tensor';
import type { GpuContext } from '../webgpu/context';
import * as mm from '../webgpu/ops/matmul';
import type { CompareResult } from '../compare';
import { Pair, type ParityCase, pair, poisoned, randn } from './parityUtil';

/** Run `f` on both backends with the matching side of each pair. */
function both(
  gpu: Backend,
  cpu: Backend,
  f: (be: Backend, t: (p: Pair | null) => Tensor | null) => void,
): void {
  f(gpu, (p) => (p ? p.gpu : null));
  f(cpu, (p) => (p ? p.cpu : null));
}

interface Shape {
  N: number;
  C: number;
  OC: number;
  bias?: boolean; // default true
  dinp?: boolean; // default true
  /** Bind the weight as a view 64 elements into a larger buffer (as views of a flat parameter buffer). */
  view?: boolean;
  /** Force this WebGPU kernel variant (default: the backend's choice for the shape). */
  variant?: mm.MatmulVariant;
}

const shapes: Shape[] = [
  { N: 37, C: 45, OC: 67 },
  { N: 1, C: 5, OC: 3 },
  { N: 70, C: 13, OC: 130, bias: false },
  { N: 64, C: 32, OC: 96, view: true }, // qkv, C=32
  { N: 129, C: 64, OC: 256, dinp: false }, // MLP fc, first layer without dinp
  { N: 200, C: 128, OC: 29, bias: false }, // logits, V=29
  { N: 512, C: 128, OC: 512 }, // MLP fc, B*T=512
  { N: 512, C: 512, OC: 128 }, // MLP proj
  // forced variants: tiled at shapes that pick blocked, blocked at rows/columns off its 8x8 blocks
  { N: 70, C: 32, OC: 130, variant: 'tiled' },
  { N: 129, C: 64, OC: 96, variant: 'tiled', view: true },
  { N: 37, C: 44, OC: 67, variant: 'blocked' },
  { N: 3, C: 4, OC: 1, variant: 'blocked', bias: false },
  { N: 1100, C: 256, OC: 260, variant: 'blocked', dinp: false }, // a shape that picks tiled
];

function weightPair(
  gpu: Backend,
  cpu: Backend,
  s: Shape,
  host: Float32Array,
): { w: Pair; base: Pair | null } {
  if (!s.view) return { w: pair(gpu, cpu, [s.OC, s.C], host, 'weight'), base: null };
  const n = s.OC * s.C;
  const big = randn(64 + n + 7, 99);
  big.set(host, 64);
  const base = pair(gpu, cpu, [64 + n + 7], big, 'params');
  const w = new Pair(
    gpu,
    cpu,
    gpu.view(base.gpu, 64, [s.OC, s.C], 'weight'),
    cpu.view(base.cpu, 64, [s.OC, s.C], 'weight'),
  );
  return { w, base };
}

async function run(gpu: Backend, cpu: Backend, s: Shape, seed: number): Promise<CompareResult[]> {
  const { N, C, OC } = s;
  const hasBias = s.bias ?? true;
  const hasDinp = s.dinp ?? true;
  const inp = pair(gpu, cpu, [N, C], randn(N * C, seed), 'inp');
  const { w: weight, base } = weightPair(gpu, cpu, s, randn(OC * C, seed + 1));
  const bias = hasBias ? pair(gpu, cpu, [OC], randn(OC, seed + 2), 'bias') : null;
  const out = poisoned(gpu, cpu, [N, OC], 'f32', 'out');
  const dout = pair(gpu, cpu, [N, OC], randn(N * OC, seed + 3), 'dout');
  // gradients pre-filled with the same random values: checks accumulation and full coverage
  const dinp = hasDinp ? pair(gpu, cpu, [N, C], randn(N * C, seed + 4), 'dinp') : null;
  const dweight = pair(gpu, cpu, [OC, C], randn(OC * C, seed + 5), 'dweight');
  const dbias = hasBias ? pair(gpu, cpu, [OC], randn(OC, seed + 6), 'dbias') : null;
  both(gpu, cpu, (be, t) => {
    const ins = { inp: t(inp)!, weight: t(weight)!, N, C, OC };
    const fwd = { out: t(out)!, bias: t(bias), ...ins };
    const bwd = { dinp: t(dinp), dweight: t(dweight)!, dbias: t(dbias), dout: t(dout)!, ...ins };
    if (s.variant && be === gpu) {
      const ctx = gpu as unknown as GpuContext;
      mm.matmulForward(ctx, fwd, s.variant);
      mm.matmulBackward(ctx, bwd, s.variant);
      return;
    }
    be.matmulForward(fwd);
    be.matmulBackward(bwd);
  });
  const tag = `N=${N} C=${C} OC=${OC}${s.variant ? ` ${s.variant}` : ''}`;
  const res = [await out.check(`forward ${tag}${hasBias ? '' : ' (no bias)'}`)];
  if (dinp) res.push(await dinp.check(`dinp ${tag}`));
  res.push(await dweight.check(`dweight ${tag}`));
  if (dbias) res.push(await dbias.check(`dbias ${tag}`));
  for (const p of [inp, bias, out, dout, dinp, dweight, dbias, base ?? weight]) p?.free();
  return res;
}

export const cases: ParityCase[] = shapes.map((s, i) => ({
  name: `matmul: N=${s.N} C=${s.C} OC=${s.OC}${s.bias === false ? ' no bias' : ''}${s.dinp === false ? ' no dinp' : ''}${s.view ? ' weight view' : ''}${s.variant ? ` ${s.variant}` : ` (${mm.matmulVariant(s.N, s.C, s.OC)})`}`,
  run: (gpu, cpu) => run(gpu, cpu, s, 100 + 10 * i),
}));
