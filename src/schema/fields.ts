// An object of named fields through the schema layer: each given field is parsed by its own schema in the
// order the input gives them, a field the schema does not have is named as unknown, and fields left out
// take their defaults. Messages are "at.field: reason".
import * as v from 'valibot';
import { problemsWith } from './issues';
import { isObj, show } from './rules';

/** One schema per field. */
export type Fields<T> = { readonly [K in keyof T]-?: v.GenericSchema };

interface FieldOptions {
  /** The message of an unknown field `key` (default: "unknown field (allowed: ...)"). */
  unknown?: (key: string, allowed: readonly string[]) => string;
  /** The message when the value is not an object (default: "must be an object, got ..."). */
  notObject?: (raw: unknown) => string;
}

const join = (at: string, key: string) => (at === '' ? key : `${at}.${key}`);
const has = (o: object, k: string) => Object.prototype.hasOwnProperty.call(o, k);

/** "at.key: unknown field (allowed: ...)" for every key of `raw` not in `allowed`, in the input's order. */
export function unknownFields(
  raw: Record<string, unknown>,
  at: string,
  allowed: readonly string[],
  unknown: FieldOptions['unknown'] = (_, a) => `unknown field (allowed: ${a.join(', ')})`,
): string[] {
  return Object.keys(raw)
    .filter((k) => !allowed.includes(k))
    .map((k) => `${join(at, k)}: ${unknown(k, allowed)}`);
}

/**
 * The problems of every field of `fields`, in the schema's order, a missing field checked as undefined
 * (so an optional field's schema is v.optional(...) and a required one says what it wants).
 */
export function eachField(raw: Record<string, unknown>, at: string, fields: Record<string, v.GenericSchema>) {
  return Object.entries(fields).flatMap(([k, schema]) => problemsWith(schema, raw[k], join(at, k)));
}

/**
 * `raw`'s fields checked against `fields`, over a copy of `defaults` (undefined `raw`: the defaults).
 * Pushes "at.key: reason" for every unknown or bad field and keeps the default for it.
 */
export function checkFields<T extends object>(
  raw: unknown,
  at: string,
  defaults: Readonly<T>,
  fields: Fields<T>,
  errs: string[],
  opts: FieldOptions = {},
): T {
  const out = { ...defaults } as T;
  if (raw === undefined) return out;
  if (!isObj(raw)) {
    errs.push(`${at}: ${opts.notObject?.(raw) ?? `must be an object, got ${show(raw)}`}`);
    return out;
  }
  const allowed = Object.keys(fields);
  for (const [k, value] of Object.entries(raw)) {
    if (!has(fields, k)) {
      errs.push(...unknownFields({ [k]: value }, at, allowed, opts.unknown));
      continue;
    }
    const problems = problemsWith(fields[k as keyof T], value, join(at, k));
    if (problems.length) errs.push(...problems);
    else (out as Record<string, unknown>)[k] = value;
  }
  return out;
}
