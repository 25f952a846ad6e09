import { describe, expect, it } from 'vitest';
import { maxAbsDiff } from './diff';

describe('maxAbsDiff', () => {
  it('is the largest absolute difference', () => {
    expect(maxAbsDiff([1, 2, 3], [1, 2.5, 1])).toBe(2);
    expect(maxAbsDiff(new Float32Array([0, -4]), [0, -1])).toBe(3);
    expect(maxAbsDiff([], [])).toBe(0);
  });

  it('never lets a NaN, an infinity or a length mismatch pass as small', () => {
    expect(maxAbsDiff([1, NaN, 1], [1, 1, 1])).toBe(Infinity);
    expect(maxAbsDiff([NaN], [1])).toBe(Infinity); // NaN first: Math.max would give NaN, which no "< tol" catches
    expect(maxAbsDiff([Infinity], [Infinity])).toBe(Infinity);
    expect(maxAbsDiff([1, 2], [1])).toBe(Infinity);
  });
});
