// WebGPU wrappers for the layer norm kernels (llm.c layernorm_forward/backward).
// CPU twin: src/engine/cpu/layernorm.ts. Two variants, chosen per shape by layernormVariant:
//  - 'rows' (shaders/layernorm_rows.wgsl): one invocation per row (forward) or per slice of rows
//    (backward, with a second pass adding the slices' parameter gradients); no workgroup memory or
//    barriers; for the model's short rows;
//  - 'workgroup' (shaders/layernorm.wgsl): one workgroup of 64 threads per row with tree reductions
//    through workgroup memory; for long rows (or very many rows) on a real GPU.
import type { OpArgs } from '../../ops/table';
import type { GpuContext } from '../context';
import { U, cdiv, defineKernel } from '../context';
import common from '../../../../shaders/common.wgsl?raw';
import code from '../../../../shaders/layernorm.wgsl?raw';
import rowsSrc from '../../../../shaders/layernorm_rows.wgsl?raw';

const WG = 64; // threads per row, as in layernorm.wgsl
const PC = 32; // channels per workgroup of layernorm_backward_params
const fwd = defineKernel({ label: 'layernorm', code, entry: 'layernorm_forward' });
const bwd = defineKernel({ label: 'layernorm', code, entry: 'layernorm_backward' });
const bwdParams = defineKernel({ label: 'layernorm', code, entry: 'layernorm_backward_params' });

const rowsCode = common + rowsSrc;
const ROWS_WG = 32; // invocations per workgroup, as in layernorm_rows.wgsl
const RS = 4; // rows per slice of layernorm_backward_rows
const fwdRows = defineKernel({ label: 'layernorm_rows', code: rowsCode, entry: 'layernorm_forward_rows' });
const bwdRows = defineKernel({ label: 'layernorm_rows', code: rowsCode, entry: 'layernorm_backward_rows' });
const sumRows = defineKernel({ label: 'layernorm_rows', code: rowsCode, entry: 'layernorm_params_sum_rows' });

export type LayernormVariant = 'rows' | 'workgroup';

/**
 * The variant for N rows of C channels: a row per invocation while rows are short (C <= 128) and the
 * per-channel sum over the N / 4 backward slices stays short (N <= 16384); else a workgroup per row.
 */
export function layernormVariant(N: number, C: number): LayernormVariant {
  return C <= 128 && N <= 16384 ? 'rows' : 'workgroup';
}

/** out (N,C) = layernorm(inp) * weight + bias; saves mean (N) and rstd (N). */
export function layernormForward(
  ctx: GpuContext,
  { out, mean, rstd, inp, weight, bias, N, C }: OpArgs<'layernormForward'>,
  variant: LayernormVariant = layernormVariant(N, C),
): void {
  if (N === 0 || C === 0) return;
  if (variant === 'rows') {
    ctx.run(fwdRows, [out, mean, rstd, inp, weight, bias], [U(N), U(C), U(0)], ctx.grid(N, ROWS_WG));
    return;
  }
  ctx.run(fwd, [out, mean, rstd, inp, weight, bias], [U(N), U(C)], ctx.grid(N * WG, WG));
}

/** dinp (N,C), dweight (C), dbias (C) += layernorm gradients; two dispatches, no atomics. */
export function layernormBackward(
  ctx: GpuContext,
  { dinp, dweight, dbias, dout, inp, weight, mean, rstd, N, C }: OpArgs<'layernormBackward'>,
  variant: LayernormVariant = layernormVariant(N, C),
): void {
  if (N === 0 || C === 0) return;
  if (variant === 'rows') {
    const S = cdiv(N, RS);
    const partial = ctx.scratch('layernorm.partial', S * 2 * C);
    const p = [U(N), U(C), U(S)];
    ctx.run(bwdRows, [dinp, partial, dout, inp, weight, mean, rstd], p, ctx.grid(S, ROWS_WG));
    ctx.run(sumRows, [dweight, dbias, partial], p, ctx.grid(C, ROWS_WG));
    return;
  }
  ctx.run(bwd, [dinp, dout, inp, weight, mean, rstd], [U(N), U(C)], ctx.grid(N * WG, WG));
  ctx.run(bwdParams, [dweight, dbias, dout, inp, mean, rstd], [U(N), U(C)], [cdiv(C, PC)]);
}
