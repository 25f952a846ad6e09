// The task files the page sends the worker with a start or regime command (docs/tasks.md "Bring your own
// task", "In the page"): each is loaded with every check of a dropped file and registered, so the config's
// file task finds its rows here; a text already registered (the same run started again) is not read twice.
import { registerCarriedTaskFile, type CarriedTaskFile } from '../tasks/file/carried';

/** Texts registered in this worker, with their options. */
const done = new Set<string>();

/** Register the page's task file in this worker (throws a TaskFileError listing every problem). */
export function registerKept(f: CarriedTaskFile): void {
  const key = `${f.normalize}|${f.evalFraction}|${f.text}`;
  if (done.has(key)) return;
  registerCarriedTaskFile(f);
  done.add(key);
}
