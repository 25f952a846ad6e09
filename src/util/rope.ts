// Rotary position embedding's constants (Su et al. 2021, RoFormer), shared by the CPU twin
// (src/engine/cpu/rope.ts), the fused decode ops and the WebGPU wrappers: pair (2i, 2i+1) of each
// head turns by angle pos * theta^i, theta = 10000^(-2/hs).

/** Head size C/NH, checked to be an even integer (RoPE rotates pairs of channels). */
export function ropeHeadSize(C: number, NH: number): number {
  const hs = C / NH;
  if (!Number.isInteger(hs) || hs % 2 !== 0) {
    throw new Error(`rope: head size C/NH = ${C}/${NH} must be an even integer`);
  }
  return hs;
}

/** theta = 10000^(-2/hs) as a float32: the ratio of consecutive pair frequencies. */
export function ropeTheta(hs: number): number {
  return Math.fround(Math.pow(10000, -2 / hs));
}
