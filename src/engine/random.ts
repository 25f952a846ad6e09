// Counter-based random numbers shared bit-for-bit by the CPU backend and shaders/common.wgsl
// (PCG-RXS-M-XS hash, as in Jarzynski & Olano, "Hash Functions for GPU Rendering", 2020).

/** PCG hash of a u32 (returns a u32). Identical to `pcg_hash` in shaders/common.wgsl. */
export function pcgHash(x: number): number {
  const state = (Math.imul(x >>> 0, 747796405) + 2891336453) >>> 0;
  const word = Math.imul(((state >>> ((state >>> 28) + 4)) ^ state) >>> 0, 277803737) >>> 0;
  return ((word >>> 22) ^ word) >>> 0;
}

/**
 * A uniform number in [0, 1) with 24 random bits (exact in float32), a pure function of
 * (seed, counter, row). Identical to `uniform01` in shaders/common.wgsl.
 */
export function uniform01(seed: number, counter: number, row: number): number {
  const h = pcgHash((seed >>> 0) ^ pcgHash((counter >>> 0) ^ pcgHash(row >>> 0)));
  return (h >>> 8) * (1 / 16777216);
}

/** A seeded float stream in [0,1) for host-side use (initialisation, test inputs). */
export function makeUniformStream(seed: number): () => number {
  let i = 0;
  return () => uniform01(seed, 0x9e3779b9, i++);
}

/** Standard normal draws (Box-Muller) from a uniform stream. */
export function makeNormalStream(seed: number): () => number {
  const u = makeUniformStream(seed);
  return () => {
    const u1 = Math.max(u(), 1e-12);
    return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u());
  };
}
