// The `file` task config (docs/tasks.md "Bring your own task"): `{ kind: "file", path }` as a researcher
// writes it; the CLIs (node.ts) read the path and fill in `hash`, the file's content hash, which is the
// task's identity (the path is not: moving a file keeps its cached agents, editing it does not).
import * as v from 'valibot';
import { reasonWith, show } from '../../schema';
import { NORMALIZATIONS, type Normalization } from './format';
import { registeredTaskFile } from './registry';

/** A file task as configured. */
export interface FileTaskConfig {
  kind: 'file';
  /** The file (JSON Lines or CSV), relative to the config file's folder. Not part of the task's identity. */
  path?: string;
  /** SHA-256 of the file's text (filled in when the file is loaded). */
  hash?: string;
  /** How answers compare (default 'exact'). */
  normalize?: Normalization;
  /** Share of the rows held out for the test split, in (0, 1); default 0.2. */
  evalFraction?: number;
}

/** A file task with its identity filled in (what problems carry and cache keys hash). */
export interface ResolvedFileTaskConfig {
  kind: 'file';
  hash: string;
  normalize: Normalization;
  evalFraction: number;
}

const FIELDS = ['kind', 'path', 'hash', 'normalize', 'evalFraction'];

type Msg = (x: unknown) => string;
const at = (m: Msg) => (issue: v.BaseIssue<unknown>) => m(issue.input);
const pathMsg = at((x) => `must be the path of a .jsonl or .csv file, got ${show(x)}`);
const fractionMsg = at((x) => `must be a number in (0, 1) exclusive, got ${show(x)}`);

/** A task's evalFraction (schema layer): a number strictly between 0 and 1 (every task kind has it). */
export const EVAL_FRACTION = v.pipe(
  v.number(fractionMsg),
  v.gtValue(0, fractionMsg),
  v.ltValue(1, fractionMsg),
);

/** The file task's field rules; the messages follow `file.<field>`. */
const RULES: Readonly<Record<string, v.GenericSchema>> = {
  path: v.pipe(v.string(pathMsg), v.nonEmpty(pathMsg)),
  normalize: v.picklist(
    NORMALIZATIONS,
    at((x) => `must be one of ${NORMALIZATIONS.map((n) => `'${n}'`).join(', ')}, got ${show(x)}`),
  ),
  evalFraction: EVAL_FRACTION,
  hash: v.pipe(
    v.string(at((x) => `must be the file's SHA-256 as 64 hex digits, got ${show(x)}`)),
    v.regex(
      /^[0-9a-f]{64}$/,
      at((x) => `must be the file's SHA-256 as 64 hex digits, got ${show(x)}`),
    ),
  ),
};
const ruleOf = (k: string, x: unknown): string[] => {
  const why = reasonWith(RULES[k], x);
  return why ? [`file.${k} ${why}`] : [];
};

/** Problems of a file task config (any value with kind 'file'); [] when it is valid and its file is loaded. */
export function fileTaskConfigErrors(obj: Record<string, unknown>): string[] {
  const errors = Object.keys(obj)
    .filter((k) => !FIELDS.includes(k))
    .map((k) => `unknown field "${k}" for task kind "file"; valid fields: ${FIELDS.join(', ')}`);
  const { path, hash } = obj;
  for (const k of ['path', 'normalize', 'evalFraction'])
    if (obj[k] !== undefined) errors.push(...ruleOf(k, obj[k]));
  if (hash === undefined)
    errors.push(
      `file: the task file${typeof path === 'string' ? ` ${path}` : ''} is not loaded (give { "kind": "file", "path": "tasks.jsonl" } in a config the CLIs read, or load it in the page)`,
    );
  else errors.push(...ruleOf('hash', hash));
  if (errors.length) return errors;
  const c = resolveFileTaskConfig(obj as unknown as FileTaskConfig);
  if (!registeredTaskFile(c))
    errors.push(
      `file: no task file with hash ${c.hash.slice(0, 16)}... (normalize ${c.normalize}, evalFraction ${c.evalFraction}) is loaded; load the file this config was made from (its data differ if it was edited)`,
    );
  return errors;
}

/** A file task config with its defaults filled in (no validation; see fileTaskConfigErrors). */
export function resolveFileTaskConfig(c: FileTaskConfig): ResolvedFileTaskConfig {
  return {
    kind: 'file',
    hash: c.hash ?? '',
    normalize: c.normalize ?? 'exact',
    evalFraction: c.evalFraction ?? 0.2,
  };
}
