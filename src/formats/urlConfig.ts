// The Train view's run settings as URL query parameters, and the checks every way settings enter the app
// goes through (a link, an imported run file, the config editor's JSON: settingsFromJson, all or nothing).
// The codec is generic over the keys of DEFAULT_RUN_SETTINGS: each field's kind follows its default
// value — numbers, booleans (1/0/true/false), strings, string lists (comma-separated, e.g.
// `methods=co-rl,ttrl`) and anything else (arrays of objects, objects, null) as JSON
// in one parameter. Only fields that differ from the defaults are written. Reading type-checks each field,
// then checks the merged settings with settingsProblems; every field that fails falls back to its default
// and is reported (parameter, value, why), never thrown.
import { DEFAULT_RUN_SETTINGS, settingsProblems, type RunSettings } from './runSettings';
import {
  decodeField,
  defaults,
  encodeField,
  fieldKind,
  fieldTypeProblem,
  isKey,
  isObj,
  sameValue,
  SETTINGS_KEYS,
  show,
  type Defaults,
} from './settingsFields';

export { decodeField, encodeField, fieldKind, fieldTypeProblem, sameValue, SETTINGS_KEYS };

/** Query parameters that belong to the app shell, not to the run settings: kept as they are, never reported. */
export const RESERVED_PARAMS: readonly string[] = ['view', 'autostart', 'embed', 'show', 'run']; // embed mode: src/app/teach/teachUrl.ts

/** One field that was given but not used, and why. */
export interface IgnoredField {
  key: string;
  /** The value as given (URL text, or JSON for a file's value). */
  value: string;
  reason: string;
}

/** A query value: percent-encoded, but the characters of lists and JSON that a URL allows left readable. */
const q = (s: string): string =>
  encodeURIComponent(s).replace(/%(2C|3A|5B|5D|7B|7D)/gi, (m) => decodeURIComponent(m));

/** `key=value` pairs (no '?') of the fields that differ from the defaults, in the defaults' order. */
export function settingsToQuery(s: RunSettings): string {
  const rec = s as unknown as Record<string, unknown>;
  return SETTINGS_KEYS.filter((k) => k in rec && !sameValue(rec[k], defaults[k]))
    .map((k) => `${k}=${q(encodeField(k, rec[k]))}`)
    .join('&');
}

/**
 * `search` with its run-settings parameters replaced by those of `s`: the reserved parameters (view=,
 * autostart=) stay first as they were; parameters that are not settings are dropped (they were reported).
 * Returns '' or a string starting with '?'.
 */
export function mergeQuery(search: string, s: RunSettings): string {
  const keep = [...new URLSearchParams(search)]
    .filter(([k]) => RESERVED_PARAMS.includes(k))
    .map(([k, v]) => `${q(k)}=${q(v)}`);
  const own = settingsToQuery(s);
  const all = [...keep, ...(own ? [own] : [])].join('&');
  return all ? `?${all}` : '';
}

/** A shareable link to the Train view with settings `s` (location-like: origin and pathname). */
export function linkFor(s: RunSettings, loc: { origin: string; pathname: string }): string {
  const own = settingsToQuery(s);
  return `${loc.origin}${loc.pathname}${own ? `?${own}` : ''}#train`;
}

/** "steps=-5 (must be an integer in [1, 1000000], got -5)": one ignored field, as the notice lists it. */
export function formatIgnored(i: IgnoredField): string {
  return `${i.key}=${show(i.value)} (${i.reason})`;
}

/**
 * settingsProblems that never throws: when the check throws on some value (e.g. a malformed list item),
 * the given fields whose default makes it pass are blamed (JSON-kind fields first), with the error.
 */
function safeProblems(
  s: RunSettings,
  given: readonly (keyof RunSettings)[],
): Partial<Record<string, string>> {
  const throws = (x: RunSettings): string | null => {
    try {
      settingsProblems(x);
      return null;
    } catch (e) {
      return e instanceof Error ? e.message : String(e);
    }
  };
  try {
    return settingsProblems(s);
  } catch (e) {
    const why = `could not be checked (${e instanceof Error ? e.message : String(e)})`;
    const fixes = given.filter(
      (k) => throws({ ...s, [k]: structuredClone(defaults[k]) } as RunSettings) === null,
    );
    const json = fixes.filter((k) => fieldKind(k) === 'json');
    const blamed = json.length ? json : fixes.length ? fixes : given;
    return Object.fromEntries(blamed.map((k) => [k, why]));
  }
}

/**
 * Settings from typed field values (each already decoded or parsed from JSON): every value is
 * type-checked, then the merged settings are checked with settingsProblems; each field that fails falls
 * back to its default and is listed in `ignored` with the reason. `shown` gives the text to report for a
 * field (default: the value as JSON).
 */
export function resolveSettings(
  given: Partial<Record<keyof RunSettings, unknown>>,
  shown: Partial<Record<string, string>> = {},
): { settings: RunSettings; ignored: IgnoredField[]; used: (keyof RunSettings)[] } {
  const out = structuredClone(DEFAULT_RUN_SETTINGS) as unknown as Defaults;
  const ignored: IgnoredField[] = [];
  const textOf = (k: string, v: unknown) =>
    shown[k] ?? (typeof v === 'string' ? v : (JSON.stringify(v) ?? String(v)));
  let used: (keyof RunSettings)[] = [];
  for (const k of SETTINGS_KEYS) {
    if (!(k in given)) continue;
    const v = (given as Defaults)[k];
    const p = fieldTypeProblem(k, v);
    if (p) ignored.push({ key: k, value: textOf(k, v), reason: p });
    else {
      out[k] = v;
      used.push(k);
    }
  }
  // fall back field by field until what is left passes (a fixed point within SETTINGS_KEYS rounds)
  for (let round = 0; round <= SETTINGS_KEYS.length && used.length; round++) {
    const problems = safeProblems(out as unknown as RunSettings, used);
    const bad = used.filter((k) => problems[k]);
    if (bad.length === 0) break;
    for (const k of bad) {
      ignored.push({ key: k, value: textOf(k, (given as Defaults)[k]), reason: problems[k]! });
      out[k] = structuredClone(defaults[k]);
    }
    used = used.filter((k) => !bad.includes(k));
  }
  ignored.sort(
    (a, b) =>
      SETTINGS_KEYS.indexOf(a.key as keyof RunSettings) - SETTINGS_KEYS.indexOf(b.key as keyof RunSettings),
  );
  return { settings: out as unknown as RunSettings, ignored, used };
}

/** What the config editor needs to know beyond the JSON: the preset names the manifest lists (when read). */
export interface SettingsJsonContext {
  presets?: readonly string[];
}

/**
 * Run settings from an edited JSON object (the Train view's config editor): the same checks as a link and
 * a run file (fieldTypeProblem, then settingsProblems through resolveSettings; the preset against the
 * manifest's names when given, as a link's is once the manifest is read), but all or nothing: any unknown,
 * mistyped or out-of-range field refuses the whole edit, and every problem is listed as "field: why".
 * Fields left out take their defaults, as in a link (`defaulted` names them). Never throws.
 */
export function settingsFromJson(
  value: unknown,
  ctx: SettingsJsonContext = {},
): { ok: true; settings: RunSettings; defaulted: (keyof RunSettings)[] } | { ok: false; errors: string[] } {
  if (!isObj(value))
    return {
      ok: false,
      errors: [
        `the config must be a JSON object of run settings, like {"steps": 200, "lr": 0.0001}; got ${Array.isArray(value) ? 'an array' : show(value)}`,
      ],
    };
  const errors: { key: string; text: string }[] = [];
  const given: Partial<Record<keyof RunSettings, unknown>> = {};
  for (const [k, v] of Object.entries(value)) {
    if (isKey(k)) given[k] = v;
    else {
      const hint =
        k === 'settings' || k === 'config' ? `; from a run file, paste only its "settings" object` : '';
      errors.push({
        key: k,
        text: `${show(k)}: unknown setting; run settings are ${SETTINGS_KEYS.join(', ')}${hint}`,
      });
    }
  }
  const r = resolveSettings(given);
  for (const i of r.ignored) errors.push({ key: i.key, text: `${i.key}: ${i.reason}` });
  const names = ctx.presets?.length ? ctx.presets : null;
  if (names && r.used.includes('preset') && !names.includes(r.settings.preset))
    errors.push({
      key: 'preset',
      text: `preset: unknown preset ${JSON.stringify(show(r.settings.preset))}; available: ${names.join(', ')}`,
    });
  if (errors.length) {
    const order = (key: string) => {
      const i = SETTINGS_KEYS.indexOf(key as keyof RunSettings);
      return i < 0 ? SETTINGS_KEYS.length : i;
    };
    return { ok: false, errors: errors.sort((a, b) => order(a.key) - order(b.key)).map((e) => e.text) };
  }
  return { ok: true, settings: r.settings, defaulted: SETTINGS_KEYS.filter((k) => !(k in given)) };
}

/**
 * settingsFromJson of a JSON text; a syntax error is refused with the parser's message and, where it gives
 * a position, the line and column (1-based).
 */
export function settingsFromJsonText(
  text: string,
  ctx: SettingsJsonContext = {},
): ReturnType<typeof settingsFromJson> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return { ok: false, errors: [`not valid JSON: ${jsonErrorWhere(text, e)}`] };
  }
  return settingsFromJson(value, ctx);
}

/** A JSON.parse error's message, with "line L, column C" added when it gives only a position. */
export function jsonErrorWhere(text: string, e: unknown): string {
  const msg = e instanceof Error ? e.message : String(e);
  if (/line \d+/i.test(msg)) return msg;
  const m = /position (\d+)/i.exec(msg);
  if (!m) return text.trim() === '' ? `${msg} (the text is empty)` : msg;
  const before = text.slice(0, Number(m[1])).split('\n');
  return `${msg} (line ${before.length}, column ${before[before.length - 1].length + 1})`;
}

/**
 * Run settings from a URL query (`?preset=paper-demo&methods=co-rl,ttrl&steps=50`): the defaults, with every
 * parameter that reads and checks fine applied. `ignored` lists the rest (unknown parameters, repeated ones,
 * unreadable or out-of-range values) in the settings' order; `used` the fields taken from the link.
 */
export function settingsFromQuery(search: string): {
  settings: RunSettings;
  ignored: IgnoredField[];
  used: (keyof RunSettings)[];
} {
  const given: Partial<Record<keyof RunSettings, unknown>> = {};
  const shown: Partial<Record<string, string>> = {};
  const early: IgnoredField[] = [];
  const seen = new Set<string>();
  let params: [string, string][];
  try {
    params = [...new URLSearchParams(search)];
  } catch {
    params = [];
  }
  for (const [k, v] of params) {
    if (RESERVED_PARAMS.includes(k)) continue;
    if (!isKey(k)) {
      early.push({
        key: k,
        value: v,
        reason: `unknown parameter; run settings are ${SETTINGS_KEYS.join(', ')}`,
      });
      continue;
    }
    if (seen.has(k)) {
      early.push({ key: k, value: v, reason: 'given more than once; the first value counts' });
      continue;
    }
    seen.add(k);
    const d = decodeField(k, v);
    if (!d.ok) early.push({ key: k, value: v, reason: d.reason });
    else {
      given[k] = d.value;
      shown[k] = v;
    }
  }
  const r = resolveSettings(given, shown);
  const order = (key: string) => {
    const i = SETTINGS_KEYS.indexOf(key as keyof RunSettings);
    return i < 0 ? SETTINGS_KEYS.length : i;
  };
  const ignored = [...early, ...r.ignored].sort((a, b) => order(a.key) - order(b.key));
  return { settings: r.settings, ignored, used: r.used };
}
