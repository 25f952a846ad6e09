// Tests of the bench's wasm sections: the --wasm flags (and their errors) and the op table's rows.
import { describe, expect, it } from 'vitest';
import { splitWasmArgs } from './wasmSuite';
import { opFigures } from './opBench';
import type { BenchPlan } from './benchSuite';
import { CpuBackend } from '../engine/cpu/cpuBackend';
import { WasmBackend } from '../engine/wasm/wasmBackend';
import { OP_CASES } from '../engine/parity/opCases';

describe('bench wasm sections', () => {
  it('takes --wasm and --wasm-only out of the arguments and refuses unknown sections', () => {
    expect(splitWasmArgs(['--preset', 'ring'])).toEqual({
      rest: ['--preset', 'ring'],
      sections: ['matmul', 'ops', 'step', 'scaling', 'pool', 'pretrain'],
      only: false,
      bigShapes: true,
    });
    expect(splitWasmArgs(['--wasm', 'step,scaling', '--wasm-only'])).toMatchObject({
      rest: [],
      sections: ['step', 'scaling'],
      only: true,
    });
    expect(splitWasmArgs(['--wasm', 'none']).sections).toEqual([]);
    // the kernel profile runs only when named (the default above leaves it out)
    expect(splitWasmArgs(['--wasm', 'fma-profile']).sections).toEqual(['fma-profile']);
    expect(splitWasmArgs(['--wasm', 'pretrain-ladder']).sections).toEqual(['pretrain-ladder']); // opt-in: minutes
    expect(splitWasmArgs(['--shape', 'qkv'])).toMatchObject({ sections: ['matmul'], bigShapes: false });
    expect(() => splitWasmArgs(['--wasm', 'matmul,speed'])).toThrow(
      /unknown --wasm section speed; valid: matmul, ops, step, scaling, pool, pretrain, pretrain-ladder, fma-profile, none/,
    );
    expect(() => splitWasmArgs(['--wasm'])).toThrow(/--wasm needs a value/);
  });

  it('times every op of the table that has a parity case, saying which ran the CPU kernel', async () => {
    const wasm = await WasmBackend.create();
    const rows = await opFigures(wasm, new CpuBackend(), { samples: 1, warmup: 0 } as BenchPlan, () => {});
    wasm.destroy();
    const cases = Object.values(OP_CASES).reduce((n, list) => n + list!.length, 0);
    expect(rows).toHaveLength(cases);
    expect(rows.find((r) => r.op === 'ropeForward')?.kernel).toBe('cpu kernel');
    expect(rows.find((r) => r.op === 'matmulForward')?.kernel).toBe('own');
    for (const r of rows) expect(r.ms > 0 && r.cpuMs > 0, `${r.op} ${r.at}`).toBe(true);
  });
});
