// The schema layer's helpers: paths as the input writes them, every problem "path: reason", rules whose
// messages say the allowed range and the value got, and fields checked in the input's order with defaults.
import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import {
  checkFields,
  eachField,
  int,
  num,
  oneOf,
  parseInput,
  problemsWith,
  reasonWith,
  unknownFields,
} from '.';

describe('schema layer', () => {
  it('names the field path of nested issues, items in brackets', () => {
    const s = v.object({ a: v.object({ b: v.array(int(0, 9)) }) });
    expect(problemsWith(s, { a: { b: [1, 12, 'x'] } })).toEqual([
      'a.b[1]: must be an integer in [0, 9], got 12',
      'a.b[2]: must be an integer in [0, 9], got "x"',
    ]);
    expect(problemsWith(int(1), 0, 'steps')).toEqual(['steps: must be an integer in [1, inf], got 0']);
    expect(parseInput(int(1), 3)).toEqual({ ok: true, value: 3 });
  });

  it('says one reason per field: the first rule it breaks', () => {
    expect(reasonWith(num(0, 1, true), 0)).toBe('must be a number in (0, 1], got 0');
    expect(reasonWith(num(0, 1, false, true), 1)).toBe('must be a number in [0, 1), got 1');
    expect(reasonWith(num(0, Infinity), Number.NaN)).toBe('must be a number in [0, inf], got null');
    expect(reasonWith(num(0, Infinity), Infinity)).toBe('must be a number in [0, inf], got null');
    expect(reasonWith(oneOf(['a', 'b']), 'c')).toBe("must be one of 'a' | 'b', got \"c\"");
    expect(reasonWith(int(0, 3), 2)).toBeNull();
  });

  it('checks fields in the input order over the defaults, naming unknown ones', () => {
    const errs: string[] = [];
    const out = checkFields(
      { z: 1, b: 'no', a: 2 },
      'sec',
      { a: 0, b: 1 },
      { a: int(0, 5), b: int(0, 5) },
      errs,
    );
    expect(out).toEqual({ a: 2, b: 1 });
    expect(errs).toEqual([
      'sec.z: unknown field (allowed: a, b)',
      'sec.b: must be an integer in [0, 5], got "no"',
    ]);
    const e2: string[] = [];
    expect(checkFields([], 'sec', { a: 0 }, { a: int(0, 5) }, e2)).toEqual({ a: 0 });
    expect(e2).toEqual(['sec: must be an object, got []']);
    expect(unknownFields({ constructor: 1 }, '', ['a'])).toEqual(['constructor: unknown field (allowed: a)']);
    expect(eachField({}, 'x', { a: int(0, 1), b: v.optional(int(0, 1)) })).toEqual([
      'x.a: must be an integer in [0, 1], got undefined',
    ]);
  });
});
