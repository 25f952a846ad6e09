// Rotary position embedding (Su et al. 2021, RoFormer) on the q and k parts of qkv, CPU twin of
// shaders/rope.wgsl. Pair (2i, 2i+1) of each head turns by angle pos * theta^i, theta =
// 10000^(-2/hs). theta^i and pos * theta^i are rounded to float32 step by step (Math.fround), the
// exact arithmetic the kernel does, so both backends rotate by bit-identical angles.
import type { Floats } from './types';
import { ropeHeadSize, ropeTheta } from '../../util/rope';

/** cos and sin of the angles of positions pos0..pos0+T-1, pairs i < hs/2: (T, hs/2) each. */
function ropeTables(T: number, hs: number, pos0: number): { cos: Float64Array; sin: Float64Array } {
  const half = hs / 2;
  const theta = ropeTheta(hs);
  const cos = new Float64Array(T * half);
  const sin = new Float64Array(T * half);
  for (let t = 0; t < T; t++) {
    let freq = 1; // theta^i in float32
    for (let i = 0; i < half; i++) {
      const angle = Math.fround((pos0 + t) * freq);
      cos[t * half + i] = Math.cos(angle);
      sin[t * half + i] = Math.sin(angle);
      freq = Math.fround(freq * theta);
    }
  }
  return { cos, sin };
}

/**
 * out = rope(inp): q and k pairs rotate, (x0, x1) -> (x0 cos - x1 sin, x0 sin + x1 cos); v is copied.
 */
export function ropeForward(
  out: Floats,
  inp: Floats,
  B: number,
  T: number,
  C: number,
  NH: number,
  pos0: number,
): void {
  // out (B, T, 3C); inp (B, T, 3C)
  const hs = ropeHeadSize(C, NH);
  const half = hs / 2;
  const { cos, sin } = ropeTables(T, hs, pos0);
  for (let b = 0; b < B; b++) {
    for (let t = 0; t < T; t++) {
      const row = (b * T + t) * 3 * C;
      for (let h = 0; h < 2 * NH; h++) {
        // heads of q, then heads of k
        const base = row + h * hs;
        for (let i = 0; i < half; i++) {
          const c = cos[t * half + i];
          const s = sin[t * half + i];
          const x0 = inp[base + 2 * i];
          const x1 = inp[base + 2 * i + 1];
          out[base + 2 * i] = x0 * c - x1 * s;
          out[base + 2 * i + 1] = x0 * s + x1 * c;
        }
      }
      for (let j = 2 * C; j < 3 * C; j++) out[row + j] = inp[row + j]; // v
    }
  }
}

/** dinp += rope^T(dout): the inverse rotation (d0 cos + d1 sin, -d0 sin + d1 cos) on q, k; v passes. */
export function ropeBackward(
  dinp: Floats,
  dout: Floats,
  B: number,
  T: number,
  C: number,
  NH: number,
  pos0: number,
): void {
  // dinp (B, T, 3C); dout (B, T, 3C)
  const hs = ropeHeadSize(C, NH);
  const half = hs / 2;
  const { cos, sin } = ropeTables(T, hs, pos0);
  for (let b = 0; b < B; b++) {
    for (let t = 0; t < T; t++) {
      const row = (b * T + t) * 3 * C;
      for (let h = 0; h < 2 * NH; h++) {
        const base = row + h * hs;
        for (let i = 0; i < half; i++) {
          const c = cos[t * half + i];
          const s = sin[t * half + i];
          const d0 = dout[base + 2 * i];
          const d1 = dout[base + 2 * i + 1];
          dinp[base + 2 * i] += d0 * c + d1 * s;
          dinp[base + 2 * i + 1] += -d0 * s + d1 * c;
        }
      }
      for (let j = 2 * C; j < 3 * C; j++) dinp[row + j] += dout[row + j];
    }
  }
}
