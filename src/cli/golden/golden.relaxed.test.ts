// The golden run (golden.ts) on the wasm engine's relaxed-SIMD kernels: its own committed digest, and not
// the plain kernels' one (a fused multiply-add rounds once, so the variants part in the last bits and are
// compared only with themselves). In the vitest project `relaxed-simd`.
import { describe, expect, it } from 'vitest';
import { engineId } from '../../engine/backend';
import { makeNodeBackend } from '../../engine/wasm/nodeBackend';
import { goldenMetrics, readGolden, sha256 } from './golden';

describe('golden run on wasm-relaxed', () => {
  it('--backend wasm-relaxed is the relaxed kernel variant, named so', async () => {
    const be = await makeNodeBackend('wasm-relaxed');
    expect(be.info.kernels).toBe('relaxed');
    expect(engineId(be.info)).toBe('wasm-relaxed');
    expect(be.info.adapter).toMatch(/relaxed-SIMD FMA/);
    const plain = await makeNodeBackend('wasm');
    expect(engineId(plain.info)).toBe('wasm');
  });

  it('metric JSON equals its committed digest, which differs from the plain kernels', async () => {
    const golden = readGolden();
    const json = await goldenMetrics('wasm-relaxed');
    expect((JSON.parse(json) as { steps: unknown[] }).steps).toHaveLength(60);
    expect(sha256(json)).toBe(golden['wasm-relaxed']);
    expect(golden['wasm-relaxed']).not.toBe(golden.wasm);
  }, 120_000);
});
