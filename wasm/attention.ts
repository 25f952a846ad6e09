// Causal self-attention kernels of the wasm backend (AssemblyScript, f32x4), twins of
// src/engine/cpu/attention.ts (llm.c attention_forward/backward): qkv (B,T,3C) = [q | k | v], heads of
// size hs = C/NH, scale 1/sqrt(hs), att (B,NH,T,T) softmax probabilities with zeros above the diagonal.
import { axpy, dot, expv, exp1, hsum, rowMax } from './simd';

/** row[0..L) = softmax(row[0..L)) in place (max-subtracted, vector e^x). */
function softmaxRow(row: usize, L: i32): void {
  const L4 = L & ~3;
  const mx = rowMax(row, L);
  const mxv = f32x4.splat(mx);
  let sv = f32x4.splat(0);
  for (let i = 0; i < L4; i += 4) {
    const o = <usize>i << 2;
    const e = expv(f32x4.sub(v128.load(row + o), mxv));
    v128.store(row + o, e);
    sv = f32x4.add(sv, e);
  }
  let s = hsum(sv);
  for (let i = L4; i < L; i++) {
    const o = <usize>i << 2;
    const e = exp1(load<f32>(row + o) - mx);
    store<f32>(row + o, e);
    s += e;
  }
  const inv: f32 = 1 / s;
  const iv = f32x4.splat(inv);
  for (let i = 0; i < L4; i += 4) v128.store(row + (<usize>i << 2), f32x4.mul(v128.load(row + (<usize>i << 2)), iv));
  for (let i = L4; i < L; i++) store<f32>(row + (<usize>i << 2), load<f32>(row + (<usize>i << 2)) * inv);
}

/**
 * One query row: row[t2] = softmax(scale q.k[t2]) for t2 < L, out[0..hs) = sum_t2 row[t2] v[t2].
 * Keys at keys + t2*kStride, values at vals + t2*vStride (byte strides).
 */
function attendRow(out: usize, row: usize, q: usize, keys: usize, vals: usize, kStride: usize, vStride: usize, L: i32, hs: i32, scale: f32): void {
  for (let t2 = 0; t2 < L; t2++) store<f32>(row + (<usize>t2 << 2), dot(q, keys + <usize>t2 * kStride, hs) * scale);
  softmaxRow(row, L);
  for (let i = 0; i < hs; i++) store<f32>(out + (<usize>i << 2), 0);
  for (let t2 = 0; t2 < L; t2++) axpy(out, load<f32>(row + (<usize>t2 << 2)), vals + <usize>t2 * vStride, hs);
}

/** out (B,T,C) = causal softmax(q k^T / sqrt(hs)) v per head; att (B,NH,T,T) the probabilities. */
export function attentionForward(out: usize, att: usize, qkv: usize, B: i32, T: i32, C: i32, NH: i32): void {
  const hs = C / NH;
  const scale: f32 = 1 / Mathf.sqrt(<f32>hs);
  const rowB = <usize>(3 * C) << 2;
  for (let b = 0; b < B; b++) {
    for (let h = 0; h < NH; h++) {
      const kBase = qkv + <usize>(b * T) * rowB + (<usize>(C + h * hs) << 2);
      for (let t = 0; t < T; t++) {
        const row = att + (<usize>(((b * NH + h) * T + t) * T) << 2);
        const q = qkv + <usize>(b * T + t) * rowB + (<usize>(h * hs) << 2);
        const y = out + (<usize>((b * T + t) * C + h * hs) << 2);
        attendRow(y, row, q, kBase, kBase + (<usize>C << 2), rowB, rowB, t + 1, hs, scale);
        for (let t2 = t + 1; t2 < T; t2++) store<f32>(row + (<usize>t2 << 2), 0);
      }
    }
  }
}

/** dqkv (B,T,3C) += gradient of attentionForward; datt is scratch for T floats. */
export function attentionBackward(dqkv: usize, dout: usize, qkv: usize, att: usize, B: i32, T: i32, C: i32, NH: i32, datt: usize): void {
  const hs = C / NH;
  const scale: f32 = 1 / Mathf.sqrt(<f32>hs);
  const rowB = <usize>(3 * C) << 2;
  for (let b = 0; b < B; b++) {
    for (let t = 0; t < T; t++) {
      for (let h = 0; h < NH; h++) {
        const a = att + (<usize>(((b * NH + h) * T + t) * T) << 2);
        const hb = <usize>(h * hs) << 2;
        const q = <usize>(b * T + t) * rowB + hb; // byte offset of q[b,t,h] in qkv and dqkv
        const d = dout + (<usize>((b * T + t) * C) << 2) + hb;
        const base = <usize>(b * T) * rowB + hb;
        const vOff = <usize>(2 * C) << 2;
        const kOff = <usize>C << 2;
        let sdot: f32 = 0;
        for (let t2 = 0; t2 <= t; t2++) {
          const v = base + <usize>t2 * rowB + vOff;
          const s = dot(d, qkv + v, hs);
          const at = load<f32>(a + (<usize>t2 << 2));
          axpy(dqkv + v, at, d, hs);
          store<f32>(datt + (<usize>t2 << 2), s);
          sdot += at * s;
        }
        for (let t2 = 0; t2 <= t; t2++) {
          const at = load<f32>(a + (<usize>t2 << 2));
          const dpre = at * (load<f32>(datt + (<usize>t2 << 2)) - sdot) * scale;
          const k = base + <usize>t2 * rowB + kOff;
          axpy(dqkv + q, dpre, qkv + k, hs);
          axpy(dqkv + k, dpre, qkv + q, hs);
        }
      }
    }
  }
}

/** out (B,T,C): queries at pos0+t attend over kcache/vcache (B,Tmax,C) positions 0..pos0+t; row: scratch. */
export function attentionCached(
  out: usize, qkv: usize, kc: usize, vc: usize, B: i32, T: i32, pos0: i32, Tmax: i32, C: i32, NH: i32, row: usize,
): void {
  const hs = C / NH;
  const scale: f32 = 1 / Mathf.sqrt(<f32>hs);
  const cB = <usize>C << 2;
  for (let b = 0; b < B; b++) {
    for (let h = 0; h < NH; h++) {
      const off = <usize>(b * Tmax) * cB + (<usize>(h * hs) << 2);
      for (let t = 0; t < T; t++) {
        const q = qkv + (<usize>((b * T + t) * 3 * C + h * hs) << 2);
        const y = out + (<usize>((b * T + t) * C + h * hs) << 2);
        attendRow(y, row, q, kc + off, vc + off, cB, cB, pos0 + t + 1, hs, scale);
      }
    }
  }
}
