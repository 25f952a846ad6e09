// The committed kernel module (kernelsWasm.ts) is what its AssemblyScript source (wasm/*.ts) builds to:
// rebuilt here with the pinned compiler and compared byte for byte (run `npm run build:wasm` after
// editing wasm/*.ts). Also checks the module validates, imports only its memory and exports every kernel.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { KERNELS_TS, compileKernels, kernelsModuleSource } from './buildKernels';
import { kernelBytes, wasmUnavailableReason } from './kernels';

describe('wasm kernel module', () => {
  it('matches a fresh build of wasm/*.ts byte for byte', async () => {
    const built = await compileKernels();
    const committed = kernelBytes();
    expect(committed.length).toBe(built.length);
    expect(Buffer.from(committed).equals(Buffer.from(built))).toBe(true);
    expect(readFileSync(KERNELS_TS, 'utf8')).toBe(kernelsModuleSource(built));
  }, 60_000);

  it('validates with SIMD here, imports only memory and exports every kernel', () => {
    expect(wasmUnavailableReason()).toBe('');
    const mod = new WebAssembly.Module(kernelBytes());
    expect(WebAssembly.Module.imports(mod)).toEqual([{ module: 'env', name: 'memory', kind: 'memory' }]);
    const names = WebAssembly.Module.exports(mod).map((e) => e.name);
    for (const k of [
      'matmulForward',
      'addRowCombination',
      'biasBackward',
      'layernormForward',
      'layernormBackward',
      'attentionForward',
      'attentionBackward',
      'attentionCached',
      'logprobForward',
      'logprobBackward',
      'crossEntropyForward',
      'crossEntropyBackward',
      'sumSquares',
      'adamw',
    ])
      expect(names).toContain(k);
  });

  it('names the reason when a runtime cannot run it', () => {
    const noSimd = new Uint8Array([0, 1, 2, 3]); // not a module this runtime validates
    expect(wasmUnavailableReason(noSimd)).toMatch(/no 128-bit SIMD/);
  });
});
