// Inputs for the schema layer's property tests: a valid value mutated at random places (a field replaced by
// any JSON value, removed, or a field added), and the check every surface's property asserts: a parse
// returns, or throws the project's input error, never anything else.
import fc from 'fast-check';
import { InputError } from './issues';

type Json = unknown;

/** Every path of a JSON value's fields and items (the value itself is []). */
function pathsOf(x: Json, at: (string | number)[] = []): (string | number)[][] {
  const out = [at];
  if (Array.isArray(x)) x.forEach((y, i) => out.push(...pathsOf(y, [...at, i])));
  else if (x && typeof x === 'object')
    for (const [k, y] of Object.entries(x)) out.push(...pathsOf(y, [...at, k]));
  return out;
}

/** Scalars and small values that break or fit a field by chance: bounds, wrong types, empties. */
const edgy = fc.oneof(
  fc.constantFrom(0, 1, 2, -1, 0.5, 1e9, -0, null, '', 'x', true, false, [], {}, [null], { a: 1 }),
  fc.constantFrom(Number.NaN, Infinity, -Infinity, 2 ** 32, Number.MAX_SAFE_INTEGER + 2),
  fc.integer(),
  fc.double(),
  fc.string({ maxLength: 8 }),
);
const anyValue = fc.oneof(edgy, fc.jsonValue({ maxDepth: 2 }));

/** `base` with one to `n` mutations: a field or item replaced, removed, or an unknown field added. */
export function mutated(base: Json, n = 3): fc.Arbitrary<Json> {
  const paths = pathsOf(base);
  const one = fc.tuple(
    fc.constantFrom(...paths),
    fc.constantFrom('set', 'delete', 'add'),
    anyValue,
    fc.string({ minLength: 1, maxLength: 6 }),
  );
  return fc.array(one, { minLength: 1, maxLength: n }).map((muts) => {
    let root = structuredClone(base) as Json;
    for (const [path, op, value, key] of muts) {
      if (path.length === 0) {
        if (op === 'set') root = structuredClone(value);
        continue;
      }
      let o = root as Record<string | number, Json>;
      for (const k of path.slice(0, -1)) {
        if (!o || typeof o !== 'object') break;
        o = o[k] as Record<string | number, Json>;
      }
      if (!o || typeof o !== 'object') continue;
      const last = path[path.length - 1];
      if (op === 'set') o[last] = structuredClone(value);
      else if (op === 'delete') {
        if (Array.isArray(o))
          o.splice(Number(last), 1); // an item removed, never a hole (JSON has none)
        else delete o[last];
      } else {
        const target = o[last];
        if (target && typeof target === 'object' && !Array.isArray(target))
          (target as Record<string, Json>)[key] = structuredClone(value);
      }
    }
    return root;
  });
}

/** Random input for a surface: `base` mutated, or any JSON value. */
export const hostile = (base: Json): fc.Arbitrary<Json> =>
  fc.oneof({ arbitrary: mutated(base), weight: 4 }, { arbitrary: fc.jsonValue({ maxDepth: 3 }), weight: 1 });

/**
 * Run `parse`: it may return anything, or throw an InputError (or a subclass) whose problems are text;
 * any other throw is rethrown, so the property fails with it. Returns whether it refused.
 */
export function refusesOnlyWithInputError(parse: () => unknown): boolean {
  try {
    parse();
    return false;
  } catch (e) {
    if (!(e instanceof InputError)) throw e;
    if (!messagesAreText(e.problems))
      throw new Error(`an InputError without messages: ${e.message}`, { cause: e });
    return true;
  }
}

/** Every message of a refusal names a field or the input ("path: reason", or a sentence). */
export function messagesAreText(errors: readonly unknown[]): boolean {
  return errors.length > 0 && errors.every((e) => typeof e === 'string' && e.trim().length > 0);
}

/** What a parse that never throws returns: its value, or the messages of a refusal. */
type Parsed<T> = ({ ok: true } & T) | { ok: false; errors: string[] };

/**
 * The property every "ok or errors" surface has: over `runs` inputs drawn from `input` (fixed seed),
 * `parse` never throws, a refusal's errors are messages, and what it accepts passes `accepted`.
 * Returns how many inputs were refused (so a test can check the inputs do break the surface).
 */
export function checkParseProperty<T>(
  input: fc.Arbitrary<Json>,
  parse: (x: Json) => Parsed<T>,
  accepted: (r: T, x: Json) => boolean | void,
  runs: { numRuns: number; seed: number },
): number {
  let refused = 0;
  fc.assert(
    fc.property(input, (x) => {
      const r = parse(x);
      if (!r.ok) {
        refused++;
        return messagesAreText(r.errors);
      }
      return accepted(r, x);
    }),
    runs,
  );
  return refused;
}
