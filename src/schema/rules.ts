// The schema layer's field rules: valibot schemas whose messages are the reasons the project's tests and
// docs know ("must be an integer in [1, 4096], got 0"). Each message ends with the value it got.
import * as v from 'valibot';

/** A value as the messages show it: JSON, or its String() when JSON has none (undefined, functions). */
export const show = (x: unknown): string => JSON.stringify(x) ?? String(x);

/** A plain object (not null, not an array). */
export const isObj = (x: unknown): x is Record<string, unknown> =>
  typeof x === 'object' && x !== null && !Array.isArray(x);

type Msg = (input: unknown) => string;
const at = (m: Msg) => (issue: v.BaseIssue<unknown>) => m(issue.input);

/** An integer in [min, max]; the message is `reason(got)` (default: the range). */
export function int(min: number, max = Number.MAX_SAFE_INTEGER, reason?: Msg) {
  const m = at(
    reason ??
      ((x) =>
        `must be an integer in [${min}, ${max === Number.MAX_SAFE_INTEGER ? 'inf' : max}], got ${show(x)}`),
  );
  return v.pipe(v.number(m), v.integer(m), v.minValue(min, m), v.maxValue(max, m));
}

/** A finite number between lo and hi, each end closed unless said open. */
export function num(lo: number, hi: number, loOpen = false, hiOpen = false) {
  const m = at(
    (x) =>
      `must be a number in ${loOpen ? '(' : '['}${lo}, ${hi === Infinity ? 'inf' : hi}${hiOpen ? ')' : ']'}, got ${show(x)}`,
  );
  return v.pipe(
    v.number(m),
    v.finite(m),
    loOpen ? v.gtValue(lo, m) : v.minValue(lo, m),
    hiOpen ? v.ltValue(hi, m) : v.maxValue(hi, m),
  );
}

/** One of the names `vals` ('a' | 'b' in the message). */
export function oneOf<const T extends string>(vals: readonly T[]) {
  return v.picklist(
    vals,
    at((x) => `must be one of ${vals.map((s) => `'${s}'`).join(' | ')}, got ${show(x)}`),
  );
}

/** A string that is not empty; the message says what it must be (default: "a non-empty string"). */
export function nonEmpty(what = 'a non-empty string') {
  const m = at((x) => `must be ${what}, got ${show(x)}`);
  return v.pipe(v.string(m), v.nonEmpty(m));
}

/** A string (the message says what it must be). */
export function text(what: string) {
  return v.string(at((x) => `must be ${what}, got ${show(x)}`));
}
