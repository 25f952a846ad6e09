// Parity of the wasm engine's plain SIMD kernels against the CPU reference (the cases: wasmParity.suite.ts).
import { wasmParitySuite } from './wasmParity.suite';
import { opTableSuite } from './opTable.suite';

wasmParitySuite('simd');
opTableSuite('simd');
