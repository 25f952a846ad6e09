// The pool on the wasm engine's relaxed-SIMD kernels (in the vitest project `relaxed-simd`): the workers
// run the coordinator's kernel variant, so the short paper-demo run's metric JSON is byte-identical with
// 1 and 2 workers there too (like with like: never compared with the plain kernels' run).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNodePool } from './nodePool';
import type { ModelPool } from './poolModels';
import { metrics } from './poolRun.suite';

describe('the pool on wasm-relaxed', () => {
  let pool: ModelPool;
  beforeAll(async () => {
    pool = await startNodePool(2, 'wasm-relaxed');
  }, 60_000);
  afterAll(() => pool?.close());

  it('gives byte-identical metric JSON with 1 and 2 workers', async () => {
    expect(pool.engine).toBe('wasm-relaxed');
    const one = await metrics(undefined, 'wasm-relaxed');
    expect(await metrics(pool.factory, 'wasm-relaxed')).toBe(one);
  }, 120_000);
});
