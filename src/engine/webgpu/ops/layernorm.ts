// WebGPU wrappers for shaders/layernorm.wgsl (llm.c layernorm_forward/backward).
// CPU twin: src/engine/cpu/layernorm.ts.
import type { Tensor } from '../../backend';
import type { GpuContext, Kernel } from '../context';
import { U, cdiv } from '../context';
import code from '../../../../shaders/layernorm.wgsl?raw';

const WG = 64; // threads per row, as in the shader
const PC = 32; // channels per workgroup of layernorm_backward_params
const fwd: Kernel = { label: 'layernorm', code, entry: 'layernorm_forward' };
const bwd: Kernel = { label: 'layernorm', code, entry: 'layernorm_backward' };
const bwdParams: Kernel = { label: 'layernorm', code, entry: 'layernorm_backward_params' };

/** out (N,C) = layernorm(inp) * weight + bias; saves mean (N) and rstd (N). One workgroup per row. */
export function layernormForward(
  ctx: GpuContext, out: Tensor, mean: Tensor, rstd: Tensor, inp: Tensor, weight: Tensor, bias: Tensor,
  N: number, C: number,
): void {
  if (N === 0 || C === 0) return;
  ctx.run(fwd, [out, mean, rstd, inp, weight, bias], [U(N), U(C)], ctx.grid(N * WG, WG));
}

/** dinp (N,C), dweight (C), dbias (C) += layernorm gradients; two dispatches, no atomics. */
export function layernormBackward(
  ctx: GpuContext, dinp: Tensor, dweight: Tensor, dbias: Tensor, dout: Tensor, inp: Tensor, weight: Tensor,
  mean: Tensor, rstd: Tensor, N: number, C: number,
): void {
  if (N === 0 || C === 0) return;
  ctx.run(bwd, [dinp, dout, inp, weight, mean, rstd], [U(N), U(C)], ctx.grid(N * WG, WG));
  ctx.run(bwdParams, [dweight, dbias, dout, inp, mean, rstd], [U(N), U(C)], [cdiv(C, PC)]);
}
