// Causal multi-head self-attention and its key/value cache, CPU twin of shaders/attention.wgsl.
// Follows karpathy/llm.c train_gpt2.c attention_forward/backward: qkv (B,T,3C) = [q | k | v],
// heads of size hs = C/NH, scale 1/sqrt(hs), att (B,NH,T,T) = softmax probabilities, 0 above diagonal.
import type { Floats } from './types';

/**
 * One query row: row[t2] = softmax_t2(scale * q·k[t2]) for t2 < L, and
 * out[outOff + i] = sum_t2 row[t2] * v[t2][i]. Keys and values are read at kOff + t2*kStride and
 * vOff + t2*vStride. Shared by attentionForward and attentionCached so both compute identically.
 */
function attendRow(
  out: Floats,
  outOff: number,
  row: Floats,
  qkv: Floats,
  qOff: number,
  keys: Floats,
  kOff: number,
  kStride: number,
  vals: Floats,
  vOff: number,
  vStride: number,
  L: number,
  hs: number,
  scale: number,
): void {
  let maxval = -Infinity;
  for (let t2 = 0; t2 < L; t2++) {
    const k = kOff + t2 * kStride;
    let dot = 0;
    for (let i = 0; i < hs; i++) dot += qkv[qOff + i] * keys[k + i];
    row[t2] = dot * scale;
    if (row[t2] > maxval) maxval = row[t2];
  }
  let expsum = 0;
  for (let t2 = 0; t2 < L; t2++) {
    row[t2] = Math.exp(row[t2] - maxval);
    expsum += row[t2];
  }
  const expsumInv = 1 / expsum;
  for (let t2 = 0; t2 < L; t2++) row[t2] *= expsumInv;
  for (let i = 0; i < hs; i++) {
    let acc = 0;
    for (let t2 = 0; t2 < L; t2++) acc += row[t2] * vals[vOff + t2 * vStride + i];
    out[outOff + i] = acc;
  }
}

/**
 * out (B,T,C) = causal softmax(q k^T / sqrt(hs)) v per head, from qkv (B,T,3C).
 * att (B,NH,T,T) receives the probabilities, with exact zeros above the diagonal.
 */
export function attentionForward(
  out: Floats,
  att: Floats,
  qkv: Floats,
  B: number,
  T: number,
  C: number,
  NH: number,
): void {
  const C3 = 3 * C;
  const hs = C / NH;
  const scale = 1 / Math.sqrt(hs);
  for (let b = 0; b < B; b++) {
    for (let h = 0; h < NH; h++) {
      for (let t = 0; t < T; t++) {
        const r = ((b * NH + h) * T + t) * T; // att[b,h,t,:]
        const row = att.subarray(r, r + T);
        const kOff = b * T * C3 + C + h * hs; // k[b,0,h,:]
        attendRow(
          out,
          (b * T + t) * C + h * hs,
          row,
          qkv,
          (b * T + t) * C3 + h * hs,
          qkv,
          kOff,
          C3,
          qkv,
          kOff + C,
          C3,
          t + 1,
          hs,
          scale,
        );
        row.fill(0, t + 1);
      }
    }
  }
}

/**
 * dqkv (B,T,3C) += gradient of attentionForward, given dout (B,T,C), qkv and the saved att.
 * Softmax backward in its O(T) form: dpreatt[t2] = att[t2] * (datt[t2] - sum_t3 att[t3] datt[t3]).
 */
export function attentionBackward(
  dqkv: Floats,
  dout: Floats,
  qkv: Floats,
  att: Floats,
  B: number,
  T: number,
  C: number,
  NH: number,
): void {
  const C3 = 3 * C;
  const hs = C / NH;
  const scale = 1 / Math.sqrt(hs);
  const datt = new Float64Array(T); // (T) scratch for one query row
  for (let b = 0; b < B; b++) {
    for (let t = 0; t < T; t++) {
      for (let h = 0; h < NH; h++) {
        const a = ((b * NH + h) * T + t) * T; // att[b,h,t,:]
        const q = (b * T + t) * C3 + h * hs; // q[b,t,h,:] in qkv and dqkv
        const d = (b * T + t) * C + h * hs; // dout[b,t,h,:]
        // through out = att @ v: datt[t2] = dout·v[t2], dv[t2] += att[t2] * dout
        let dot = 0;
        for (let t2 = 0; t2 <= t; t2++) {
          const v = (b * T + t2) * C3 + 2 * C + h * hs;
          let s = 0;
          for (let i = 0; i < hs; i++) {
            s += dout[d + i] * qkv[v + i];
            dqkv[v + i] += att[a + t2] * dout[d + i];
          }
          datt[t2] = s;
          dot += att[a + t2] * s;
        }
        // through softmax, then preatt = scale * q·k[t2]
        for (let t2 = 0; t2 <= t; t2++) {
          const dpre = att[a + t2] * (datt[t2] - dot) * scale;
          const k = (b * T + t2) * C3 + C + h * hs;
          for (let i = 0; i < hs; i++) {
            dqkv[q + i] += qkv[k + i] * dpre;
            dqkv[k + i] += qkv[q + i] * dpre;
          }
        }
      }
    }
  }
}

/**
 * KV cache write: kcache[b, pos0+t, :] = k part of qkv[b,t]; vcache[b, pos0+t, :] = v part.
 * qkv (B,T,3C); kcache, vcache (B,Tmax,C); requires pos0 + T <= Tmax.
 */
export function kvCacheWrite(
  kcache: Floats,
  vcache: Floats,
  qkv: Floats,
  B: number,
  T: number,
  pos0: number,
  Tmax: number,
  C: number,
): void {
  for (let b = 0; b < B; b++) {
    for (let t = 0; t < T; t++) {
      const src = (b * T + t) * 3 * C;
      const dst = (b * Tmax + pos0 + t) * C;
      for (let c = 0; c < C; c++) {
        kcache[dst + c] = qkv[src + C + c];
        vcache[dst + c] = qkv[src + 2 * C + c];
      }
    }
  }
}

/**
 * out (B,T,C): the q part of qkv (B,T,3C) at absolute positions pos0+t attends causally over
 * kcache/vcache (B,Tmax,C) positions 0..pos0+t. Call kvCacheWrite for these positions first.
 */
export function attentionCached(
  out: Floats,
  qkv: Floats,
  kcache: Floats,
  vcache: Floats,
  B: number,
  T: number,
  pos0: number,
  Tmax: number,
  C: number,
  NH: number,
): void {
  const hs = C / NH;
  const scale = 1 / Math.sqrt(hs);
  // (pos0+T) probabilities of one query row, in out's precision (as att is in attentionForward)
  const row = out instanceof Float64Array ? new Float64Array(pos0 + T) : new Float32Array(pos0 + T);
  for (let b = 0; b < B; b++) {
    for (let h = 0; h < NH; h++) {
      for (let t = 0; t < T; t++) {
        const kOff = b * Tmax * C + h * hs; // cache[b,0,h,:]
        attendRow(
          out,
          (b * T + t) * C + h * hs,
          row,
          qkv,
          (b * T + t) * 3 * C + h * hs,
          kcache,
          kOff,
          C,
          vcache,
          kOff,
          C,
          pos0 + t + 1,
          hs,
          scale,
        );
      }
    }
  }
}
