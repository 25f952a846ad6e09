// Parity of the log-softmax kernels (shaders/logprob.wgsl, shaders/logprob_rows.wgsl) against
// src/engine/cpu/logprob.ts: log-probs, entropy, self-certainty, cross-entropy and both backward passes
// at awkward shapes and temperatures. Shapes pick their kernel variant as the backend does ('rows' up
// to V = 256); the forced-variant cases check the other one, so both variants are covered.
import type { Backend } from '../backend';
import type { Tensor } from '../tensor';
import type { CompareResult } from '../compare';
import type { GpuContext } from '../webgpu/context';
import type { OpArgs } from '../ops/table';
import * as lp from '../webgpu/ops/logprob';
import { type Pair, type ParityCase, pair, poisoned, randn, randInt } from './parityUtil';

/** Run `f` on both backends with the matching side of each pair. */
function both(gpu: Backend, cpu: Backend, f: (be: Backend, t: (p: Pair) => Tensor) => void): void {
  f(gpu, (p) => p.gpu);
  f(cpu, (p) => p.cpu);
}

// (N, V, temperature, logit scale): model-typical rows, V past the workgroup size (64), V in the
// thousands, and more rows than one grid dimension holds.
const shapes: [number, number, number, number][] = [
  [37, 29, 1, 2],
  [64, 20, 0.7, 3],
  [333, 41, 1.3, 2],
  [515, 37, 0.5, 4],
  [13, 1000, 0.9, 3],
  [5, 2503, 2, 5],
  [66001, 3, 1.1, 2], // more than 65535 rows: the workgroup grid goes 2-D
];

// (N, V, temperature, logit scale, variant) run with the variant each shape does not pick.
const forced: [number, number, number, number, lp.LogprobVariant][] = [
  [37, 29, 1, 2, 'workgroup'],
  [320, 16, 0.8, 3, 'workgroup'],
  [13, 1000, 0.9, 3, 'rows'],
  [7, 257, 1.2, 2, 'rows'],
];

/** The backend's logprob/cross-entropy ops, or on the GPU side the forced variant's kernels. */
function ops(be: Backend, gpu: Backend, v: lp.LogprobVariant | undefined) {
  if (!v || be !== gpu) return be;
  const ctx = gpu as unknown as GpuContext;
  return {
    logprobForward: (a: OpArgs<'logprobForward'>) => lp.logprobForward(ctx, a, v),
    crossEntropyForward: (a: OpArgs<'crossEntropyForward'>) => lp.crossEntropyForward(ctx, a, v),
    logprobBackward: (a: OpArgs<'logprobBackward'>) => lp.logprobBackward(ctx, a, v),
    crossEntropyBackward: (a: OpArgs<'crossEntropyBackward'>) => lp.crossEntropyBackward(ctx, a, v),
  };
}

async function forwardCase(
  gpu: Backend,
  cpu: Backend,
  N: number,
  V: number,
  T: number,
  sc: number,
  seed: number,
  v?: lp.LogprobVariant,
): Promise<CompareResult[]> {
  const logits = pair(gpu, cpu, [N, V], randn(N * V, seed, sc), 'logits');
  const targets = pair(gpu, cpu, [N], randInt(N, seed + 1, V), 'targets');
  const logp = poisoned(gpu, cpu, [N], 'f32', 'logp');
  const ent = poisoned(gpu, cpu, [N], 'f32', 'entropy');
  const cert = poisoned(gpu, cpu, [N], 'f32', 'certainty');
  const loss = poisoned(gpu, cpu, [N], 'f32', 'losses');
  both(gpu, cpu, (be, t) => {
    const o = ops(be, gpu, v);
    o.logprobForward({
      logp: t(logp),
      entropy: t(ent),
      certainty: t(cert),
      logits: t(logits),
      targets: t(targets),
      N,
      V,
      temperature: T,
    });
    o.crossEntropyForward({ losses: t(loss), logits: t(logits), targets: t(targets), N, V });
  });
  const tag = `N=${N} V=${V} T=${T} ${v ?? `(${lp.logprobVariant(V)})`}`;
  const res = [
    await logp.check(`logp ${tag}`),
    await ent.check(`entropy ${tag}`),
    await cert.check(`certainty ${tag}`),
    await loss.check(`crossEntropy fwd ${tag}`),
  ];
  for (const p of [logits, targets, logp, ent, cert, loss]) p.free();
  return res;
}

async function backwardCase(
  gpu: Backend,
  cpu: Backend,
  N: number,
  V: number,
  T: number,
  sc: number,
  seed: number,
  v?: lp.LogprobVariant,
): Promise<CompareResult[]> {
  const logits = pair(gpu, cpu, [N, V], randn(N * V, seed, sc), 'logits');
  const targets = pair(gpu, cpu, [N], randInt(N, seed + 1, V), 'targets');
  const weights = pair(gpu, cpu, [N], randn(N, seed + 2), 'weights');
  // gradients pre-filled with the same random values: checks accumulation and full coverage
  const dlp = pair(gpu, cpu, [N, V], randn(N * V, seed + 3), 'dlogits');
  const dce = pair(gpu, cpu, [N, V], randn(N * V, seed + 4), 'dlogits.ce');
  both(gpu, cpu, (be, t) => {
    const o = ops(be, gpu, v);
    o.logprobBackward({
      dlogits: t(dlp),
      logits: t(logits),
      targets: t(targets),
      weights: t(weights),
      N,
      V,
      temperature: T,
    });
    o.crossEntropyBackward({
      dlogits: t(dce),
      logits: t(logits),
      targets: t(targets),
      dlosses: t(weights),
      N,
      V,
    });
  });
  const tag = `N=${N} V=${V} T=${T} ${v ?? `(${lp.logprobVariant(V)})`}`;
  const res = [await dlp.check(`logprob bwd ${tag}`), await dce.check(`crossEntropy bwd ${tag}`)];
  for (const p of [logits, targets, weights, dlp, dce]) p.free();
  return res;
}

export const cases: ParityCase[] = [
  {
    name: 'logprob: forward (logp, entropy, certainty) and crossEntropyForward',
    async run(gpu, cpu) {
      const out: CompareResult[] = [];
      for (const [i, [N, V, T, sc]] of shapes.entries())
        out.push(...(await forwardCase(gpu, cpu, N, V, T, sc, 100 + 10 * i)));
      return out;
    },
  },
  {
    name: 'logprob: logprobBackward and crossEntropyBackward (accumulating)',
    async run(gpu, cpu) {
      const out: CompareResult[] = [];
      // the 2-D grid row indexing is shared with the forward kernels, checked there (SwiftShader is slow)
      for (const [i, [N, V, T, sc]] of shapes.entries()) {
        if (N <= 65535) out.push(...(await backwardCase(gpu, cpu, N, V, T, sc, 200 + 10 * i)));
      }
      return out;
    },
  },
  {
    name: 'logprob: forced variants (forward and backward)',
    async run(gpu, cpu) {
      const out: CompareResult[] = [];
      for (const [i, [N, V, T, sc, v]] of forced.entries()) {
        out.push(...(await forwardCase(gpu, cpu, N, V, T, sc, 400 + 10 * i, v)));
        out.push(...(await backwardCase(gpu, cpu, N, V, T, sc, 500 + 10 * i, v)));
      }
      return out;
    },
  },
  {
    name: 'logprob: null outputs (only logp; only entropy+certainty)',
    async run(gpu, cpu) {
      const N = 77;
      const V = 33;
      const T = 0.8;
      const logits = pair(gpu, cpu, [N, V], randn(N * V, 301, 2), 'logits');
      const targets = pair(gpu, cpu, [N], randInt(N, 302, V), 'targets');
      const logp = poisoned(gpu, cpu, [N], 'f32', 'logp');
      const ent = poisoned(gpu, cpu, [N], 'f32', 'entropy');
      const cert = poisoned(gpu, cpu, [N], 'f32', 'certainty');
      both(gpu, cpu, (be, t) => {
        be.logprobForward({
          logp: t(logp),
          entropy: null,
          certainty: null,
          logits: t(logits),
          targets: t(targets),
          N,
          V,
          temperature: T,
        });
        be.logprobForward({
          logp: null,
          entropy: t(ent),
          certainty: t(cert),
          logits: t(logits),
          targets: t(targets),
          N,
          V,
          temperature: T,
        });
      });
      const res = [
        await logp.check('logp only'),
        await ent.check('entropy (no logp)'),
        await cert.check('certainty (no logp)'),
      ];
      for (const p of [logits, targets, logp, ent, cert]) p.free();
      return res;
    },
  },
];
