// The fused decode-step ops (issue 13, "fewer dispatches per generated token"): one decoded position
// per row, rows independent, each op a whole sub-block of a GPT-2 block (llm.c's layer order). Optional
// on a Backend: src/model/generate.ts uses them when present and the width fits DECODE_MAX_C, else the
// unfused ops (the CPU backend does not offer them). CPU twin: src/engine/cpu/decode.ts; WGSL: shaders/decode.wgsl.
import type { Tensor } from './tensor';

/** Widest model (nEmbd) the fused decode kernels take (their private arrays hold one row). */
export const DECODE_MAX_C = 256;

export interface DecodeOps {
  /**
   * Layer norm, QKV matmul, rotary positions and the KV-cache write of one position `pos` per row.
   * With `tokens`: first x[r,:] = wte[tok] + (wpe ? wpe[pos] : 0), tok = tokens[r*tokStride + pos]
   * (written to x); without, x is read. Then y = ln(x) @ w^T + b (3C) with ln's weight/bias lnw/lnb,
   * q/k pairs rotated by pos * 10000^(-2i/hs) when `rope`; q[r,:] = y[0:C],
   * kcache[r,pos,:] = y[C:2C], vcache[r,pos,:] = y[2C:3C].
   * q (R,C); caches (R,Tmax,C); x (R,C); w (3C,C); b (3C). Weights: views of one parameter buffer.
   */
  decodeQkv(
    q: Tensor,
    kcache: Tensor,
    vcache: Tensor,
    x: Tensor,
    tokens: Tensor | null,
    wte: Tensor | null,
    wpe: Tensor | null,
    lnw: Tensor,
    lnb: Tensor,
    w: Tensor,
    b: Tensor,
    R: number,
    C: number,
    NH: number,
    pos: number,
    Tmax: number,
    tokStride: number,
    rope: boolean,
  ): void;
  /**
   * out[r,:] = x[r,:] + b + w @ attn(q[r], cache positions 0..pos): causal attention of the one query,
   * then the output projection and the residual. out, q, x (R,C); caches (R,Tmax,C); w (C,C); b (C).
   */
  decodeAttn(
    out: Tensor,
    q: Tensor,
    kcache: Tensor,
    vcache: Tensor,
    x: Tensor,
    w: Tensor,
    b: Tensor,
    R: number,
    C: number,
    NH: number,
    pos: number,
    Tmax: number,
  ): void;
  /**
   * out[r,:] = x[r,:] + projb + projw @ gelu(fcb + fcw @ ln(x[r,:])): layer norm, MLP and residual.
   * out, x (R,C); fcw (H,C); fcb (H); projw (C,H); projb (C).
   */
  decodeMlp(
    out: Tensor,
    x: Tensor,
    lnw: Tensor,
    lnb: Tensor,
    fcw: Tensor,
    fcb: Tensor,
    projw: Tensor,
    projb: Tensor,
    R: number,
    C: number,
    H: number,
  ): void;
  /**
   * Final layer norm, tied LM head and sampling: logits[r,:] = wte @ ln(x[r,:]) (R,V), then the token
   * of sampleTokens (same draws) into tokens[r*outStride + outOffset] and, with `logp`, its log-prob
   * into logp[logpOffset + r].
   */
  decodeHead(
    tokens: Tensor,
    logp: Tensor | null,
    logits: Tensor,
    x: Tensor,
    lnw: Tensor,
    lnb: Tensor,
    wte: Tensor,
    R: number,
    C: number,
    V: number,
    temperature: number,
    seed: number,
    counter: number,
    outStride: number,
    outOffset: number,
    logpOffset: number,
  ): void;
}
