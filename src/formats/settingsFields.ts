// The run settings' field codec: each field's kind from its default, its type check, and its URL text (read by decodeField, written by encodeField); used by ./urlConfig.ts.
import * as v from 'valibot';
import { reasonWith } from '../schema';
import { customAgentProblems, type CustomAgent } from './customCohort';
import { DEFAULT_RUN_SETTINGS, type RunSettings } from './runSettings';

/** How a field is written in a URL, from its default value. */
export type FieldKind = 'number' | 'boolean' | 'string' | 'list' | 'json';

export type Defaults = Record<string, unknown>;
export const defaults = DEFAULT_RUN_SETTINGS as unknown as Defaults;

/** The run settings' field names, in the defaults' order. */
export const SETTINGS_KEYS: readonly (keyof RunSettings)[] = Object.keys(
  DEFAULT_RUN_SETTINGS,
) as (keyof RunSettings)[];

export const isKey = (k: string): k is keyof RunSettings => Object.prototype.hasOwnProperty.call(defaults, k);
export const isObj = (x: unknown): x is Record<string, unknown> =>
  typeof x === 'object' && x !== null && !Array.isArray(x);
export const show = (x: unknown): string => {
  const s = typeof x === 'string' ? x : (JSON.stringify(x) ?? String(x));
  return s.length > 80 ? `${s.slice(0, 77)}...` : s;
};

/** The kind of field `key` (from its default): string arrays are lists, other arrays and objects JSON. */
export function fieldKind(key: keyof RunSettings): FieldKind {
  const d = defaults[key];
  if (typeof d === 'number') return 'number';
  if (typeof d === 'boolean') return 'boolean';
  if (typeof d === 'string') return 'string';
  if (Array.isArray(d) && d.length > 0 && d.every((x) => typeof x === 'string')) return 'list';
  return 'json';
}

/** Deep equality of JSON-like values (settings are plain data). */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((x, i) => sameValue(x, bb[i]));
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  const ka = Object.keys(ao);
  return (
    ka.length === Object.keys(bo).length &&
    ka.every((k) => Object.prototype.hasOwnProperty.call(bo, k) && sameValue(ao[k], bo[k]))
  );
}

const describeKind = (key: keyof RunSettings): string => {
  const d = defaults[key];
  switch (fieldKind(key)) {
    case 'number':
      return 'a number';
    case 'boolean':
      return 'true or false';
    case 'string':
      return 'a string';
    case 'list':
      return 'a list of names';
    default:
      if (Array.isArray(d)) return d.length && isObj(d[0]) ? 'a list of objects' : 'a list';
      return isObj(d) ? 'an object' : 'a JSON value';
  }
};

/**
 * Fields whose items need more than a type check: a composed agent is an object with fields of its own,
 * checked whatever the cohort mode (a link in preset mode must not smuggle in a broken agent list).
 */
const ITEM_PROBLEMS: Partial<Record<keyof RunSettings, (items: unknown[]) => string | null>> = {
  customAgents: (items) =>
    items.length === 0 ? null : (customAgentProblems(items as CustomAgent[])[0] ?? null),
};

/** A check whose message is computed from the value: `problem` gives the reason, or null when it fits. */
const reasoned = <T>(problem: (x: T) => string | null) =>
  v.rawCheck<T>(({ dataset, addIssue }) => {
    const p = dataset.typed ? problem(dataset.value) : null;
    if (p) addIssue({ message: p });
  });

/** The schema of field `key`'s type, from its default (schema layer); ranges are settingsProblems'. */
function fieldSchema(key: keyof RunSettings): v.GenericSchema {
  const d = defaults[key];
  const want = (i: v.BaseIssue<unknown>) => `must be ${describeKind(key)}, got ${show(i.input)}`;
  switch (fieldKind(key)) {
    case 'number':
      return v.pipe(v.number(want), v.finite(want));
    case 'boolean':
      return v.boolean(want);
    case 'string':
      return v.string(want);
    case 'list':
      return v.pipe(
        v.array(v.unknown(), want),
        v.check((a) => a.every((x) => typeof x === 'string'), want),
      );
    default: {
      const items = ITEM_PROBLEMS[key] ?? (() => null);
      if (Array.isArray(d)) {
        const el: unknown = d.length ? d[0] : undefined; // an empty default: only the field's own check
        const fits = (x: unknown) => (isObj(el) ? isObj(x) : typeof x === typeof el);
        return v.pipe(
          v.array(v.unknown(), want),
          reasoned<unknown[]>((a) => {
            const bad = el === undefined ? -1 : a.findIndex((x) => !fits(x));
            return bad >= 0
              ? `item ${bad + 1} must be ${isObj(el) ? 'an object' : `a ${typeof el}`}, got ${show(a[bad])}`
              : null;
          }),
          reasoned<unknown[]>(items),
        );
      }
      if (isObj(d)) return v.custom(isObj, want);
      return v.unknown(); // a null default: any JSON value; settingsProblems judges it
    }
  }
}

/** The type schema of every run-settings field. */
const FIELD_SCHEMAS = Object.fromEntries(SETTINGS_KEYS.map((k) => [k, fieldSchema(k)])) as Record<
  keyof RunSettings,
  v.GenericSchema
>;

/**
 * Problem with `value` as the type of field `key` (a JSON value: from a file, or decoded from a URL), or
 * null when the type fits. Ranges and allowed names are settingsProblems' job.
 */
export function fieldTypeProblem(key: keyof RunSettings, value: unknown): string | null {
  return reasonWith(FIELD_SCHEMAS[key], value);
}

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

/** The value of field `key` from its URL text, or why it cannot be read. */
export function decodeField(
  key: keyof RunSettings,
  text: string,
): { ok: true; value: unknown } | { ok: false; reason: string } {
  const t = text.trim();
  let value: unknown;
  switch (fieldKind(key)) {
    case 'number':
      if (!NUMBER.test(t)) return { ok: false, reason: 'not a number' };
      value = Number(t);
      if (!Number.isFinite(value)) return { ok: false, reason: 'not a finite number' };
      break;
    case 'boolean': {
      const l = t.toLowerCase();
      if (l === '1' || l === 'true') value = true;
      else if (l === '0' || l === 'false') value = false;
      else return { ok: false, reason: 'must be 1, 0, true or false' };
      break;
    }
    case 'string':
      value = text;
      break;
    case 'list':
      if (t.startsWith('[')) return decodeJson(key, t);
      value =
        t === ''
          ? []
          : t
              .split(',')
              .map((x) => x.trim())
              .filter((x) => x !== '');
      break;
    default: {
      if (Array.isArray(defaults[key]) && t === '') value = [];
      else return decodeJson(key, t);
    }
  }
  const p = fieldTypeProblem(key, value);
  return p ? { ok: false, reason: p } : { ok: true, value };
}

function decodeJson(
  key: keyof RunSettings,
  t: string,
): { ok: true; value: unknown } | { ok: false; reason: string } {
  let value: unknown;
  try {
    value = JSON.parse(t);
  } catch (e) {
    return { ok: false, reason: `not valid JSON (${e instanceof Error ? e.message : String(e)})` };
  }
  const p = fieldTypeProblem(key, value);
  return p ? { ok: false, reason: p } : { ok: true, value };
}

/** The URL text of `value` for field `key` (decodeField reads it back). */
export function encodeField(key: keyof RunSettings, value: unknown): string {
  const kind = fieldKind(key);
  if (kind === 'number' || kind === 'boolean' || kind === 'string') return String(value);
  const plain = (x: unknown) =>
    typeof x === 'string' && x !== '' && x.trim() === x && !x.includes(',') && !x.startsWith('[');
  if (kind === 'list' && Array.isArray(value) && value.every(plain)) return value.join(',');
  if (Array.isArray(value) && value.length === 0 && Array.isArray(defaults[key])) return '';
  return JSON.stringify(value);
}
