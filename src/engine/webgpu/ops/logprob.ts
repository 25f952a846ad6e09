// WebGPU wrappers for the temperature log-softmax kernels. CPU twin: ../../cpu/logprob.ts.
// Two variants, chosen per vocabulary size by logprobVariant:
//  - 'rows' (shaders/logprob_rows.wgsl): one invocation per row, no workgroup memory or barriers;
//    for small vocabularies (the model's V = 16);
//  - 'workgroup' (shaders/logprob.wgsl): one workgroup of 64 threads per row with tree reductions;
//    for large vocabularies.
import type { OpArgs } from '../../ops/table';
import type { Tensor } from '../../tensor';
import type { GpuContext, Kernel } from '../context';
import { U, F, defineKernel } from '../context';
import common from '../../../../shaders/common.wgsl?raw';
import src from '../../../../shaders/logprob.wgsl?raw';
import rowsSrc from '../../../../shaders/logprob_rows.wgsl?raw';

const kernel = (entry: string): Kernel => defineKernel({ label: 'logprob', code: src, entry });
const fwd = kernel('logprob_forward');
const ceFwd = kernel('crossentropy_forward');
const bwd = kernel('logprob_backward');

const ROWS_WG = 32; // rows per workgroup, as in logprob_rows.wgsl
const rowsKernel = (entry: string): Kernel =>
  defineKernel({ label: 'logprob_rows', code: common + rowsSrc, entry });
const fwdRows = rowsKernel('logprob_forward_rows');
const ceFwdRows = rowsKernel('crossentropy_forward_rows');
const bwdRows = rowsKernel('logprob_backward_rows');

export type LogprobVariant = 'rows' | 'workgroup';

/** The variant for rows of V logits: a row per invocation up to V = 256, else a workgroup per row. */
export function logprobVariant(V: number): LogprobVariant {
  return V <= 256 ? 'rows' : 'workgroup';
}

/** Run `k` ('workgroup': one group per row) or its 'rows' twin (one invocation per row). */
function dispatch(
  ctx: GpuContext,
  variant: LogprobVariant,
  k: Kernel,
  kRows: Kernel,
  tensors: Tensor[],
  N: number,
  V: number,
  temp: number,
  sign: number,
): void {
  const p = [U(N), U(V), F(temp), F(sign)];
  if (variant === 'rows') ctx.run(kRows, tensors, p, ctx.grid(N, ROWS_WG));
  else ctx.run(k, tensors, p, ctx.grid(N, 1));
}

/** logp, entropy, certainty (N) of logits (N, V) / temperature; null outputs go to scratch. */
export function logprobForward(
  ctx: GpuContext,
  { logp, entropy, certainty, logits, targets, N, V, temperature }: OpArgs<'logprobForward'>,
  variant: LogprobVariant = logprobVariant(V),
): void {
  if (N === 0) return;
  // The kernel writes all three; a missing output lands in its own persistent scratch buffer.
  const lp = logp ?? ctx.scratch('logprob.logp', N);
  const ent = entropy ?? ctx.scratch('logprob.entropy', N);
  const cert = certainty ?? ctx.scratch('logprob.certainty', N);
  dispatch(ctx, variant, fwd, fwdRows, [lp, ent, cert, logits, targets], N, V, temperature, 1);
}

/** dlogits (N, V) += weights[n] * (onehot - p) / temperature. */
export function logprobBackward(
  ctx: GpuContext,
  { dlogits, logits, targets, weights, N, V, temperature }: OpArgs<'logprobBackward'>,
  variant: LogprobVariant = logprobVariant(V),
): void {
  if (N === 0) return;
  dispatch(ctx, variant, bwd, bwdRows, [dlogits, logits, targets, weights], N, V, temperature, 1);
}

/** losses (N) = -log softmax(logits[n])[targets[n]]. */
export function crossEntropyForward(
  ctx: GpuContext,
  { losses, logits, targets, N, V }: OpArgs<'crossEntropyForward'>,
  variant: LogprobVariant = logprobVariant(V),
): void {
  if (N === 0) return;
  dispatch(ctx, variant, ceFwd, ceFwdRows, [losses, logits, targets], N, V, 1, 1);
}

/** dlogits (N, V) += dlosses[n] * (p - onehot): the logprob backward kernel with sign -1, T = 1. */
export function crossEntropyBackward(
  ctx: GpuContext,
  { dlogits, logits, targets, dlosses, N, V }: OpArgs<'crossEntropyBackward'>,
  variant: LogprobVariant = logprobVariant(V),
): void {
  if (N === 0) return;
  dispatch(ctx, variant, bwd, bwdRows, [dlogits, logits, targets, dlosses], N, V, 1, -1);
}
