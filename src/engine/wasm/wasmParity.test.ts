// Parity of the wasm engine's plain SIMD kernels against the CPU reference (the cases: wasmParitySuite.ts).
import { wasmParitySuite } from './wasmParitySuite';

wasmParitySuite('simd');
