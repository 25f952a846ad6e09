// Parity of the wasm engine's relaxed-SIMD kernels (one fused multiply-add per a * b + c) against the CPU
// reference, within the same tolerances as the plain kernels (the cases: wasmParity.suite.ts). Runs in the
// vitest project `relaxed-simd`, whose workers start Node with --experimental-wasm-relaxed-simd.
import { describe, expect, it } from 'vitest';
import { relaxedSimdAvailable, resolveKernelVariant } from './kernels';
import { wasmParitySuite } from './wasmParity.suite';
import { opTableSuite } from './opTable.suite';

describe('the relaxed-SIMD kernel variant', () => {
  it('validates here (the project passes the flag) and auto picks it', () => {
    expect(relaxedSimdAvailable()).toBe(true);
    expect(resolveKernelVariant('auto')).toBe('relaxed');
    expect(resolveKernelVariant('simd')).toBe('simd');
  });
});

wasmParitySuite('relaxed');
opTableSuite('relaxed');
