// The committed kernel module (kernelsWasm.ts) is what its AssemblyScript source (wasm/*.ts) builds to:
// rebuilt here with the pinned compiler and compared byte for byte (run `npm run build:wasm` after
// editing wasm/*.ts). Also checks the module validates, imports only its memory and exports every kernel.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { KERNEL_BUILDS, compileKernels, kernelsModuleSource } from './buildKernels';
import { KERNEL_VARIANTS, kernelBytes, wasmUnavailableReason } from './kernels';

describe('wasm kernel module', () => {
  for (const variant of KERNEL_VARIANTS)
    it(`${variant}: matches a fresh build of wasm/*.ts byte for byte`, async () => {
      const built = await compileKernels(variant);
      const committed = kernelBytes(variant);
      expect(committed.length).toBe(built.length);
      expect(Buffer.from(committed).equals(Buffer.from(built))).toBe(true);
      expect(readFileSync(KERNEL_BUILDS[variant].file, 'utf8')).toBe(kernelsModuleSource(built, variant));
    }, 60_000);

  it('the variants differ: the relaxed module has fused multiply-adds (0xfd 0x85 0x02), the plain one none', () => {
    const fma = (b: Uint8Array): number => {
      let n = 0;
      for (let i = 0; i + 2 < b.length; i++) if (b[i] === 0xfd && b[i + 1] === 0x85 && b[i + 2] === 0x02) n++;
      return n;
    };
    expect(fma(kernelBytes('relaxed'))).toBeGreaterThan(20);
    expect(fma(kernelBytes('simd'))).toBe(0);
  });

  it('without the flag Node 20 has no relaxed SIMD: auto takes simd, an explicit relaxed is refused with the fix', () => {
    // in a fresh Node: a test in this process may have turned the V8 flag on (--backend wasm-relaxed does)
    const script =
      "import('./src/engine/wasm/kernels.ts').then((m) => { let e = ''; try { m.resolveKernelVariant('relaxed'); } " +
      "catch (x) { e = x.message; } console.log(JSON.stringify({ auto: m.resolveKernelVariant('auto'), e })); })";
    const out = execFileSync(process.execPath, ['--import', 'tsx', '-e', script], { encoding: 'utf8' });
    const r = JSON.parse(out) as { auto: string; e: string };
    expect(r.auto).toBe('simd');
    expect(r.e).toMatch(/--experimental-wasm-relaxed-simd/);
  });

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
