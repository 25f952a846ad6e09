// A task file as the run's task in the page (docs/tasks.md "Bring your own task", "In the page"): the
// settings name it by `customTask: "file"` and `customTaskFile` { name, hash, normalize } (plain JSON, so
// links and run files carry it); its text lives in the store (`taskFiles`, by hash; never in a link) and
// travels to the worker in the start and regime commands, where it is loaded and checked again. A link or
// run file naming a file that is not loaded here says which file is missing and how to load it.
import { registeredTaskFile } from '../tasks/file/registry';
import type { CarriedTaskFile } from '../tasks/file/carried';
import { NORMALIZATIONS, type Normalization } from '../tasks/file/format';
import { DEFAULT_EVAL_FRACTION } from '../tasks/config';
import type { TaskConfig } from '../tasks';

/** The customTask value of a cohort that trains on a task file. */
export const FILE_TASK = 'file';

/** The task file a composed cohort trains on, as the settings name it. */
export interface TaskFileRef {
  /** The file's name when it was loaded (shown; not its identity). */
  name: string;
  /** SHA-256 of its text: the task's identity. */
  hash: string;
  normalize: Normalization;
}

/** A task file's text kept in the page (the store's taskFiles, by hash). */
export interface KeptTaskFile {
  name: string;
  text: string;
}

const isRef = (x: unknown): x is TaskFileRef => {
  const r = x as TaskFileRef;
  return (
    typeof x === 'object' &&
    x !== null &&
    typeof r.name === 'string' &&
    r.name.length <= 200 &&
    typeof r.hash === 'string' &&
    /^[0-9a-f]{64}$/.test(r.hash) &&
    (NORMALIZATIONS as readonly unknown[]).includes(r.normalize)
  );
};

/** The problem with a customTaskFile value (null, or a well-formed reference), or null. */
export function taskFileRefProblem(x: unknown): string | null {
  return x === null || isRef(x)
    ? null
    : `customTaskFile must be null or { name (at most 200 characters), hash (the file's SHA-256, 64 hex digits), normalize (${NORMALIZATIONS.join(', ')}) }; got ${JSON.stringify(x)?.slice(0, 200)}`;
}

/** The file task config of a reference (what the experiment config names; evalFraction is the default). */
export const fileTaskOf = (r: TaskFileRef): TaskConfig => ({
  kind: 'file',
  hash: r.hash,
  normalize: r.normalize,
});

/** The settings' task file when the cohort trains on one (customTask "file" and a well-formed reference). */
export function settingsTaskFile(s: { customTask: string; customTaskFile: unknown }): TaskFileRef | null {
  return s.customTask === FILE_TASK && isRef(s.customTaskFile) ? s.customTaskFile : null;
}

/** Whether the file of `r` is loaded in this page (its rows registered with its normalisation). */
export const taskFileLoaded = (r: TaskFileRef): boolean =>
  registeredTaskFile({ hash: r.hash, normalize: r.normalize, evalFraction: DEFAULT_EVAL_FRACTION }) !==
  undefined;

/**
 * The problem with a file task's settings, or null. `kept`: the hashes of the files whose text the page
 * keeps (the page's checks: a file not kept, or not registered with this normalisation, cannot run);
 * undefined when a link or run file is read (the reference is kept: the file may be dropped after it).
 */
export function taskFileProblem(
  s: { customTask: string; customTaskFile: unknown },
  kept: readonly string[] | undefined,
): string | null {
  if (s.customTask !== FILE_TASK) return null;
  const r = settingsTaskFile(s);
  if (!r)
    return `customTask "file" needs a task file: drop or pick one in "Task from a file" (customTaskFile is ${JSON.stringify(s.customTaskFile)?.slice(0, 200)})`;
  if (kept && !(kept.includes(r.hash) && taskFileLoaded(r)))
    return `the task file ${r.name} (hash ${r.hash.slice(0, 16)}..., answers compared ${r.normalize}) is not loaded in this page: a link carries only its name and hash, not its rows; drop or pick ${r.name} in "Task from a file" below (the same data: a file whose hash differs becomes the task instead)`;
  return null;
}

/** The start command's task file field for the settings (the kept text of the settings' file), if any. */
export function taskFileStartField(
  s: { customTask: string; customTaskFile: unknown; cohortMode: string },
  kept: Readonly<Record<string, KeptTaskFile>>,
): { taskFile?: CarriedTaskFile } {
  const r = s.cohortMode === 'custom' ? settingsTaskFile(s) : null;
  const k = r ? kept[r.hash] : undefined;
  return r && k
    ? {
        taskFile: { name: k.name, text: k.text, normalize: r.normalize, evalFraction: DEFAULT_EVAL_FRACTION },
      }
    : {};
}
