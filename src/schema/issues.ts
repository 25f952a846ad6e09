// The schema layer's messages: a valibot issue becomes the project's "field.path: reason (how to fix)",
// where the path is written as the input has it (`train.lr`, `cohort.agents[1].seed`) and the reason is the
// schema's own message. Every input surface reports through here (docs/reliability.md, "Bad input").
import * as v from 'valibot';

/** An issue of any valibot schema. */
type Issue = v.BaseIssue<unknown>;

/** `a.b[2].c`: the field an issue is about, prefixed by `at` (the path of the value that was parsed). */
function pathOf(issue: Issue, at = ''): string {
  let path = at;
  for (const item of issue.path ?? []) {
    const key = item.key;
    if (typeof key === 'number') path += `[${key}]`;
    else path += path === '' ? String(key) : `.${String(key)}`;
  }
  return path;
}

/** "path: reason" of every issue (just the reason when the value at `at` itself is wrong and `at` is ''). */
function problemsOf(issues: readonly Issue[], at = ''): string[] {
  return issues.map((i) => {
    const path = pathOf(i, at);
    return path === '' ? i.message : `${path}: ${i.message}`;
  });
}

/**
 * The project's input error: thrown when input is refused, `problems` lists every problem, each naming its
 * field. Surfaces that throw use it (or a subclass that names the input); property tests check that no
 * other error escapes a parse.
 */
export class InputError extends Error {
  constructor(
    readonly problems: string[],
    what = 'input',
  ) {
    super(
      `invalid ${what} (${problems.length} problem${problems.length === 1 ? '' : 's'}):\n  - ${problems.join('\n  - ')}`,
    );
    this.name = 'InputError';
  }
}

/**
 * Parse `value` with `schema`, every problem at once (one per field: a field's pipe stops at its first
 * problem). The messages are "path: reason", the path starting at `at`.
 */
export function parseInput<S extends v.GenericSchema>(
  schema: S,
  value: unknown,
  at = '',
): { ok: true; value: v.InferOutput<S> } | { ok: false; errors: string[] } {
  const r = v.safeParse(schema, value, { abortPipeEarly: true });
  return r.success ? { ok: true, value: r.output } : { ok: false, errors: problemsOf(r.issues, at) };
}

/** The problems of `value` against `schema` ([] when it fits), "path: reason" from `at`. */
export function problemsWith(schema: v.GenericSchema, value: unknown, at = ''): string[] {
  const r = parseInput(schema, value, at);
  return r.ok ? [] : r.errors;
}

/** The first problem of `value` against `schema`, without a path (a field's reason), or null when it fits. */
export function reasonWith(schema: v.GenericSchema, value: unknown): string | null {
  const r = v.safeParse(schema, value, { abortEarly: true });
  return r.success ? null : r.issues[0].message;
}
