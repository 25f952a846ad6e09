// WebGPU wrappers for shaders/encoder.wgsl (llm.c encoder_forward/backward).
// CPU twin: src/engine/cpu/encoder.ts.
import type { OpArgs } from '../../ops/table';
import type { GpuContext } from '../context';
import { U, defineKernel } from '../context';
import common from '../../../../shaders/common.wgsl?raw';
import src from '../../../../shaders/encoder.wgsl?raw';

const code = common + src;
const WG = 256;
const fwd = defineKernel({ label: 'encoder', code, entry: 'encoder_forward' });
const fwdNoWpe = defineKernel({ label: 'encoder', code, entry: 'encoder_forward_nowpe' });
const bwdWte = defineKernel({ label: 'encoder', code, entry: 'encoder_backward_dwte' });
const bwdWpe = defineKernel({ label: 'encoder', code, entry: 'encoder_backward_dwpe' });

/** out (B,T,C) = wte[tok] + wpe[pos0+t] (wpe null: token rows only), tok = tokens[b*tokStride + pos0 + t]. */
export function encoderForward(
  ctx: GpuContext,
  { out, wte, wpe, tokens, B, T, C, tokStride, pos0 }: OpArgs<'encoderForward'>,
): void {
  const n = B * T * C;
  if (n === 0) return;
  const params = [U(B), U(T), U(C), U(tokStride), U(pos0), U(0)];
  if (wpe) ctx.run(fwd, [out, wte, tokens, wpe], params, ctx.grid(n, WG));
  else ctx.run(fwdNoWpe, [out, wte, tokens], params, ctx.grid(n, WG));
}

/**
 * dwte (V,C) += dout rows by token; dwpe (maxT,C) rows pos0..pos0+T-1 += dout summed over b (if
 * given). V is read from dwte's size. One thread per gradient element, so no atomics.
 */
export function encoderBackward(
  ctx: GpuContext,
  { dwte, dwpe, dout, tokens, B, T, C, tokStride, pos0 }: OpArgs<'encoderBackward'>,
): void {
  if (B * T * C === 0) return;
  const V = dwte.size / C;
  const params = [U(B), U(T), U(C), U(tokStride), U(pos0), U(V)];
  ctx.run(bwdWte, [dwte, dout, tokens], params, ctx.grid(V * C, WG));
  if (dwpe) ctx.run(bwdWpe, [dwpe, dout], params, ctx.grid(T * C, WG));
}
