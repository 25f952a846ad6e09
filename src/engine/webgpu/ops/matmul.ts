// WebGPU wrappers for shaders/matmul.wgsl (llm.c matmul_forward/backward).
// CPU twin: src/engine/cpu/matmul.ts.
import type { Tensor } from '../../backend';
import type { GpuContext, Kernel } from '../context';
import { U, cdiv } from '../context';
import code from '../../../../shaders/matmul.wgsl?raw';

const TILE = 64; // output rows and columns per workgroup, as in the shader
const fwd: Kernel = { label: 'matmul', code, entry: 'matmul_forward' };
const fwdNoBias: Kernel = { label: 'matmul', code, entry: 'matmul_forward_nobias' };
const bwdInp: Kernel = { label: 'matmul', code, entry: 'matmul_backward_dinp' };
const bwdWeight: Kernel = { label: 'matmul', code, entry: 'matmul_backward_dweight' };
const bwdBias: Kernel = { label: 'matmul', code, entry: 'matmul_backward_dbias' };

/** out (N,OC) = inp (N,C) @ weight (OC,C)^T + bias (OC, optional). One 64x64 output tile per workgroup. */
export function matmulForward(
  ctx: GpuContext, out: Tensor, inp: Tensor, weight: Tensor, bias: Tensor | null, N: number, C: number, OC: number,
): void {
  if (N === 0 || OC === 0) return;
  const groups = [cdiv(OC, TILE), cdiv(N, TILE)];
  const params = [U(N), U(C), U(OC)];
  if (bias) ctx.run(fwd, [out, inp, weight, bias], params, groups);
  else ctx.run(fwdNoBias, [out, inp, weight], params, groups);
}

/**
 * dinp (N,C) += dout @ weight (skipped if null); dweight (OC,C) += dout^T @ inp; dbias (OC) += column
 * sums of dout (if given). Up to three dispatches, each a plain deterministic reduction.
 */
export function matmulBackward(
  ctx: GpuContext, dinp: Tensor | null, dweight: Tensor, dbias: Tensor | null, dout: Tensor, inp: Tensor,
  weight: Tensor, N: number, C: number, OC: number,
): void {
  const params = [U(N), U(C), U(OC)];
  if (dinp && N > 0 && C > 0) ctx.run(bwdInp, [dinp, dout, weight], params, [cdiv(C, TILE), cdiv(N, TILE)]);
  if (OC > 0 && C > 0) ctx.run(bwdWeight, [dweight, dout, inp], params, [cdiv(C, TILE), cdiv(OC, TILE)]);
  if (dbias && OC > 0) ctx.run(bwdBias, [dbias, dout], params, [cdiv(OC, 64)]);
}
