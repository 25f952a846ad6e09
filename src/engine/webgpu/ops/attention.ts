// WebGPU wrappers for the attention kernels: causal multi-head self-attention (llm.c
// attention_forward/backward) and the KV cache. CPU twin: src/engine/cpu/attention.ts.
// Two variants, chosen per context length by attentionVariant:
//  - 'rows' (shaders/attention_rows.wgsl): one invocation per query row, scores, softmax and the
//    weighted sum of values in registers (the forward pass in one dispatch); no workgroup memory or
//    barriers; for short contexts (at most ROWS_MAXT keys);
//  - 'workgroup' (shaders/attention.wgsl): one workgroup of 64 threads per query row with tree
//    reductions through workgroup memory; for long contexts.
// The backward pass's second kernel (dq, dk, dv from dpreatt) is shared by both.
import type { OpArgs } from '../../ops/table';
import type { GpuContext, Kernel, Param } from '../context';
import { F, U, defineKernel } from '../context';
import common from '../../../../shaders/common.wgsl?raw';
import src from '../../../../shaders/attention.wgsl?raw';
import rowsSrc from '../../../../shaders/attention_rows.wgsl?raw';

const code = common + src;
const WG = 64; // threads per query row, as in the shader
const MAXL = 1024; // attention_cached_forward: most keys per query row (workgroup memory)
const k = (entry: string): Kernel => defineKernel({ label: 'attention', code, entry });
const fwd = k('attention_forward');
const fwdOut = k('attention_forward_out');
const bwd = k('attention_backward');
const bwdDqkv = k('attention_backward_dqkv');
const cacheWrite = k('kv_cache_write_forward');
const cached = k('attention_cached_forward');

const rowsCode = common + rowsSrc;
const ROWS_WG = 32; // invocations per workgroup, as in attention_rows.wgsl
/** Most keys per query row of the 'rows' kernels (their private score array, MAXT in the shader). */
export const ROWS_MAXT = 64;
const kr = (entry: string): Kernel => defineKernel({ label: 'attention_rows', code: rowsCode, entry });
const fwdRows = kr('attention_forward_rows');
const bwdRows = kr('attention_backward_rows');
const cachedRows = kr('attention_cached_rows');

export type AttentionVariant = 'rows' | 'workgroup';

/** The variant for query rows attending over at most `keys` keys: a row per invocation while short. */
export function attentionVariant(keys: number): AttentionVariant {
  return keys <= ROWS_MAXT ? 'rows' : 'workgroup';
}

function checkRows(variant: AttentionVariant, keys: number): void {
  if (variant === 'rows' && keys > ROWS_MAXT)
    throw new Error(`attention 'rows' kernels take at most ${ROWS_MAXT} keys, got ${keys}`);
}

function headSize(C: number, NH: number): number {
  const hs = C / NH;
  if (!Number.isInteger(hs)) throw new Error(`attention: C=${C} is not a multiple of NH=${NH}`);
  return hs;
}

/** The shader's Params block, in struct order. */
function params(B: number, T: number, C: number, NH: number, pos0: number, Tmax: number): Param[] {
  const hs = headSize(C, NH);
  return [U(B), U(T), U(C), U(NH), U(hs), U(pos0), U(Tmax), F(1 / Math.sqrt(hs))];
}

/**
 * out (B,T,C) and att (B,NH,T,T) from qkv (B,T,3C): 'rows', one fused dispatch; 'workgroup', a
 * softmax-row kernel, then out = att @ v.
 */
export function attentionForward(
  ctx: GpuContext,
  { out, att, qkv, B, T, C, NH }: OpArgs<'attentionForward'>,
  variant: AttentionVariant = attentionVariant(T),
): void {
  if (B * T * C === 0) return;
  checkRows(variant, T);
  const p = params(B, T, C, NH, 0, T);
  if (variant === 'rows') {
    ctx.run(fwdRows, [out, att, qkv], p, ctx.grid(B * NH * T, ROWS_WG));
    return;
  }
  ctx.run(fwd, [att, qkv], p, ctx.grid(B * NH * T * WG, WG));
  ctx.run(fwdOut, [out, att, qkv], p, ctx.grid(B * T * C, 256));
}

/** dqkv (B,T,3C) += attention gradient; dpreatt goes through a persistent (B,NH,T,T) scratch. */
export function attentionBackward(
  ctx: GpuContext,
  { dqkv, dout, qkv, att, B, T, C, NH }: OpArgs<'attentionBackward'>,
  variant: AttentionVariant = attentionVariant(T),
): void {
  if (B * T * C === 0) return;
  checkRows(variant, T);
  const p = params(B, T, C, NH, 0, T);
  const dpre = ctx.scratch('attention.dpreatt', B * NH * T * T);
  if (variant === 'rows') ctx.run(bwdRows, [dpre, dout, qkv, att], p, ctx.grid(B * NH * T, ROWS_WG));
  else ctx.run(bwd, [dpre, dout, qkv, att], p, ctx.grid(B * NH * T * WG, WG));
  ctx.run(bwdDqkv, [dqkv, dout, qkv, att, dpre], p, ctx.grid(B * T * C, 256));
}

/** kcache/vcache (B,Tmax,C) rows pos0..pos0+T-1 = k/v parts of qkv (B,T,3C). */
export function kvCacheWrite(
  ctx: GpuContext,
  { kcache, vcache, qkv, B, T, pos0, Tmax, C }: OpArgs<'kvCacheWrite'>,
): void {
  if (pos0 + T > Tmax) throw new Error(`kvCacheWrite: pos0 ${pos0} + T ${T} exceeds Tmax ${Tmax}`);
  if (B * T * C === 0) return;
  ctx.run(
    cacheWrite,
    [kcache, vcache, qkv],
    [U(B), U(T), U(C), U(1), U(C), U(pos0), U(Tmax), F(1)],
    ctx.grid(B * T * C, 256),
  );
}

/** out (B,T,C): queries of qkv at positions pos0+t attend over cache positions 0..pos0+t. */
export function attentionCached(
  ctx: GpuContext,
  { out, qkv, kcache, vcache, B, T, pos0, Tmax, C, NH }: OpArgs<'attentionCached'>,
  variant: AttentionVariant = attentionVariant(pos0 + T),
): void {
  if (pos0 + T > Tmax) throw new Error(`attentionCached: pos0 ${pos0} + T ${T} exceeds Tmax ${Tmax}`);
  if (pos0 + T > MAXL) throw new Error(`attentionCached: context ${pos0 + T} exceeds the kernel's ${MAXL}`);
  if (B * T * C === 0) return;
  checkRows(variant, pos0 + T);
  if (variant === 'rows') {
    ctx.run(
      cachedRows,
      [out, qkv, kcache, vcache],
      params(B, T, C, NH, pos0, Tmax),
      ctx.grid(B * NH * T, ROWS_WG),
    );
    return;
  }
  ctx.run(cached, [out, qkv, kcache, vcache], params(B, T, C, NH, pos0, Tmax), ctx.grid(B * NH * T * WG, WG));
}
