// WebGPU wrappers for shaders/rope.wgsl (rotary position embedding on q and k of qkv).
// CPU twin: src/engine/cpu/rope.ts.
import type { OpArgs } from '../../ops/table';
import type { Tensor } from '../../tensor';
import type { GpuContext, Kernel } from '../context';
import { F, U, defineKernel } from '../context';
import { ropeHeadSize, ropeTheta } from '../../../util/rope';
import common from '../../../../shaders/common.wgsl?raw';
import trig from '../../../../shaders/trig.wgsl?raw';
import src from '../../../../shaders/rope.wgsl?raw';

const code = common + trig + src;
const WG = 256;
const fwd = defineKernel({ label: 'rope', code, entry: 'rope_forward' });
const bwd = defineKernel({ label: 'rope', code, entry: 'rope_backward' });

function dispatch(
  ctx: GpuContext,
  k: Kernel,
  a: Tensor,
  b: Tensor,
  B: number,
  T: number,
  C: number,
  NH: number,
  pos0: number,
): void {
  const hs = ropeHeadSize(C, NH); // throws on an odd head size
  const pairs = (B * T * 3 * C) / 2;
  if (pairs === 0) return;
  ctx.run(k, [a, b], [U(B), U(T), U(C), U(hs), U(pos0), F(ropeTheta(hs))], ctx.grid(pairs, WG));
}

/** out (B,T,3C) = rope(inp): q and k pairs rotate by (pos0+t) * 10000^(-2i/hs), v is copied. */
export function ropeForward(ctx: GpuContext, { out, inp, B, T, C, NH, pos0 }: OpArgs<'ropeForward'>): void {
  dispatch(ctx, fwd, out, inp, B, T, C, NH, pos0);
}

/** dinp (B,T,3C) += rope^T(dout): the inverse rotation on q and k, identity on v. */
export function ropeBackward(
  ctx: GpuContext,
  { dinp, dout, B, T, C, NH, pos0 }: OpArgs<'ropeBackward'>,
): void {
  dispatch(ctx, bwd, dinp, dout, B, T, C, NH, pos0);
}
