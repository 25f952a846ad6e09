// The bench's wasm matmul figure against TensorFlow.js's WASM backend (loads offline from the package) and
// the CPU reference, with the relaxed-SIMD kernels' row beside it. In the vitest project relaxed-simd: the
// row turns relaxed SIMD on, which in Node is a process-wide V8 flag, so it must not run among the plain
// unit tests.
import { describe, expect, it } from 'vitest';
import { planFromArgs } from './benchPlan';
import { runWasmBench } from './wasmSuite';

describe('bench wasm matmul section', () => {
  it('measures a matmul against TensorFlow.js wasm and the CPU reference, outputs agreeing', async () => {
    const { plan } = planFromArgs(['--shape', 'A.decode.qkv', '--samples', '1']);
    const r = (await runWasmBench(plan, { sections: ['matmul'], bigShapes: false })) as {
      tfjs: { simd: boolean; threads: number };
      matmul: {
        vsTfjs: number;
        vsCpu: number;
        maxAbsDiffWasm: number;
        maxAbsDiffTfjs: number;
        relaxedVsSimd: number | null;
        maxAbsDiffRelaxed: number | null;
      }[];
    };
    expect(r.tfjs).toMatchObject({ simd: true, threads: 1 });
    expect(r.matmul).toHaveLength(1);
    const f = r.matmul[0];
    expect(f.vsTfjs).toBeGreaterThan(0);
    expect(f.vsCpu).toBeGreaterThan(0);
    expect(f.maxAbsDiffWasm).toBeLessThan(1e-4);
    expect(f.maxAbsDiffTfjs).toBeLessThan(1e-4);
    // the relaxed-SIMD kernels timed in the same rounds (this project runs Node with the flag)
    expect(f.relaxedVsSimd).toBeGreaterThan(0);
    expect(f.maxAbsDiffRelaxed).toBeLessThan(1e-4);
  }, 60_000);
});
