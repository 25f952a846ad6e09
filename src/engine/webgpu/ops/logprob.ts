// WebGPU wrappers for shaders/logprob.wgsl (one workgroup per row). CPU twin: ../../cpu/logprob.ts.
import type { Tensor } from '../../backend';
import type { GpuContext, Kernel } from '../context';
import { U, F } from '../context';
import src from '../../../../shaders/logprob.wgsl?raw';

const kernel = (entry: string): Kernel => ({ label: 'logprob', code: src, entry });
const fwd = kernel('logprob_forward');
const ceFwd = kernel('crossentropy_forward');
const bwd = kernel('logprob_backward');

/** logp, entropy, certainty (N) of logits (N, V) / temperature; null outputs go to scratch. */
export function logprobForward(
  ctx: GpuContext, logp: Tensor | null, entropy: Tensor | null, certainty: Tensor | null,
  logits: Tensor, targets: Tensor, N: number, V: number, temperature: number,
): void {
  if (N === 0) return;
  // The kernel writes all three; a missing output lands in its own persistent scratch buffer.
  const lp = logp ?? ctx.scratch('logprob.logp', N);
  const ent = entropy ?? ctx.scratch('logprob.entropy', N);
  const cert = certainty ?? ctx.scratch('logprob.certainty', N);
  ctx.run(fwd, [lp, ent, cert, logits, targets], [U(N), U(V), F(temperature), F(1)], ctx.grid(N, 1));
}

/** dlogits (N, V) += weights[n] * (onehot - p) / temperature. */
export function logprobBackward(
  ctx: GpuContext, dlogits: Tensor, logits: Tensor, targets: Tensor, weights: Tensor,
  N: number, V: number, temperature: number,
): void {
  if (N === 0) return;
  ctx.run(bwd, [dlogits, logits, targets, weights], [U(N), U(V), F(temperature), F(1)], ctx.grid(N, 1));
}

/** losses (N) = -log softmax(logits[n])[targets[n]]. */
export function crossEntropyForward(ctx: GpuContext, losses: Tensor, logits: Tensor, targets: Tensor, N: number, V: number): void {
  if (N === 0) return;
  ctx.run(ceFwd, [losses, logits, targets], [U(N), U(V), F(1), F(1)], ctx.grid(N, 1));
}

/** dlogits (N, V) += dlosses[n] * (p - onehot): the logprob backward kernel with sign -1, T = 1. */
export function crossEntropyBackward(
  ctx: GpuContext, dlogits: Tensor, logits: Tensor, targets: Tensor, dlosses: Tensor, N: number, V: number,
): void {
  if (N === 0) return;
  ctx.run(bwd, [dlogits, logits, targets, dlosses], [U(N), U(V), F(1), F(-1)], ctx.grid(N, 1));
}
