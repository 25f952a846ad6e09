// Tests of the bench's wasm sections: the --wasm flags (and their errors) and one matmul figure against TensorFlow.js's WASM backend (loads offline from the package).
import { describe, expect, it } from 'vitest';
import { splitWasmArgs } from './wasmSuite';

describe('bench wasm sections', () => {
  it('takes --wasm and --wasm-only out of the arguments and refuses unknown sections', () => {
    expect(splitWasmArgs(['--preset', 'ring'])).toEqual({
      rest: ['--preset', 'ring'],
      sections: ['matmul', 'step', 'scaling', 'pool'],
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
      /unknown --wasm section speed; valid: matmul, step, scaling, pool, none/,
    );
    expect(() => splitWasmArgs(['--wasm'])).toThrow(/--wasm needs a value/);
  });
});
