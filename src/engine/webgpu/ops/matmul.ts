// WebGPU wrappers for the matmul kernels (llm.c matmul_forward/backward), CPU twin:
// src/engine/cpu/matmul.ts. Two variants, chosen per shape by matmulVariant:
//  - 'blocked' (shaders/matmul_blocked.wgsl): register blocks straight from storage, no workgroup
//    memory or barriers; for the model's small shapes (needs C % 4 == 0);
//  - 'tiled' (shaders/matmul.wgsl): 64x64 output tiles staged through workgroup memory; for large
//    shapes on a real GPU, and any C.
import type { OpArgs } from '../../ops/table';
import type { GpuContext } from '../context';
import { U, cdiv, defineKernel } from '../context';
import code from '../../../../shaders/matmul.wgsl?raw';
import blockedCode from '../../../../shaders/matmul_blocked.wgsl?raw';

const TILE = 64; // output rows and columns per workgroup of the tiled kernels
const fwd = defineKernel({ label: 'matmul', code, entry: 'matmul_forward' });
const fwdNoBias = defineKernel({ label: 'matmul', code, entry: 'matmul_forward_nobias' });
const bwdInp = defineKernel({ label: 'matmul', code, entry: 'matmul_backward_dinp' });
const bwdWeight = defineKernel({ label: 'matmul', code, entry: 'matmul_backward_dweight' });
const bwdBias = defineKernel({ label: 'matmul', code, entry: 'matmul_backward_dbias' });

const BLOCK_WG = 32; // invocations per workgroup of the blocked kernels
const FWD_ROWS = 8; // blocked forward: 8 rows x 8 columns per invocation
const FWD_COLS = 8;
const BWD_ROWS = 4; // blocked backward, any OC: 4 rows x 4 columns per invocation
const DINP_ROWS = 8; // blocked dinp with OC % 4 == 0: 8 rows x 4 columns per invocation
const fwdBlocked = defineKernel({
  label: 'matmul_blocked',
  code: blockedCode,
  entry: 'matmul_forward_blocked',
});
const fwdBlockedNoBias = defineKernel({
  label: 'matmul_blocked',
  code: blockedCode,
  entry: 'matmul_forward_blocked_nobias',
});
const bwdBlocked = defineKernel({
  label: 'matmul_blocked',
  code: blockedCode,
  entry: 'matmul_backward_blocked',
});
const bwdInpBlocked = defineKernel({
  label: 'matmul_blocked',
  code: blockedCode,
  entry: 'matmul_backward_dinp_blocked',
});
const bwdWeightBlocked = defineKernel({
  label: 'matmul_blocked',
  code: blockedCode,
  entry: 'matmul_backward_dweight_blocked',
});

export type MatmulVariant = 'blocked' | 'tiled';

/**
 * The variant for out (N,OC) = inp (N,C) @ weight^T and its backward: shared-memory tiles only when
 * every dimension is large (where their reuse pays for the barriers), else register blocks, which
 * need vec4 rows (C % 4 == 0).
 */
export function matmulVariant(N: number, C: number, OC: number): MatmulVariant {
  if (C % 4 !== 0) return 'tiled';
  return N >= 1024 && C >= 256 && OC >= 256 ? 'tiled' : 'blocked';
}

/** out (N,OC) = inp (N,C) @ weight (OC,C)^T + bias (OC, optional); `variant` overrides the choice. */
export function matmulForward(
  ctx: GpuContext,
  { out, inp, weight, bias, N, C, OC }: OpArgs<'matmulForward'>,
  variant: MatmulVariant = matmulVariant(N, C, OC),
): void {
  if (N === 0 || OC === 0) return;
  if (variant === 'blocked' && C % 4 !== 0) throw new Error(`blocked matmul needs C % 4 == 0, got C=${C}`);
  const params = [U(N), U(C), U(OC)];
  if (variant === 'blocked') {
    const groups = ctx.grid(cdiv(N, FWD_ROWS) * cdiv(OC, FWD_COLS), BLOCK_WG);
    if (bias) ctx.run(fwdBlocked, [out, inp, weight, bias], params, groups);
    else ctx.run(fwdBlockedNoBias, [out, inp, weight], params, groups);
    return;
  }
  const groups = [cdiv(OC, TILE), cdiv(N, TILE)];
  if (bias) ctx.run(fwd, [out, inp, weight, bias], params, groups);
  else ctx.run(fwdNoBias, [out, inp, weight], params, groups);
}

/**
 * dinp (N,C) += dout @ weight (skipped if null); dweight (OC,C) += dout^T @ inp; dbias (OC) += column
 * sums of dout (if given). Up to three dispatches, each a plain deterministic reduction.
 */
export function matmulBackward(
  ctx: GpuContext,
  { dinp, dweight, dbias, dout, inp, weight, N, C, OC }: OpArgs<'matmulBackward'>,
  variant: MatmulVariant = matmulVariant(N, C, OC),
): void {
  if (variant === 'blocked' && C % 4 !== 0) throw new Error(`blocked matmul needs C % 4 == 0, got C=${C}`);
  if (variant === 'blocked' && OC % 4 === 0) {
    // dout rows as vec4: dinp 8 rows x 4 columns, dweight 4 x 4 per invocation
    const C4 = C / 4;
    const params = [U(N), U(C), U(OC)];
    if (dinp && N > 0 && C > 0 && OC > 0)
      ctx.run(bwdInpBlocked, [dinp, dout, weight], params, ctx.grid(cdiv(N, DINP_ROWS) * C4, BLOCK_WG));
    if (OC > 0 && C > 0 && N > 0)
      ctx.run(bwdWeightBlocked, [dweight, dout, inp], params, ctx.grid((OC / 4) * C4, BLOCK_WG));
  } else if (variant === 'blocked') {
    // any OC: dst (M, C) += A (M, K) @ B (K, C), A(m, k) = dout[m*sm + k*sk] read as scalars
    const C4 = C / 4;
    if (dinp && N > 0 && C > 0 && OC > 0) {
      ctx.run(
        bwdBlocked,
        [dinp, dout, weight],
        [U(N), U(OC), U(C), U(OC), U(1)],
        ctx.grid(cdiv(N, BWD_ROWS) * C4, BLOCK_WG),
      );
    }
    if (OC > 0 && C > 0 && N > 0) {
      ctx.run(
        bwdBlocked,
        [dweight, dout, inp],
        [U(OC), U(N), U(C), U(1), U(OC)],
        ctx.grid(cdiv(OC, BWD_ROWS) * C4, BLOCK_WG),
      );
    }
  } else {
    const params = [U(N), U(C), U(OC)];
    if (dinp && N > 0 && C > 0) ctx.run(bwdInp, [dinp, dout, weight], params, [cdiv(C, TILE), cdiv(N, TILE)]);
    if (OC > 0 && C > 0) ctx.run(bwdWeight, [dweight, dout, inp], params, [cdiv(C, TILE), cdiv(OC, TILE)]);
  }
  if (dbias && OC > 0) ctx.run(bwdBias, [dbias, dout], [U(N), U(C), U(OC)], [cdiv(OC, 64)]);
}
