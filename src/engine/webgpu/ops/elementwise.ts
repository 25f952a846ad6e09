// WebGPU wrappers for shaders/elementwise.wgsl (llm.c gelu_forward/backward, residual_forward/
// backward). CPU twin: src/engine/cpu/elementwise.ts.
import type { OpArgs } from '../../ops/table';
import type { Tensor } from '../../tensor';
import type { GpuContext, Kernel } from '../context';
import { U, defineKernel } from '../context';
import common from '../../../../shaders/common.wgsl?raw';
import src from '../../../../shaders/elementwise.wgsl?raw';

const code = common + src;
const WG = 256;
const geluFwd = defineKernel({ label: 'elementwise', code, entry: 'gelu_forward' });
const geluBwd = defineKernel({ label: 'elementwise', code, entry: 'gelu_backward' });
const resFwd = defineKernel({ label: 'elementwise', code, entry: 'residual_forward' });
const resBwd = defineKernel({ label: 'elementwise', code, entry: 'residual_backward' });

function run1d(ctx: GpuContext, k: Kernel, tensors: Tensor[], N: number): void {
  if (N > 0) ctx.run(k, tensors, [U(N)], ctx.grid(N, WG));
}

/** out (N) = GELU(inp), tanh approximation (GPT-2). */
export function geluForward(ctx: GpuContext, { out, inp, N }: OpArgs<'geluForward'>): void {
  run1d(ctx, geluFwd, [out, inp], N);
}

/** dinp (N) += GELU'(inp) * dout. */
export function geluBackward(ctx: GpuContext, { dinp, inp, dout, N }: OpArgs<'geluBackward'>): void {
  run1d(ctx, geluBwd, [dinp, inp, dout], N);
}

/** out (N) = a + b. */
export function residualForward(ctx: GpuContext, { out, a, b, N }: OpArgs<'residualForward'>): void {
  run1d(ctx, resFwd, [out, a, b], N);
}

/** da (N) += dout; db (N) += dout. */
export function residualBackward(ctx: GpuContext, { da, db, dout, N }: OpArgs<'residualBackward'>): void {
  run1d(ctx, resBwd, [da, db, dout], N);
}
