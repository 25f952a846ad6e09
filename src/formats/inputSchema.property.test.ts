// The page's input surfaces through the schema layer under property tests (issue 19): a settings field's
// type check and URL codec, the config editor's JSON and a run file, each fed random and mutated input.
// None throws: a field's value fits its type or has a reason, an edit and a file are accepted or refused
// with messages, and what is accepted is consistent (decoded values fit their field, an accepted run file
// validates again).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { checkParseProperty, hostile, mutated } from '../schema/mutate.fixture';
import { DEFAULT_RUN_SETTINGS, settingsProblems } from './runSettings';
import { good } from './runFile.fixture';
import { validateRunFile } from './runFile';
import { decodeField, encodeField, fieldTypeProblem, SETTINGS_KEYS, settingsFromJson } from './urlConfig';

const key = fc.constantFrom(...SETTINGS_KEYS);
const anyValue = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom(Number.NaN, Infinity, [], [{}], [null], ['co-rl', 1], {}),
);

describe('settings fields: property tests', () => {
  it('a field type check never throws, and says why when a value does not fit', () => {
    fc.assert(
      fc.property(key, anyValue, (k, x) => {
        const p = fieldTypeProblem(k, x);
        return p === null || (typeof p === 'string' && p.length > 0);
      }),
      { numRuns: 3000, seed: 19 },
    );
  });

  it('URL text decodes to a value of the field type or a reason, and values that fit encode and decode back', () => {
    fc.assert(
      fc.property(
        key,
        fc.oneof(
          fc.string({ maxLength: 20 }),
          anyValue.map((x) => JSON.stringify(x) ?? ''),
        ),
        (k, t) => {
          const d = decodeField(k, t);
          if (!d.ok) return d.reason.length > 0;
          expect(fieldTypeProblem(k, d.value)).toBeNull();
          const back = decodeField(k, encodeField(k, d.value));
          expect(back).toEqual({ ok: true, value: d.value });
        },
      ),
      { numRuns: 3000, seed: 20 },
    );
  });

  it('the config editor: mutated or random settings are accepted whole (and check clean) or refused with messages', () => {
    const refused = checkParseProperty(
      hostile(DEFAULT_RUN_SETTINGS),
      (x) => settingsFromJson(x),
      (r) => void expect(settingsProblems(r.settings)).toEqual({}),
      { numRuns: 1000, seed: 21 },
    );
    expect(refused).toBeGreaterThan(100);
  });
});

describe('run files: property test', () => {
  const file = JSON.parse(JSON.stringify(good())) as unknown;

  it('mutated run files are accepted (and validate again) or refused with messages, never a throw', () => {
    const refused = checkParseProperty(
      mutated(file, 4),
      (x) => validateRunFile(x),
      (r) => void expect(validateRunFile(JSON.parse(JSON.stringify(r.run))).ok).toBe(true),
      { numRuns: 500, seed: 22 },
    );
    expect(refused).toBeGreaterThan(100);
  });
});
