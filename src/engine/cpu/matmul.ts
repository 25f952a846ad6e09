// Matmul with optional bias, CPU twin of shaders/matmul.wgsl (llm.c matmul_forward/backward):
// out = inp @ weight^T + bias, with weight stored (OC, C) as in PyTorch's nn.Linear.
import type { Floats } from './types';

/**
 * out[n,o] = (bias ? bias[o] : 0) + sum_c inp[n,c] * weight[o,c].
 * Dot products run over contiguous c, four output columns at a time (each input row is read once
 * per four weight rows); sums are kept in JavaScript doubles and stored once.
 */
export function matmulForward(
  out: Floats, inp: Floats, weight: Floats, bias: Floats | null, N: number, C: number, OC: number,
): void {
  // out (N, OC); inp (N, C); weight (OC, C); bias (OC)
  for (let n = 0; n < N; n++) {
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
  dinp: Floats | null, dweight: Floats, dbias: Floats | null, dout: Floats, inp: Floats, weight: Floats,
  N: number, C: number, OC: number,
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
  dst: Floats, d0: number, coef: Floats, k0: number, kStride: number,
  rows: Floats, rowStride: number, R: number, C: number,
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
