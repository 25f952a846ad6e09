// Parity of shaders/optim.wgsl and shaders/optim_rows.wgsl against src/engine/cpu/optim.ts: the
// two-pass sum of squares at awkward sizes (also past the 1024-group cap, where threads loop), in the
// variant each size picks and in the other one, and AdamW steps with clipping active, inactive and
// absent, weight decay, from zero and from pre-filled moments.
import type { AdamWParams, Backend } from '../backend';
import type { Tensor } from '../tensor';
import type { CompareResult } from '../compare';
import type { GpuContext } from '../webgpu/context';
import * as optim from '../webgpu/ops/optim';
import { type ParityCase, pair, poisoned, randn } from './parityUtil';

// sumSquares in f32 vs float64: with N positive terms each invocation adds k = ceil(N / (G*256))
// squares in sequence, a 256-wide pairwise tree (depth 8) follows, then the final pass adds up to 4
// partials in sequence and another depth-8 tree. The relative error is at most about
// (k + 20) * 2^-24 ~ 1.3e-6 for N <= 262144 (k = 1), ~1.4e-6 at N = 300007 (k = 2); 1e-5 leaves ~7x.
// The 'rows' variant: each partial adds its k chunks of 256 squares on 16 lanes in sequence (16k
// additions deep) and a depth-4 tree, the final pass adds at most 1024 partials the same way (64 + 4
// deep): at most (16k + 72) * 2^-24 ~ 5.2e-6 (k = 1), ~6.2e-6 (k = 2), within the same 1e-5.
const SUMSQ_RTOL = 1e-5;

/** The backend's sumSquares, or on the GPU side the forced variant. */
function sumSq(gpu: Backend, out: Tensor, inp: Tensor, N: number, v?: optim.SumSquaresVariant): void {
  if (v) optim.sumSquares(gpu as unknown as GpuContext, { out, inp, N }, v);
  else gpu.sumSquares({ out, inp, N });
}

async function adamCase(
  gpu: Backend,
  cpu: Backend,
  N: number,
  clip: 'none' | 'active' | 'inactive',
  fromZero: boolean,
  seed: number,
): Promise<CompareResult[]> {
  const params = pair(gpu, cpu, [N], randn(N, seed, 0.5), 'params');
  const m = pair(gpu, cpu, [N], fromZero ? new Float32Array(N) : randn(N, seed + 1, 0.01), 'm');
  const v = pair(
    gpu,
    cpu,
    [N],
    fromZero ? new Float32Array(N) : randn(N, seed + 2, 0.01).map((x) => x * x),
    'v',
  );
  const grads = pair(gpu, cpu, [N], new Float32Array(N), 'grads');
  const normSq = poisoned(gpu, cpu, [1], 'f32', 'normSq');
  const maxNorm = clip === 'active' ? 0.3 : 1e6;
  const step0 = fromZero ? 1 : 10;
  for (let s = 0; s < 3; s++) {
    const g = randn(N, seed + 10 + s, 0.05);
    gpu.write(grads.gpu, g);
    cpu.write(grads.cpu, g);
    const hp: AdamWParams = {
      lr: 1e-2,
      beta1: 0.9,
      beta2: 0.999,
      eps: 1e-8,
      weightDecay: 0.1,
      step: step0 + s,
    };
    for (const [be, side] of [
      [gpu, 'gpu'],
      [cpu, 'cpu'],
    ] as const) {
      const t =
        side === 'gpu'
          ? { p: params.gpu, g: grads.gpu, m: m.gpu, v: v.gpu, n: normSq.gpu }
          : { p: params.cpu, g: grads.cpu, m: m.cpu, v: v.cpu, n: normSq.cpu };
      if (clip !== 'none') be.sumSquares({ out: t.n, inp: t.g, N });
      be.adamw({
        params: t.p,
        grads: t.g,
        m: t.m,
        v: t.v,
        normSq: clip === 'none' ? null : t.n,
        maxNorm,
        N,
        hp,
      });
    }
  }
  const tag = `N=${N} clip=${clip} ${fromZero ? 'steps 1-3' : 'steps 10-12, prefilled m/v'}`;
  // tighter than the default 1e-4 + 1e-4|ref|: an update moves params by ~1e-2, m ~ 1e-3, v ~ 1e-5
  const res = [
    await params.check(`adamw params ${tag}`, 1e-5, 1e-5),
    await m.check(`adamw m ${tag}`, 1e-7, 1e-4),
    await v.check(`adamw v ${tag}`, 1e-8, 1e-4),
  ];
  for (const p of [params, m, v, grads, normSq]) p.free();
  return res;
}

const sumSqCases = (name: string, sizes: number[], v?: optim.SumSquaresVariant): ParityCase => ({
  name,
  async run(gpu, cpu) {
    const out: CompareResult[] = [];
    for (const [i, N] of sizes.entries()) {
      const inp = pair(gpu, cpu, [N], randn(N, 500 + i), 'inp');
      const s = poisoned(gpu, cpu, [1], 'f32', 'sumsq');
      sumSq(gpu, s.gpu, inp.gpu, N, v);
      cpu.sumSquares({ out: s.cpu, inp: inp.cpu, N });
      const tag = `N=${N} ${v ?? `(${optim.sumSquaresVariant(N)})`}`;
      out.push(await s.check(`sumSquares ${tag} (rtol ${SUMSQ_RTOL})`, 0, SUMSQ_RTOL));
      // determinism: a second run gives the very same bits
      const first = (await gpu.read(s.gpu))[0];
      sumSq(gpu, s.gpu, inp.gpu, N, v);
      const again = (await gpu.read(s.gpu))[0];
      out.push({
        ...(await s.check(`sumSquares ${tag} repeat is bit-identical (${first} vs ${again})`, 0, SUMSQ_RTOL)),
        ok: first === again,
      });
      inp.free();
      s.free();
    }
    return out;
  },
});

export const cases: ParityCase[] = [
  sumSqCases(
    'optim: sumSquares (two-pass deterministic reduction)',
    [1, 255, 1000, 4099, 15192, 65537, 100003, 300007],
  ),
  sumSqCases('optim: sumSquares, forced variants', [1, 17, 4099, 65537], 'workgroup'),
  sumSqCases('optim: sumSquares, forced rows past its size', [300007], 'rows'),
  {
    name: 'optim: adamw (3 steps; clipping none/active/inactive; weight decay)',
    async run(gpu, cpu) {
      return [
        ...(await adamCase(gpu, cpu, 1000, 'none', true, 600)),
        ...(await adamCase(gpu, cpu, 4099, 'active', true, 610)),
        ...(await adamCase(gpu, cpu, 100003, 'active', false, 620)),
        ...(await adamCase(gpu, cpu, 33333, 'inactive', false, 630)),
      ];
    },
  },
];
