// Task configs through the schema layer under a property test (issue 19): random and mutated configs of
// every kind never throw past the task's own error: validateTaskConfig returns messages naming the field
// (or nothing), resolveTaskConfig a filled config or a TaskConfigError, and a filled config resolves to
// itself.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { hostile, messagesAreText } from '../schema/mutate.fixture';
import {
  defaultTaskConfig,
  resolveTaskConfig,
  TASK_KINDS,
  TaskConfigError,
  validateTaskConfig,
} from './config';
import type { TaskConfig } from './config';

describe('task configs: property test', () => {
  for (const kind of TASK_KINDS)
    it(`${kind}: 500 mutated or random configs are resolved or refused with a TaskConfigError`, () => {
      let refused = 0;
      fc.assert(
        fc.property(hostile(defaultTaskConfig(kind)), (raw) => {
          const errs = validateTaskConfig(raw);
          if (errs.length) {
            refused++;
            expect(messagesAreText(errs)).toBe(true);
            expect(() => resolveTaskConfig(raw as TaskConfig)).toThrow(TaskConfigError);
            return;
          }
          const r = resolveTaskConfig(raw as TaskConfig);
          expect(resolveTaskConfig(r)).toEqual(r);
        }),
        { numRuns: 500, seed: 19 },
      );
      expect(refused).toBeGreaterThan(50);
    });
});
