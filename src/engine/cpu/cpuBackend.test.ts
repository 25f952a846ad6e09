// The CPU backend's pool: a freed array serves the next alloc of the same dtype and length, zeroed, so a
// loop that frees and allocates the same buffers every step (activations handed between models,
// src/rl/activationMemory.test.ts) allocates nothing; other sizes and dtypes allocate; a double free is
// harmless.
import { describe, expect, it } from 'vitest';
import { CpuBackend } from './cpuBackend';

describe('the CPU backend pool', () => {
  it('reuses a freed array for the same dtype and length, zeroed, and nothing else', async () => {
    const be = new CpuBackend();
    const a = be.alloc([3, 5], 'f32', 'a');
    be.write(a, new Float32Array(15).fill(7));
    be.free(a);
    be.free(a); // twice: the array must not be handed out twice
    const n = be.counters.allocations;
    const b = be.alloc([15], 'f32', 'b');
    expect(be.counters.allocations).toBe(n); // served from the pool
    expect([...(await be.read(b))]).toEqual(new Array(15).fill(0));
    const c = be.alloc([15], 'f32', 'c'); // the only pooled array is b's
    const d = be.alloc([15], 'u32', 'd');
    const e = be.alloc([16], 'f32', 'e');
    expect(be.counters.allocations).toBe(n + 3);
    be.write(c, new Float32Array(15).fill(1));
    expect([...(await be.read(b))]).toEqual(new Array(15).fill(0)); // c is not b's array
    expect(be.counters.bytesHeld).toBe((15 + 15 + 15 + 16) * 4);
    for (const t of [b, c, d, e]) be.free(t);
    expect(be.counters.bytesHeld).toBe(0);
  });
});
