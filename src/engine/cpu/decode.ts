// CPU twins of the fused decode-step kernels (shaders/decode.wgsl; interface in src/engine/decode.ts):
// literal transcriptions of each kernel's math, one row at a time, in the kernel's order (llm.c's
// layernorm, matmul, attention, gelu and residual, composed per row). Outputs first, then inputs, sizes.
import type { Floats } from './types';
import { ropeHeadSize, ropeTheta } from '../../util/rope';
import { sampleTokens } from './sample';

const EPS = 1e-5;
const GELU_SCALE = Math.sqrt(2 / Math.PI);

/** A row of scratch in `like`'s precision: f32 as the kernel's registers, f64 in the float64 checks. */
const scratch = (like: Floats, n: number): Floats =>
  like instanceof Float64Array ? new Float64Array(n) : new Float32Array(n);

/** ln[c] = (x[xo+c] - mean) * rstd * w[c] + b[c] over one row of C. */
function layernormRow(ln: Floats, x: Floats, xo: number, w: Floats, b: Floats, C: number): void {
  let s = 0;
  for (let c = 0; c < C; c++) s += x[xo + c];
  const m = s / C;
  let v = 0;
  for (let c = 0; c < C; c++) v += (x[xo + c] - m) * (x[xo + c] - m);
  const rstd = 1 / Math.sqrt(v / C + EPS);
  for (let c = 0; c < C; c++) ln[c] = (x[xo + c] - m) * rstd * w[c] + b[c];
}

/** b[j] + sum_c inp[c] * w[j*C + c]. */
function dotRow(inp: Floats, w: Floats, b: Floats | null, j: number, C: number): number {
  let y = b ? b[j] : 0;
  for (let c = 0; c < C; c++) y += inp[c] * w[j * C + c];
  return y;
}

/** Embedding (with tokens), layer norm, QKV, rope, KV-cache write of position pos; see DecodeOps.decodeQkv. */
export function decodeQkv(
  q: Floats,
  kcache: Floats,
  vcache: Floats,
  x: Floats,
  tokens: Uint32Array | null,
  wte: Floats | null,
  wpe: Floats | null,
  lnw: Floats,
  lnb: Floats,
  w: Floats,
  b: Floats,
  R: number,
  C: number,
  NH: number,
  pos: number,
  Tmax: number,
  tokStride: number,
  rope: boolean,
): void {
  // q (R,C); kcache, vcache (R,Tmax,C); x (R,C); w (3C,C); b (3C)
  const hs = rope ? ropeHeadSize(C, NH) : C / NH;
  const theta = rope ? ropeTheta(hs) : 1;
  const ln = scratch(x, C);
  const y = scratch(x, 3 * C);
  for (let r = 0; r < R; r++) {
    if (tokens && wte) {
      const e = tokens[r * tokStride + pos] * C;
      for (let c = 0; c < C; c++) x[r * C + c] = wte[e + c] + (wpe ? wpe[pos * C + c] : 0);
    }
    layernormRow(ln, x, r * C, lnw, lnb, C);
    for (let j = 0; j < 3 * C; j++) y[j] = dotRow(ln, w, b, j, C);
    if (rope) {
      for (let j = 0; j < 2 * C; j += 2) {
        // pairs of q and k; pair i = (j % hs) / 2 within its head
        let freq = 1;
        for (let i = 0; i < (j % hs) / 2; i++) freq = Math.fround(freq * theta);
        const a = Math.fround(pos * freq);
        const [cs, sn] = [Math.cos(a), Math.sin(a)];
        const [y0, y1] = [y[j], y[j + 1]];
        y[j] = y0 * cs - y1 * sn;
        y[j + 1] = y0 * sn + y1 * cs;
      }
    }
    const cache = (r * Tmax + pos) * C;
    for (let c = 0; c < C; c++) {
      q[r * C + c] = y[c];
      kcache[cache + c] = y[C + c];
      vcache[cache + c] = y[2 * C + c];
    }
  }
}

/** Attention of one query over cache positions 0..pos, projection and residual; see DecodeOps.decodeAttn. */
export function decodeAttn(
  out: Floats,
  q: Floats,
  kcache: Floats,
  vcache: Floats,
  x: Floats,
  w: Floats,
  b: Floats,
  R: number,
  C: number,
  NH: number,
  pos: number,
  Tmax: number,
): void {
  // out, q, x (R,C); kcache, vcache (R,Tmax,C); w (C,C); b (C)
  const hs = C / NH;
  const scale = 1 / Math.sqrt(hs);
  const y = scratch(out, C);
  for (let r = 0; r < R; r++) {
    for (let h = 0; h < NH; h++) {
      const qo = r * C + h * hs;
      const kb = r * Tmax * C + h * hs;
      const score = (t: number): number => {
        let dot = 0;
        for (let i = 0; i < hs; i++) dot += q[qo + i] * kcache[kb + t * C + i];
        return dot * scale;
      };
      let mx = -Infinity;
      for (let t = 0; t <= pos; t++) mx = Math.max(mx, score(t));
      let sum = 0;
      for (let i = 0; i < hs; i++) y[h * hs + i] = 0;
      for (let t = 0; t <= pos; t++) {
        const e = Math.exp(score(t) - mx);
        sum += e;
        for (let i = 0; i < hs; i++) y[h * hs + i] += e * vcache[kb + t * C + i];
      }
      for (let i = 0; i < hs; i++) y[h * hs + i] /= sum;
    }
    for (let o = 0; o < C; o++) out[r * C + o] = x[r * C + o] + dotRow(y, w, b, o, C);
  }
}

/** Layer norm, MLP (fc, GELU, projection) and residual of one row; see DecodeOps.decodeMlp. */
export function decodeMlp(
  out: Floats,
  x: Floats,
  lnw: Floats,
  lnb: Floats,
  fcw: Floats,
  fcb: Floats,
  projw: Floats,
  projb: Floats,
  R: number,
  C: number,
  H: number,
): void {
  // out, x (R,C); fcw (H,C); fcb (H); projw (C,H); projb (C)
  const ln = scratch(x, C);
  const acc = new Float64Array(C); // sums in double, as matmulForward
  for (let r = 0; r < R; r++) {
    layernormRow(ln, x, r * C, lnw, lnb, C);
    for (let c = 0; c < C; c++) acc[c] = projb[c];
    for (let j = 0; j < H; j++) {
      const h = dotRow(ln, fcw, fcb, j, C);
      const g = 0.5 * h * (1 + Math.tanh(GELU_SCALE * (h + 0.044715 * h * h * h)));
      for (let c = 0; c < C; c++) acc[c] += g * projw[c * H + j];
    }
    for (let c = 0; c < C; c++) out[r * C + c] = x[r * C + c] + acc[c];
  }
}

/** Final layer norm, tied LM head and sampling of one row; see DecodeOps.decodeHead. */
export function decodeHead(
  tokens: Uint32Array,
  logp: Floats | null,
  logits: Floats,
  x: Floats,
  lnw: Floats,
  lnb: Floats,
  wte: Floats,
  R: number,
  C: number,
  V: number,
  temperature: number,
  seed: number,
  counter: number,
  outStride: number,
  outOffset: number,
  logpOffset: number,
): void {
  // tokens u32 (R, outStride); logp (logpOffset + R); logits (R,V); x (R,C); wte (V,C)
  const ln = scratch(x, C);
  for (let r = 0; r < R; r++) {
    layernormRow(ln, x, r * C, lnw, lnb, C);
    for (let v = 0; v < V; v++) logits[r * V + v] = dotRow(ln, wte, null, v, C);
  }
  sampleTokens(tokens, logits, R, V, temperature, seed, counter, outStride, outOffset, logp, logpOffset);
}
