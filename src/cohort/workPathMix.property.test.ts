// A recipe's `paths` mix through the schema layer under a property test (issue 19): random and mutated
// mixes never throw: workPathMixErrors names every problem (or none), and a mix it accepts holds only
// known paths with weights >= 0, some > 0, so every problem draws one of its weighted paths.
import { describe, expect, it } from 'vitest';
import { checkParseProperty, hostile } from '../schema/mutate.fixture';
import { makeTask } from '../tasks';
import { WORK_PATH_NAMES } from '../tasks/workPaths';
import { drawWorkPath, workPathMixErrors, type WorkPathMix } from './workPathMix';

const problems = makeTask({ kind: 'muladdw', aDigits: 2, cDigits: 2 }).heldOut('validation', 20);

describe('work path mixes: property test', () => {
  it('2000 mutated or random mixes are accepted (each problem drawing a weighted path) or refused with messages', () => {
    const refused = checkParseProperty<{ mix: WorkPathMix }>(
      hostile({ chain: 0.5, sums: 0.5, addin: 0, partials: 1 }),
      (x) => {
        const errors = workPathMixErrors(x);
        return errors.length ? { ok: false as const, errors } : { ok: true as const, mix: x as WorkPathMix };
      },
      ({ mix }, x) => {
        expect(mix).toBe(x);
        expect(Object.keys(mix).every((k) => WORK_PATH_NAMES.includes(k))).toBe(true);
        const weighted = Object.keys(mix).filter((k) => mix[k] > 0);
        for (const p of problems) expect(weighted).toContain(drawWorkPath(p, mix, 3));
      },
      { numRuns: 2000, seed: 19 },
    );
    expect(refused).toBeGreaterThan(800);
  });
});
