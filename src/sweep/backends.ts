// The engines a sweep's cells run on: grid.ts checks a sweep config's `backend`, axisAgents.ts keys
// the checkpoint cache by it, checkpoints.ts builds on it.

/** Engines a sweep's cells run on (`"backend"` of the sweep config; default wasm, cpu: the JavaScript reference,
 * wasm-relaxed: the wasm engine's relaxed-SIMD kernels). */
export const SWEEP_BACKENDS = ['wasm', 'cpu', 'wasm-relaxed'] as const;
export type SweepBackend = (typeof SWEEP_BACKENDS)[number];
