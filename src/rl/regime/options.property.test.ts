// The regime options (K, T) through the schema layer under a property test (issue 19): any value of K and
// T gives messages naming the option exactly when it is out of range, never a throw.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { regimeOptionErrors } from './measure';

const anyValue = fc.oneof(fc.jsonValue({ maxDepth: 1 }), fc.double(), fc.integer({ min: -5, max: 100 }));

describe('regime options: property test', () => {
  it('names K and T exactly when they are out of range', () => {
    fc.assert(
      fc.property(anyValue, anyValue, (K, temperature) => {
        const errs = regimeOptionErrors({ K, temperature });
        const kOk = typeof K === 'number' && Number.isInteger(K) && K >= 2;
        const tOk = typeof temperature === 'number' && temperature > 0 && temperature <= 10;
        expect(errs.some((e) => e.startsWith('samples (K): '))).toBe(!kOk);
        expect(errs.some((e) => e.startsWith('temperature (T): '))).toBe(!tOk);
        expect(errs).toHaveLength(Number(!kOk) + Number(!tOk));
      }),
      { numRuns: 2000, seed: 19 },
    );
  });
});
