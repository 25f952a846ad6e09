// What the Cohort panel shows of a dropped or picked task file (docs/tasks.md "Bring your own task"): its
// counts per split, a few rows and its vocabulary when it loads, or every problem with its line when it
// does not. Plain data, so the panel only renders it.
import { makeTask } from '../../../tasks';
import { PROMPT_PAD, type Normalization } from '../../../tasks/file/format';
import { loadTaskFile, TaskFileError } from '../../../tasks/file/load';
import { registerTaskFile } from '../../../tasks/file/registry';
import type { TaskRow } from '../../../tasks/file/schema';

/** Rows shown of a loaded file. */
export const SHOWN_ROWS = 5;
/** Problems listed of a refused file (the rest are counted). */
export const SHOWN_PROBLEMS = 200;

/** A file that loaded: what the panel shows of it. */
export interface LoadedPreview {
  ok: true;
  name: string;
  hash: string;
  normalize: Normalization;
  counts: { rows: number; pretrain: number; rl: number; validation: number; test: number };
  rows: TaskRow[];
  /** The characters of its vocabulary, the prompt pad written as ⟨pad⟩. */
  vocabulary: string[];
  /** The file's text (what the store keeps and the worker loads again). */
  text: string;
}

/** A file that was refused: its problems. */
export interface RefusedPreview {
  ok: false;
  name: string;
  problems: string[];
  /** Problems beyond those listed. */
  more: number;
}

/** Previews of the files loaded in this page, by hash and normalisation. */
const previews = new Map<string, LoadedPreview>();

/**
 * The preview of a kept file (the settings' task file, whose text the store keeps: dropped here, or
 * brought by an imported run file), loaded and registered on first use; null if it does not load.
 */
export function keptPreview(
  ref: { hash: string; normalize: Normalization },
  kept: { name: string; text: string },
): LoadedPreview | null {
  const p =
    previews.get(`${ref.hash}|${ref.normalize}`) ??
    previewTaskFile(kept.name, new TextEncoder().encode(kept.text), ref.normalize);
  return p.ok && p.hash === ref.hash ? p : null;
}

/** Load a file's bytes as a task (registered for this page) and describe it, or list its problems. */
export function previewTaskFile(
  name: string,
  bytes: Uint8Array,
  normalize: Normalization,
): LoadedPreview | RefusedPreview {
  try {
    const f = loadTaskFile(bytes, { name, normalize });
    registerTaskFile(f);
    const t = makeTask({ kind: 'file', hash: f.hash, normalize });
    const p: LoadedPreview = {
      ok: true,
      name,
      hash: f.hash,
      normalize,
      counts: {
        rows: f.rows.length,
        pretrain: t.sizes.train,
        rl: t.sizes.rl ?? 0,
        validation: t.sizes.validation,
        test: t.sizes.test,
      },
      rows: f.rows.slice(0, SHOWN_ROWS),
      vocabulary: [...f.alphabet].map((c) => (c === PROMPT_PAD ? '⟨pad⟩' : c)),
      text: new TextDecoder().decode(bytes), // UTF-8: the loader checked it
    };
    previews.set(`${f.hash}|${normalize}`, p);
    return p;
  } catch (e) {
    if (!(e instanceof TaskFileError)) throw e;
    return {
      ok: false,
      name,
      problems: e.messages.slice(0, SHOWN_PROBLEMS),
      more: Math.max(0, e.messages.length - SHOWN_PROBLEMS),
    };
  }
}
