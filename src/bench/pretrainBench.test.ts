// The pretraining row's bound: rungs packed on the builders largest first, the busiest builder's share.
import { describe, expect, it } from 'vitest';
import { packedMs } from './pretrainBench';

describe('packedMs', () => {
  it('packs indivisible rungs, largest first, each on the least loaded builder', () => {
    expect(packedMs([1, 1, 1], 2)).toBe(2); // 3 equal rungs on 2 builders: 1.5x at most
    expect(packedMs([5, 3.5], 2)).toBe(5);
    expect(packedMs([2, 3, 2, 3, 2], 2)).toBe(7); // largest first: 3+2+2 | 3+2 (the best split is 6)
    expect(packedMs([4, 1], 1)).toBe(5);
    expect(packedMs([4, 1], 0)).toBe(5); // no builders counts as one
  });
});
