// The task files loaded in this process, by their identity (content hash, normalisation, evalFraction):
// a file task's config is plain JSON naming its hash (so it travels in run files and cache keys), and its
// rows are looked up here when a task is built from it.
import type { TaskFile } from './taskFile';

const files = new Map<string, TaskFile>();

/** The registry key of a file task. */
const keyOf = (hash: string, normalize: string, evalFraction: number): string =>
  `${hash}|${normalize}|${evalFraction}`;

/** Make a loaded file available to every task config that names its hash (with its normalisation and evalFraction). */
export function registerTaskFile(f: TaskFile): void {
  files.set(keyOf(f.hash, f.normalize, f.evalFraction), f);
}

/** The loaded file of a file task config, if it is loaded. */
export function registeredTaskFile(c: {
  hash: string;
  normalize: string;
  evalFraction: number;
}): TaskFile | undefined {
  return files.get(keyOf(c.hash, c.normalize, c.evalFraction));
}
