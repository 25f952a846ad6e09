// Tests of the bench's wasm sections: the --wasm flags (and their errors) and one matmul figure against TensorFlow.js's WASM backend (loads offline from the package).
import { describe, expect, it } from 'vitest';
import { planFromArgs } from './benchPlan';
import { runWasmBench, splitWasmArgs } from './wasmSuite';

describe('bench wasm sections', () => {
  it('takes --wasm and --wasm-only out of the arguments and refuses unknown sections', () => {
    expect(splitWasmArgs(['--preset', 'ring'])).toEqual({
      rest: ['--preset', 'ring'],
      sections: ['matmul', 'step', 'scaling'],
      only: false,
      bigShapes: true,
    });
    expect(splitWasmArgs(['--wasm', 'step,scaling', '--wasm-only'])).toMatchObject({
      rest: [],
      sections: ['step', 'scaling'],
      only: true,
    });
    expect(splitWasmArgs(['--wasm', 'none']).sections).toEqual([]);
    expect(splitWasmArgs(['--shape', 'qkv'])).toMatchObject({ sections: ['matmul'], bigShapes: false });
    expect(() => splitWasmArgs(['--wasm', 'matmul,speed'])).toThrow(
      /unknown --wasm section speed; valid: matmul, step, scaling, none/,
    );
    expect(() => splitWasmArgs(['--wasm'])).toThrow(/--wasm needs a value/);
  });

  it('measures a matmul against TensorFlow.js wasm and the CPU reference, outputs agreeing', async () => {
    const { plan } = planFromArgs(['--shape', 'A.decode.qkv', '--samples', '1']);
    const r = (await runWasmBench(plan, { sections: ['matmul'], bigShapes: false })) as {
      tfjs: { simd: boolean; threads: number };
      matmul: { vsTfjs: number; vsCpu: number; maxAbsDiffWasm: number; maxAbsDiffTfjs: number }[];
    };
    expect(r.tfjs).toMatchObject({ simd: true, threads: 1 });
    expect(r.matmul).toHaveLength(1);
    const f = r.matmul[0];
    expect(f.vsTfjs).toBeGreaterThan(0);
    expect(f.vsCpu).toBeGreaterThan(0);
    expect(f.maxAbsDiffWasm).toBeLessThan(1e-4);
    expect(f.maxAbsDiffTfjs).toBeLessThan(1e-4);
  }, 60_000);
});
