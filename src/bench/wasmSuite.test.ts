// Tests of the bench's wasm sections: the --wasm flags (and their errors), the scaling table's cells and
// agent sizes, and one matmul figure against TensorFlow.js's WASM backend (loads offline from the package).
import { describe, expect, it } from 'vitest';
import { CpuBackend } from '../engine/cpu/cpuBackend';
import { planFromArgs } from './benchPlan';
import { presetShapedAgents } from '../rl/leanFigures';
import { SCALING_SIZES, scalingCells } from './scaling';
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

  it('the scaling table covers about 15k, 50k, 200k and 1M parameters and B x K 16, 128, 512', () => {
    const cells = scalingCells();
    expect(cells.map((c) => `${c.size.label}@${c.B * c.K}`)).toEqual([
      '15k@128',
      '50k@128',
      '200k@128',
      '1M@128',
      '15k@16',
      '15k@512',
    ]);
    const be = new CpuBackend();
    const want = [15e3, 50e3, 200e3, 1e6];
    SCALING_SIZES.forEach((size, i) => {
      const { agents } = presetShapedAgents(be, 'paper-demo', { nLayer: size.nLayer, nEmbd: size.nEmbd, nHead: size.nHead });
      for (const a of agents) {
        expect(a.model.layout.count / want[i]).toBeGreaterThan(0.85);
        expect(a.model.layout.count / want[i]).toBeLessThan(1.15);
        a.model.free();
      }
    });
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
