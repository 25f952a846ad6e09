// Matmul with optional bias, CPU twin of shaders/matmul.wgsl (llm.c matmul_forward/backward):
// out = inp @ weight^T + bias, with weight stored (OC, C) as in PyTorch's nn.Linear.
import type { Floats } from './types';

/**
 * out[n,o] = (bias ? bias[o] : 0) + sum_c inp[n,c] * weight[o,c].
 * Register-blocked: 4 rows x 4 output columns per pass over contiguous c (each loaded input value
 * feeds four sums, each weight value four), then the leftover columns and rows. Every sum starts at
 * the bias and adds the terms in order of c in JavaScript doubles, stored once, so the result is the
 * same as the plain loop's whatever the blocking.
 */
export function matmulForward(
  out: Floats,
  inp: Floats,
  weight: Floats,
  bias: Floats | null,
  N: number,
  C: number,
  OC: number,
): void {
  // out (N, OC); inp (N, C); weight (OC, C); bias (OC)
  let n = 0;
  for (; n + 4 <= N; n += 4) {
    const x0 = n * C;
    const x1 = x0 + C;
    const x2 = x1 + C;
    const x3 = x2 + C;
    let o = 0;
    for (; o + 4 <= OC; o += 4) {
      const w0 = o * C;
      const w1 = w0 + C;
      const w2 = w1 + C;
      const w3 = w2 + C;
      const b0 = bias ? bias[o] : 0;
      const b1 = bias ? bias[o + 1] : 0;
      const b2 = bias ? bias[o + 2] : 0;
      const b3 = bias ? bias[o + 3] : 0;
      let s00 = b0,
        s01 = b1,
        s02 = b2,
        s03 = b3;
      let s10 = b0,
        s11 = b1,
        s12 = b2,
        s13 = b3;
      let s20 = b0,
        s21 = b1,
        s22 = b2,
        s23 = b3;
      let s30 = b0,
        s31 = b1,
        s32 = b2,
        s33 = b3;
      for (let c = 0; c < C; c++) {
        const p = weight[w0 + c];
        const q = weight[w1 + c];
        const r = weight[w2 + c];
        const s = weight[w3 + c];
        const a = inp[x0 + c];
        s00 += a * p;
        s01 += a * q;
        s02 += a * r;
        s03 += a * s;
        const b = inp[x1 + c];
        s10 += b * p;
        s11 += b * q;
        s12 += b * r;
        s13 += b * s;
        const d = inp[x2 + c];
        s20 += d * p;
        s21 += d * q;
        s22 += d * r;
        s23 += d * s;
        const e = inp[x3 + c];
        s30 += e * p;
        s31 += e * q;
        s32 += e * r;
        s33 += e * s;
      }
      let y = n * OC + o;
      out[y] = s00;
      out[y + 1] = s01;
      out[y + 2] = s02;
      out[y + 3] = s03;
      y += OC;
      out[y] = s10;
      out[y + 1] = s11;
      out[y + 2] = s12;
      out[y + 3] = s13;
      y += OC;
      out[y] = s20;
      out[y + 1] = s21;
      out[y + 2] = s22;
      out[y + 3] = s23;
      y += OC;
      out[y] = s30;
      out[y + 1] = s31;
      out[y + 2] = s32;
      out[y + 3] = s33;
    }
    for (; o < OC; o++) {
      // leftover columns: one weight row against the four input rows
      const w = o * C;
      let s0 = bias ? bias[o] : 0;
      let s1 = s0,
        s2 = s0,
        s3 = s0;
      for (let c = 0; c < C; c++) {
        const v = weight[w + c];
        s0 += inp[x0 + c] * v;
        s1 += inp[x1 + c] * v;
        s2 += inp[x2 + c] * v;
        s3 += inp[x3 + c] * v;
      }
      const y = n * OC + o;
      out[y] = s0;
      out[y + OC] = s1;
      out[y + 2 * OC] = s2;
      out[y + 3 * OC] = s3;
    }
  }
  for (; n < N; n++) {
    // leftover rows: four weight rows at a time against one input row
    const x = n * C;
    const y = n * OC;
    let o = 0;
    for (; o + 4 <= OC; o += 4) {
      const w0 = o * C;
      const w1 = w0 + C;
      const w2 = w1 + C;
      const w3 = w2 + C;
      let s0 = bias ? bias[o] : 0;
      let s1 = bias ? bias[o + 1] : 0;
      let s2 = bias ? bias[o + 2] : 0;
      let s3 = bias ? bias[o + 3] : 0;
      for (let c = 0; c < C; c++) {
        const v = inp[x + c];
        s0 += v * weight[w0 + c];
        s1 += v * weight[w1 + c];
        s2 += v * weight[w2 + c];
        s3 += v * weight[w3 + c];
      }
      out[y + o] = s0;
      out[y + o + 1] = s1;
      out[y + o + 2] = s2;
      out[y + o + 3] = s3;
    }
    for (; o < OC; o++) {
      const w = o * C;
      let s = bias ? bias[o] : 0;
      for (let c = 0; c < C; c++) s += inp[x + c] * weight[w + c];
      out[y + o] = s;
    }
  }
}

/**
 * Accumulating backward of matmulForward:
 * dinp[n,c] += sum_o dout[n,o] * weight[o,c] (skipped when dinp is null);
 * dweight[o,c] += sum_n dout[n,o] * inp[n,c]; dbias[o] += sum_n dout[n,o] (when dbias is given).
 * Both products walk contiguous rows of c, four terms of the sum per pass over a gradient row.
 */
export function matmulBackward(
  dinp: Floats | null,
  dweight: Floats,
  dbias: Floats | null,
  dout: Floats,
  inp: Floats,
  weight: Floats,
  N: number,
  C: number,
  OC: number,
): void {
  // dinp (N, C); dweight (OC, C); dbias (OC); dout (N, OC); inp (N, C); weight (OC, C)
  if (dinp) {
    for (let n = 0; n < N; n++) {
      // dinp[n,:] += sum_o dout[n,o] * weight[o,:]
      addRowCombination(dinp, n * C, dout, n * OC, 1, weight, C, OC, C);
    }
  }
  for (let o = 0; o < OC; o++) {
    // dweight[o,:] += sum_n dout[n,o] * inp[n,:]
    addRowCombination(dweight, o * C, dout, o, OC, inp, C, N, C);
  }
  if (dbias) {
    for (let o = 0; o < OC; o++) {
      let s = 0;
      for (let n = 0; n < N; n++) s += dout[n * OC + o];
      dbias[o] += s;
    }
  }
}

/**
 * dst[d0 + c] += sum_{r < R} coef[k0 + r*kStride] * rows[r*rowStride + c] for c < C: a linear
 * combination of R rows added to one destination row, four rows per pass.
 */
function addRowCombination(
  dst: Floats,
  d0: number,
  coef: Floats,
  k0: number,
  kStride: number,
  rows: Floats,
  rowStride: number,
  R: number,
  C: number,
): void {
  let r = 0;
  for (; r + 4 <= R; r += 4) {
    const a0 = coef[k0 + r * kStride];
    const a1 = coef[k0 + (r + 1) * kStride];
    const a2 = coef[k0 + (r + 2) * kStride];
    const a3 = coef[k0 + (r + 3) * kStride];
    const x0 = r * rowStride;
    const x1 = x0 + rowStride;
    const x2 = x1 + rowStride;
    const x3 = x2 + rowStride;
    for (let c = 0; c < C; c++) {
      dst[d0 + c] += a0 * rows[x0 + c] + a1 * rows[x1 + c] + a2 * rows[x2 + c] + a3 * rows[x3 + c];
    }
  }
  for (; r < R; r++) {
    const a = coef[k0 + r * kStride];
    const x = r * rowStride;
    for (let c = 0; c < C; c++) dst[d0 + c] += a * rows[x + c];
  }
}
