// The `file` task config (docs/tasks.md "Bring your own task"): `{ kind: "file", path }` as a researcher
// writes it; the CLIs (node.ts) read the path and fill in `hash`, the file's content hash, which is the
// task's identity (the path is not: moving a file keeps its cached agents, editing it does not).
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

/** Problems of a file task config (any value with kind 'file'); [] when it is valid and its file is loaded. */
export function fileTaskConfigErrors(obj: Record<string, unknown>): string[] {
  const errors = Object.keys(obj)
    .filter((k) => !FIELDS.includes(k))
    .map((k) => `unknown field "${k}" for task kind "file"; valid fields: ${FIELDS.join(', ')}`);
  const { path, hash, normalize, evalFraction } = obj;
  if (path !== undefined && (typeof path !== 'string' || path === ''))
    errors.push(`file.path must be the path of a .jsonl or .csv file, got ${JSON.stringify(path)}`);
  if (normalize !== undefined && !(NORMALIZATIONS as readonly unknown[]).includes(normalize))
    errors.push(
      `file.normalize must be one of ${NORMALIZATIONS.map((n) => `'${n}'`).join(', ')}, got ${JSON.stringify(normalize)}`,
    );
  if (
    evalFraction !== undefined &&
    (typeof evalFraction !== 'number' || !(evalFraction > 0 && evalFraction < 1))
  )
    errors.push(
      `file.evalFraction must be a number in (0, 1) exclusive, got ${JSON.stringify(evalFraction)}`,
    );
  if (hash === undefined)
    errors.push(
      `file: the task file${typeof path === 'string' ? ` ${path}` : ''} is not loaded (give { "kind": "file", "path": "tasks.jsonl" } in a config the CLIs read, or load it in the page)`,
    );
  else if (typeof hash !== 'string' || !/^[0-9a-f]{64}$/.test(hash))
    errors.push(`file.hash must be the file's SHA-256 as 64 hex digits, got ${JSON.stringify(hash)}`);
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
