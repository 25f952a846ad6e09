// The shape of a loaded task file (load.ts makes it, registry.ts keeps it, kind.ts builds a task on it): a
// file of its own so the registry and the task kind need not import the loader.
import type { Normalization } from './format';
import type { TaskFileFormat } from './parse';
import type { TaskRow } from './schema';

/** A task file that passed every check. */
export interface TaskFile {
  /** SHA-256 (hex) of the file's text: the task's identity, in every cache key and run file. */
  hash: string;
  name: string;
  format: TaskFileFormat;
  rows: readonly TaskRow[];
  normalize: Normalization;
  evalFraction: number;
  /** Every character of the prompts and completions (marker included; the prompt pad when prompts differ in length), sorted. */
  alphabet: string;
  /** Characters of the longest prompt (every prompt is left-padded to it) and of the longest completion (no EOS). */
  longestPrompt: number;
  longestCompletion: number;
  /** Rows per split (by a hash of the prompt). */
  counts: { rows: number; train: number; validation: number; test: number };
}
