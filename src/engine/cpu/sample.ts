// CPU twin of shaders/sample.wgsl: greedy choice or temperature sampling by inverse CDF, one row
// at a time. The arithmetic is float32 (Math.fround) in the kernel's exact order, so both backends
// pick the same token for the same (seed, counter, row) unless u lands within rounding of a CDF step.
import type { Floats } from './types';
import { uniform01 } from '../random';

const f32 = Math.fround;

/**
 * For each row r of logits (rows, V): temperature <= 0 → argmax (ties to the lowest id); else a draw
 * from softmax(logits[r] / temperature) by inverse CDF with u = uniform01(seed, counter, r).
 * Writes out[r * outStride + outOffset] (u32), and with `logp` also logp[logpOffset + r] = the chosen
 * token's log-prob under softmax(logits[r] / T') (T' = temperature, 1 when greedy); nothing else.
 */
export function sampleTokens(
  out: Uint32Array,
  logits: Floats,
  rows: number,
  V: number,
  temperature: number,
  seed: number,
  counter: number,
  outStride: number,
  outOffset: number,
  logp: Floats | null = null,
  logpOffset = 0,
): void {
  const greedy = temperature <= 0;
  const invT = f32(greedy ? 1 : 1 / temperature); // the kernel receives 1/T (1 when greedy) as an f32 uniform
  for (let r = 0; r < rows; r++) {
    const row = r * V; // logits[r] starts here, (V)
    let tok = 0;
    if (temperature <= 0) {
      let best = logits[row];
      for (let i = 1; i < V; i++) {
        if (logits[row + i] > best) {
          best = logits[row + i];
          tok = i;
        }
      }
    } else {
      // unnormalised probabilities e_i = exp(z_i - max z), z = logits * (1/T), summed in index order
      let maxz = -Infinity;
      for (let i = 0; i < V; i++) maxz = Math.max(maxz, f32(logits[row + i] * invT));
      let total = 0;
      for (let i = 0; i < V; i++) total = f32(total + f32(Math.exp(f32(f32(logits[row + i] * invT) - maxz))));
      const target = f32(uniform01(seed, counter, r) * total);
      // first i whose cumulative sum exceeds u * total; if rounding leaves none, the last token with e_i > 0
      let cum = 0;
      tok = -1;
      let lastPos = 0;
      for (let i = 0; i < V; i++) {
        const e = f32(Math.exp(f32(f32(logits[row + i] * invT) - maxz)));
        cum = f32(cum + e);
        if (e > 0) lastPos = i;
        if (cum > target) {
          tok = i;
          break;
        }
      }
      if (tok < 0) tok = lastPos;
    }
    out[r * outStride + outOffset] = tok;
    if (logp) logp[logpOffset + r] = tokenLogp(logits, r * V, V, invT, tok);
  }
}

/** log softmax(logits[row..row+V) * invT)[tok], in the kernel's f32 order (max, then the sum of e^(z - max)). */
function tokenLogp(logits: Floats, row: number, V: number, invT: number, tok: number): number {
  let maxz = -Infinity;
  for (let i = 0; i < V; i++) maxz = Math.max(maxz, f32(logits[row + i] * invT));
  let total = 0;
  for (let i = 0; i < V; i++) total = f32(total + f32(Math.exp(f32(f32(logits[row + i] * invT) - maxz))));
  return f32(f32(f32(logits[row + tok] * invT) - maxz) - f32(Math.log(total)));
}
