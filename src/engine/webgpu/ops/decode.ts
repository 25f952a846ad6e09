// WebGPU wrappers for the fused decode-step kernels (shaders/decode.wgsl; interface and semantics in
// src/engine/decode.ts). CPU twins: src/engine/cpu/decode.ts. One invocation per row, 32 per workgroup.
// The weights of one call must be views of one buffer (the model's flat parameters): it is bound once
// and each weight is read at its element offset, so no kernel needs more than 6 storage bindings.
import type { Tensor } from '../../tensor';
import { DECODE_MAX_C, type DecodeOps } from '../../decode';
import type { GpuContext, Param } from '../context';
import { F, U, defineKernel } from '../context';
import { ropeHeadSize, ropeTheta } from '../../../util/rope';
import { GpuTensor } from '../tensor';
import common from '../../../../shaders/common.wgsl?raw';
import trig from '../../../../shaders/trig.wgsl?raw';
import rowFns from '../../../../shaders/sample_row.wgsl?raw';
import src from '../../../../shaders/decode.wgsl?raw';

const code = common + trig + rowFns + src;
const WG = 32;
const qkvK = defineKernel({ label: 'decode', code, entry: 'decode_qkv' });
const attnK = defineKernel({ label: 'decode', code, entry: 'decode_attn' });
const mlpK = defineKernel({ label: 'decode', code, entry: 'decode_mlp' });
const headK = defineKernel({ label: 'decode', code, entry: 'decode_head' });

/** The uniform fields of decode.wgsl's Params, by name (unset ones are 0). */
interface Fields {
  R: number;
  C: number;
  NH?: number;
  H?: number;
  V?: number;
  pos?: number;
  Tmax?: number;
  tokStride?: number;
  flags?: number;
  theta?: number;
  scale?: number;
  greedy?: number;
  invTemp?: number;
  seed?: number;
  counter?: number;
  outOffset?: number;
  logpOffset?: number;
  hasLogp?: number;
  off: number[];
}

function params(f: Fields): Param[] {
  const NH = f.NH ?? 1;
  const [lnw, lnb, w, b, w2, b2, wte, wpe] = [...f.off, 0, 0, 0, 0, 0, 0, 0, 0];
  return [
    U(f.R),
    U(f.C),
    U(NH),
    U(f.C / NH),
    U(f.H ?? 0),
    U(f.V ?? 0),
    U(f.pos ?? 0),
    U(f.Tmax ?? 0),
    U(f.tokStride ?? 0),
    U(f.flags ?? 0),
    F(f.theta ?? 1),
    F(f.scale ?? 1),
    U(f.greedy ?? 0),
    F(f.invTemp ?? 1),
    U(f.seed ?? 0),
    U(f.counter ?? 0),
    U(f.outOffset ?? 0),
    U(f.logpOffset ?? 0),
    U(f.hasLogp ?? 0),
    U(lnw),
    U(lnb),
    U(w),
    U(b),
    U(w2),
    U(b2),
    U(wte),
    U(wpe),
  ];
}

/** One binding spanning every weight (views of one buffer) and each weight's element offset within it. */
function weights(op: string, ts: readonly (Tensor | null)[]): { wt: Tensor; off: number[] } {
  const gs = ts.filter((t): t is Tensor => t !== null) as GpuTensor[];
  const buf = gs[0].buffer;
  const bad = gs.find((g) => g.buffer !== buf);
  if (bad)
    throw new Error(
      `${op}: weight ${bad.label} is not a view of the same buffer as ${gs[0].label}; the fused decode ops read all weights from one parameter buffer`,
    );
  const lo = Math.min(...gs.map((g) => g.offset));
  const hi = Math.max(...gs.map((g) => g.offset + g.size));
  const wt = new GpuTensor([hi - lo], 'f32', `${op}.weights`, buf, lo, hi - lo, true);
  return { wt, off: ts.map((t) => (t ? (t as GpuTensor).offset - lo : 0)) };
}

function checkWidth(op: string, C: number): void {
  if (C > DECODE_MAX_C)
    throw new Error(`${op}: width C = ${C} exceeds the fused kernels' ${DECODE_MAX_C}; use the unfused ops`);
}

/** See DecodeOps.decodeQkv. */
export function decodeQkv(ctx: GpuContext, ...args: Parameters<DecodeOps['decodeQkv']>): void {
  const [q, kcache, vcache, x, tokens, wte, wpe, lnw, lnb, w, b, R, C, NH, pos, Tmax, tokStride, rope] = args;
  checkWidth('decodeQkv', C);
  if (pos >= Tmax) throw new Error(`decodeQkv: position ${pos} is past the cache's ${Tmax} positions`);
  if (tokens && !wte) throw new Error('decodeQkv: embedding from tokens needs wte');
  const hs = rope ? ropeHeadSize(C, NH) : C / NH;
  if (R * C === 0) return;
  const embed = tokens !== null;
  const { wt, off } = weights('decodeQkv', [
    lnw,
    lnb,
    w,
    b,
    null,
    null,
    embed ? wte : null,
    embed ? wpe : null,
  ]);
  const flags = (embed ? 1 : 0) | (embed && wpe ? 2 : 0) | (rope ? 4 : 0);
  const p = params({ R, C, NH, pos, Tmax, tokStride, flags, theta: rope ? ropeTheta(hs) : 1, off });
  ctx.run(qkvK, [wt, q, kcache, vcache, x, tokens ?? wt], p, ctx.grid(R, WG));
}

/** See DecodeOps.decodeAttn. */
export function decodeAttn(ctx: GpuContext, ...args: Parameters<DecodeOps['decodeAttn']>): void {
  const [out, q, kcache, vcache, x, w, b, R, C, NH, pos, Tmax] = args;
  checkWidth('decodeAttn', C);
  if (pos >= Tmax) throw new Error(`decodeAttn: position ${pos} is past the cache's ${Tmax} positions`);
  if (R * C === 0) return;
  const { wt, off } = weights('decodeAttn', [null, null, w, b]);
  const p = params({ R, C, NH, pos, Tmax, scale: 1 / Math.sqrt(C / NH), off });
  ctx.run(attnK, [wt, out, q, kcache, vcache, x], p, ctx.grid(R, WG));
}

/** See DecodeOps.decodeMlp. */
export function decodeMlp(ctx: GpuContext, ...args: Parameters<DecodeOps['decodeMlp']>): void {
  const [out, x, lnw, lnb, fcw, fcb, projw, projb, R, C, H] = args;
  checkWidth('decodeMlp', C);
  if (R * C === 0) return;
  const { wt, off } = weights('decodeMlp', [lnw, lnb, fcw, fcb, projw, projb]);
  ctx.run(mlpK, [wt, out, x], params({ R, C, H, off }), ctx.grid(R, WG));
}

/** See DecodeOps.decodeHead. */
export function decodeHead(ctx: GpuContext, ...args: Parameters<DecodeOps['decodeHead']>): void {
  const [
    tokens,
    logp,
    logits,
    x,
    lnw,
    lnb,
    wte,
    R,
    C,
    V,
    temperature,
    seed,
    counter,
    outStride,
    outOffset,
    logpOffset,
  ] = args;
  checkWidth('decodeHead', C);
  if (R * C === 0) return;
  const greedy = temperature <= 0;
  const { wt, off } = weights('decodeHead', [lnw, lnb, wte]);
  const p = params({
    R,
    C,
    V,
    tokStride: outStride,
    greedy: greedy ? 1 : 0,
    invTemp: greedy ? 1 : 1 / temperature,
    seed,
    counter,
    outOffset,
    logpOffset,
    hasLogp: logp ? 1 : 0,
    off,
  });
  ctx.run(headK, [wt, tokens, logp ?? ctx.scratch('decode.nologp', 1), logits, x], p, ctx.grid(R, WG));
}
