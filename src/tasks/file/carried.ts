// A task file carried as text between the page's contexts (docs/tasks.md "Bring your own task", "In the
// page"): the start and regime commands bring the dropped file to the training worker, and a run file
// embeds it; each side loads it again with every check of a dropped file (load.ts) and registers it, so a
// config naming its hash finds its rows there too.
import { loadTaskFile } from './load';
import type { Normalization } from './format';
import { registerTaskFile } from './registry';

/** A task file's text with the options it is read with. */
export interface CarriedTaskFile {
  name: string;
  text: string;
  normalize: Normalization;
  evalFraction: number;
}

/**
 * Load and register a carried task file with the checks of a dropped one. Returns its hash; throws a
 * TaskFileError listing every problem (nothing is registered then).
 */
export function registerCarriedTaskFile(f: CarriedTaskFile): string {
  const loaded = loadTaskFile(new TextEncoder().encode(f.text), {
    name: f.name,
    normalize: f.normalize,
    evalFraction: f.evalFraction,
  });
  registerTaskFile(loaded);
  return loaded.hash;
}
