// WebGPU wrappers for the optimizer kernels: two-pass sum of squares and AdamW (one dispatch over the
// whole flat parameter buffer). CPU twin: ../../cpu/optim.ts. The sum of squares has two variants,
// chosen by sumSquaresVariant: 'rows' (shaders/optim_rows.wgsl: one invocation per partial sum, no
// workgroup memory or barriers) up to 262144 elements, 'workgroup' (shaders/optim.wgsl: tree
// reductions through workgroup memory) beyond.
import type { OpArgs } from '../../ops/table';
import type { GpuContext, Kernel } from '../context';
import { U, F, cdiv, defineKernel } from '../context';
import common from '../../../../shaders/common.wgsl?raw';
import src from '../../../../shaders/optim.wgsl?raw';
import rowsSrc from '../../../../shaders/optim_rows.wgsl?raw';

const WG = 256;
/** At most this many partial sums (first-pass workgroups); past N = WG * MAX_GROUPS threads loop. */
const MAX_GROUPS = 1024;
const kernel = (entry: string): Kernel => defineKernel({ label: 'optim', code: common + src, entry });
const partialK = kernel('sumsquares_partial');
const finalK = kernel('sumsquares_final');
const adamK = kernel('adamw_update');
const ROWS_WG = 32; // invocations per workgroup of sumsquares_partial_rows
const ROWS_CHUNK = 256; // elements per chunk of sumsquares_partial_rows
const partialRows = defineKernel({
  label: 'optim_rows',
  code: common + rowsSrc,
  entry: 'sumsquares_partial_rows',
});
const finalRows = defineKernel({
  label: 'optim_rows',
  code: common + rowsSrc,
  entry: 'sumsquares_final_rows',
});

export type SumSquaresVariant = 'rows' | 'workgroup';

/** Most elements the 'rows' variant takes (one 256-element chunk per partial sum). */
export const SUMSQ_ROWS_MAX = MAX_GROUPS * ROWS_CHUNK;

/** 'rows' while every partial sum covers one chunk of 256 elements (N <= 1024 * 256), else 'workgroup'. */
export function sumSquaresVariant(N: number): SumSquaresVariant {
  return N <= SUMSQ_ROWS_MAX ? 'rows' : 'workgroup';
}

/**
 * out[0] = sum_i inp[i]^2, i < N: G = min(ceil(N/256), 1024) partial sums ('workgroup': one
 * workgroup each; 'rows': one invocation each) go into a scratch buffer, then one workgroup
 * (invocation) adds them. The grouping depends only on N: deterministic.
 */
export function sumSquares(
  ctx: GpuContext,
  { out, inp, N }: OpArgs<'sumSquares'>,
  variant: SumSquaresVariant = sumSquaresVariant(N),
): void {
  const G = Math.max(1, Math.min(cdiv(N, WG), MAX_GROUPS));
  const partials = ctx.scratch('optim.partials', G);
  if (variant === 'rows') {
    ctx.run(partialRows, [partials, inp], [U(N), U(G)], ctx.grid(G, ROWS_WG));
    ctx.run(finalRows, [out, partials], [U(N), U(G)], [1, 1]);
    return;
  }
  ctx.run(partialK, [partials, inp], [U(N), U(G)], [G, 1]);
  ctx.run(finalK, [out, partials], [U(N), U(G)], [1, 1]);
}

/** One AdamW step on params, m, v (N), optionally clipping by the global norm sqrt(normSq[0]). */
export function adamw(
  ctx: GpuContext,
  { params, grads, m, v, normSq, maxNorm, N, hp }: OpArgs<'adamw'>,
): void {
  if (N === 0) return;
  // Without clipping the kernel still binds a (never read) one-element buffer at normSq's slot.
  const ns = normSq ?? ctx.scratch('optim.nonorm', 1);
  const bc1 = 1 - Math.pow(hp.beta1, hp.step);
  const bc2 = 1 - Math.pow(hp.beta2, hp.step);
  ctx.run(
    adamK,
    [params, grads, m, v, ns],
    [
      U(N),
      U(normSq ? 1 : 0),
      F(maxNorm),
      F(hp.lr),
      F(hp.beta1),
      F(hp.beta2),
      F(1 - hp.beta1),
      F(1 - hp.beta2),
      F(hp.eps),
      F(hp.weightDecay),
      F(bc1),
      F(bc2),
    ],
    ctx.grid(N, WG),
  );
}
