// The task file loader (docs/tasks.md "Bring your own task"): validates the WHOLE file first (text, format,
// every row's shape and characters, duplicates, the answer marker, lengths against the context, the row
// and size limits, the held-out split sizes) and throws a TaskFileError listing every problem with its
// line; nothing is loaded unless the whole file passes.
import { TaskConfigError, DEFAULT_EVAL_FRACTION } from '../config';
import { splitOfKey } from '../task';
import { sha256Hex } from '../../util/sha256';
import {
  DEFAULT_MAX_CONTEXT,
  FILE_MARKER,
  MAX_ROWS,
  MIN_HELD_OUT,
  PROMPT_PAD,
  fileProblemKey,
  normalizeAnswer,
  rowCompletion,
  unprintable,
  type Normalization,
} from './format';
import {
  detectFormat,
  parseCsv,
  parseJsonLines,
  textLines,
  type FileProblem,
  type TaskFileFormat,
} from './parse';
import { checkRowShape, type TaskRow } from './schema';
import type { TaskFile } from './taskFile';

export type { TaskFile } from './taskFile';

/** How to read a task file. */
export interface LoadOptions {
  /** The file's name (its extension decides the format: .jsonl/.ndjson/.json or .csv). */
  name?: string;
  format?: TaskFileFormat;
  normalize?: Normalization;
  evalFraction?: number;
  /** Most tokens of prompt + completion + EOS (the smallest context of the chosen agents). */
  maxContext?: number;
}

/** A task file that does not pass: `problems` lists every problem with its line. */
export class TaskFileError extends TaskConfigError {
  readonly problems: readonly FileProblem[];
  constructor(name: string, problems: readonly FileProblem[]) {
    super(problems.map((p) => (p.line === null ? p.message : `line ${p.line}: ${p.message}`)));
    this.name = 'TaskFileError';
    this.problems = problems;
    this.message = `${name}: ${problems.length} problem${problems.length === 1 ? '' : 's'}; nothing was loaded: ${this.message}`;
  }
}

/** Problems of the characters of one field ([] when every one is printable). */
function charProblems(field: string, s: string): string[] {
  const seen = new Map<string, { why: string; at: number }>();
  for (let i = 0; i < s.length; i++) {
    if (seen.has(s[i])) continue;
    const why = unprintable(s[i]);
    if (why) seen.set(s[i], { why, at: i + 1 });
  }
  return [...seen.values()].map(
    (x) => `${field}: holds ${x.why} at character ${x.at}; only printable characters may appear`,
  );
}

/** Check the parsed records as rows: shape, characters, marker, normalisation, duplicates, lengths. */
function checkRows(
  records: { line: number; value: unknown }[],
  o: Required<Omit<LoadOptions, 'name' | 'format'>>,
  problems: FileProblem[],
): TaskRow[] {
  const rows: TaskRow[] = [];
  const prompts = new Map<string, number>();
  const ids = new Map<string, number>();
  for (const { line, value } of records) {
    const shape = checkRowShape(value);
    if ('errors' in shape) {
      for (const message of shape.errors) problems.push({ line, message });
      continue;
    }
    const row: TaskRow = { ...shape.row, line };
    const errs: string[] = [];
    for (const f of ['prompt', 'answer', 'working', 'id'] as const)
      if (row[f] !== undefined) errs.push(...charProblems(f, row[f]!));
    if (row.answer.includes(FILE_MARKER))
      errs.push(
        `answer: holds the answer marker "${FILE_MARKER}" (the answer is read after the last "${FILE_MARKER}"); remove it from the answer`,
      );
    else if (normalizeAnswer(row.answer, o.normalize) === null)
      errs.push(
        o.normalize === 'numeric'
          ? `answer: ${JSON.stringify(row.answer)} is not a number (normalize "numeric" needs e.g. 42, -7 or 3.25)`
          : `answer: is empty once normalised ("${o.normalize}")`,
      );
    const first = prompts.get(row.prompt);
    if (first !== undefined)
      errs.push(`prompt: duplicates the prompt of line ${first} (every prompt must be unique)`);
    else prompts.set(row.prompt, line);
    if (row.id !== undefined) {
      const firstId = ids.get(row.id);
      if (firstId !== undefined) errs.push(`id: duplicates the id of line ${firstId}`);
      else ids.set(row.id, line);
    }
    const need = row.prompt.length + rowCompletion(row).length + 1 - 1;
    if (need > o.maxContext)
      errs.push(
        `prompt (${row.prompt.length} characters) and completion with EOS (${rowCompletion(row).length + 1}) need a context of ${need} tokens, more than ${o.maxContext}; shorten the row or give the agents a larger arch.blockSize`,
      );
    for (const message of errs) problems.push({ line, message });
    if (errs.length === 0) rows.push(row);
  }
  return rows;
}

/**
 * Load a task file from its bytes. Throws a TaskFileError listing every problem (with its line) unless the
 * whole file passes; a bad option (normalisation, evalFraction) is a TaskConfigError.
 */
export function loadTaskFile(bytes: Uint8Array, opts: LoadOptions = {}): TaskFile {
  const name = opts.name ?? 'task file';
  const o = {
    normalize: opts.normalize ?? 'exact',
    evalFraction: opts.evalFraction ?? DEFAULT_EVAL_FRACTION,
    maxContext: opts.maxContext ?? DEFAULT_MAX_CONTEXT,
  };
  const { lines, problems } = textLines(bytes);
  if (lines.length === 0 && problems.length) throw new TaskFileError(name, problems);
  const text = lines.map((l) => l ?? '').join('\n');
  const format = opts.format ?? detectFormat(name, text);
  const parsed = format === 'csv' ? parseCsv(lines) : parseJsonLines(lines);
  problems.push(...parsed.problems);
  const rows = checkRows(parsed.records, o, problems);
  if (parsed.records.length === 0 && format === 'jsonl' && problems.length === 0)
    problems.push({ line: null, message: 'the file holds no rows' });
  if (parsed.records.length > MAX_ROWS)
    problems.push({
      line: null,
      message: `${parsed.records.length} rows; a task file may hold at most ${MAX_ROWS.toLocaleString('en')}`,
    });
  const counts = { rows: rows.length, train: 0, validation: 0, test: 0 };
  for (const r of rows) counts[splitOfKey(fileProblemKey(r.prompt), o.evalFraction)]++;
  const longestPrompt = Math.max(0, ...rows.map((r) => r.prompt.length));
  const longestCompletion = Math.max(0, ...rows.map((r) => rowCompletion(r).length));
  if (problems.length === 0) {
    for (const split of ['validation', 'test'] as const)
      if (counts[split] < MIN_HELD_OUT)
        problems.push({
          line: null,
          message: `the ${split} split holds ${counts[split]} of the ${rows.length} rows (by a hash of the prompt); it needs at least ${MIN_HELD_OUT} to measure anything: give more rows (about ${Math.ceil(MIN_HELD_OUT / (split === 'test' ? o.evalFraction : (1 - o.evalFraction) * 0.125))} or more)`,
        });
    if (longestPrompt + longestCompletion > o.maxContext)
      problems.push({
        line: null,
        message: `the longest prompt (${longestPrompt} characters; every prompt is padded to it) and the longest completion with EOS (${longestCompletion + 1}) need a context of ${longestPrompt + longestCompletion} tokens, more than ${o.maxContext}`,
      });
  }
  if (problems.length) {
    problems.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
    throw new TaskFileError(name, problems);
  }
  const chars = new Set<string>();
  for (const r of rows) for (const ch of r.prompt + rowCompletion(r)) chars.add(ch);
  if (rows.some((r) => r.prompt.length < longestPrompt)) chars.add(PROMPT_PAD);
  return {
    hash: sha256Hex(text),
    name,
    format,
    rows,
    normalize: o.normalize,
    evalFraction: o.evalFraction,
    alphabet: [...chars].sort().join(''),
    longestPrompt,
    longestCompletion,
    counts,
  };
}
