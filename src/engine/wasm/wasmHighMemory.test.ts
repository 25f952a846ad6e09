// Tensors above 2 GiB of the wasm backend's linear memory. A long run (the registered test's five methods
// of two agents, 300 steps, 2,000-problem evaluations) grows the memory past 2^31 bytes; a byte offset
// turned into a typed-array index with a signed shift there (`ptr >> 2`) is negative, and `subarray` with
// negative indices views the end of the memory instead: reads of the wrong floats and writes over other
// tensors, with no error. Only the pages touched here are committed, so the test costs little real memory.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Tensor } from '../tensor';
import { WasmBackend } from './wasmBackend';

const TWO_GIB = 2 ** 31;

describe('the wasm backend above 2 GiB of linear memory', () => {
  let wasm: WasmBackend;
  let filler: Tensor;
  beforeAll(async () => {
    wasm = await WasmBackend.create('simd');
    // one block that pushes the bump pointer past 2^31 bytes
    filler = wasm.alloc([TWO_GIB / 4 + 1024], 'f32', 'filler');
  });
  afterAll(() => {
    wasm.free(filler);
    wasm.destroy?.();
  });

  it('reads back what it wrote, and a kernel and a JS op both work on tensors there', async () => {
    const n = 37;
    const a = wasm.alloc([n], 'f32', 'a');
    const b = wasm.alloc([n], 'f32', 'b');
    const out = wasm.alloc([n], 'f32', 'out');
    expect((a as unknown as { ptr: number }).ptr).toBeGreaterThan(TWO_GIB);
    const av = Float32Array.from({ length: n }, (_, i) => i + 0.5);
    const bv = Float32Array.from({ length: n }, (_, i) => 100 - i);
    wasm.write(a, av);
    wasm.write(b, bv);
    wasm.write(out, new Float32Array(n).fill(Number.NaN)); // poisoned
    expect([...(await wasm.read(a))]).toEqual([...av]);
    wasm.residualForward({ out, a, b, N: n });
    expect([...(await wasm.read(out))]).toEqual([...av].map((x, i) => x + bv[i]));

    // kvCacheWrite runs in JS on views of the memory: B 2, T 3, C 4, into caches of Tmax 5
    const [B, T, C, Tmax] = [2, 3, 4, 5];
    const qkv = wasm.alloc([B * T * 3 * C], 'f32', 'qkv');
    const kc = wasm.alloc([B * Tmax * C], 'f32', 'kc');
    const vc = wasm.alloc([B * Tmax * C], 'f32', 'vc');
    const q = Float32Array.from({ length: B * T * 3 * C }, (_, i) => i);
    wasm.write(qkv, q);
    wasm.write(kc, new Float32Array(B * Tmax * C).fill(-1));
    wasm.write(vc, new Float32Array(B * Tmax * C).fill(-1));
    wasm.kvCacheWrite({ kcache: kc, vcache: vc, qkv, B, T, pos0: 1, Tmax, C });
    const k = await wasm.read(kc);
    const v = await wasm.read(vc);
    for (let bb = 0; bb < B; bb++)
      for (let t = 0; t < T; t++)
        for (let c = 0; c < C; c++) {
          const src = (bb * T + t) * 3 * C;
          expect(k[(bb * Tmax + 1 + t) * C + c]).toBe(q[src + C + c]);
          expect(v[(bb * Tmax + 1 + t) * C + c]).toBe(q[src + 2 * C + c]);
        }
    expect(k[0]).toBe(-1); // position 0 untouched
    for (const t of [a, b, out, qkv, kc, vc]) wasm.free(t);
  });
});
