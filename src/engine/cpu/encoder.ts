// Token + position embedding, CPU twin of shaders/encoder.wgsl (llm.c encoder_forward/backward),
// reading tokens from a (B, tokStride) buffer at positions pos0..pos0+T-1.
import type { Floats } from './types';

/**
 * out[b,t,:] = wte[tok,:] + (wpe ? wpe[pos0+t,:] : 0), tok = tokens[b*tokStride + pos0 + t].
 * With wpe null the positions come from RoPE instead.
 */
export function encoderForward(
  out: Floats,
  wte: Floats,
  wpe: Floats | null,
  tokens: Uint32Array,
  B: number,
  T: number,
  C: number,
  tokStride: number,
  pos0: number,
): void {
  // out (B, T, C); wte (V, C); wpe (maxT, C); tokens (B, tokStride)
  for (let b = 0; b < B; b++) {
    for (let t = 0; t < T; t++) {
      const o = (b * T + t) * C;
      const e = tokens[b * tokStride + pos0 + t] * C;
      const p = (pos0 + t) * C;
      for (let c = 0; c < C; c++) out[o + c] = wte[e + c] + (wpe ? wpe[p + c] : 0);
    }
  }
}

/** dwte[tok,:] += dout[b,t,:]; dwpe[pos0+t,:] += dout[b,t,:] (when dwpe is given). */
export function encoderBackward(
  dwte: Floats,
  dwpe: Floats | null,
  dout: Floats,
  tokens: Uint32Array,
  B: number,
  T: number,
  C: number,
  tokStride: number,
  pos0: number,
): void {
  // dwte (V, C); dwpe (maxT, C); dout (B, T, C); tokens (B, tokStride)
  for (let b = 0; b < B; b++) {
    for (let t = 0; t < T; t++) {
      const o = (b * T + t) * C;
      const e = tokens[b * tokStride + pos0 + t] * C;
      const p = (pos0 + t) * C;
      for (let c = 0; c < C; c++) {
        dwte[e + c] += dout[o + c];
        if (dwpe) dwpe[p + c] += dout[o + c];
      }
    }
  }
}
