// A run file's task file (docs/run-file.md, docs/tasks.md "In the page"): a run on a file task embeds the
// file's text (`taskFile`), so an exported or saved run can be imported where the file is not loaded; on
// reading, the embedded text is loaded with every check of a dropped file and must hash to the config's
// task. A run file naming a file task without its text is refused unless that file is loaded in the page.
import type { ExperimentConfig } from '../rl/config';
import { registerCarriedTaskFile, type CarriedTaskFile } from '../tasks/file/carried';
import { resolveFileTaskConfig, type FileTaskConfig } from '../tasks/file/config';
import { NORMALIZATIONS } from '../tasks/file/format';
import { TaskFileError } from '../tasks/file/load';
import { registeredTaskFile } from '../tasks/file/registry';
import { isObject, shown, type Problems } from './runFileChecks';
import type { KeptTaskFile } from './taskFileTask';

/** The embedded task file of a run's config, when it trains on a file whose text the page keeps. */
export function embeddedTaskFile(
  config: ExperimentConfig,
  kept: Readonly<Record<string, KeptTaskFile>> | undefined,
): { taskFile?: CarriedTaskFile } {
  const t = config.task as FileTaskConfig | null | undefined;
  const k = t?.kind === 'file' && t.hash ? kept?.[t.hash] : undefined;
  if (!t || !k) return {};
  const r = resolveFileTaskConfig(t);
  return { taskFile: { name: k.name, text: k.text, normalize: r.normalize, evalFraction: r.evalFraction } };
}

const SHAPE = `taskFile: must be { name: string, text: string, normalize: ${NORMALIZATIONS.join(' | ')}, evalFraction: number }`;

/**
 * Check a raw run file's task file before its config is read: load and register the embedded text (its
 * problems, and a hash that differs from the config's, are added to `p`), or say which file is missing.
 * Returns true when the config's file is missing (its config error would only repeat this one).
 */
export function checkRunTaskFile(p: Problems, raw: Record<string, unknown>): boolean {
  const config = isObject(raw.config) ? raw.config : {};
  const task = isObject(config.task) && config.task.kind === 'file' ? config.task : null;
  const want = task && typeof task.hash === 'string' ? task.hash : null;
  const f = raw.taskFile;
  if (f !== undefined) {
    const c = f as CarriedTaskFile;
    if (
      !isObject(f) ||
      typeof c.name !== 'string' ||
      typeof c.text !== 'string' ||
      !(NORMALIZATIONS as readonly unknown[]).includes(c.normalize) ||
      typeof c.evalFraction !== 'number'
    ) {
      p.add(`${SHAPE}; got ${shown(f)}`);
      return false;
    }
    if (!task) p.add('taskFile: the run does not train on a task file (config.task.kind is not "file")');
    let hash: string;
    try {
      hash = registerCarriedTaskFile(c);
    } catch (e) {
      if (!(e instanceof TaskFileError)) throw e;
      p.add(
        `taskFile: the embedded task file ${shown(c.name)} does not load: ${e.messages.slice(0, 20).join('; ')}`,
      );
      return true;
    }
    if (want !== null && hash !== want) {
      p.add(
        `taskFile: the embedded file's data (hash ${hash.slice(0, 16)}...) differ from the data the run trained on (config.task.hash ${want.slice(0, 16)}...); the run file was edited: export the run again`,
      );
      return true;
    }
    return false;
  }
  if (!task || want === null) return false;
  if (registeredTaskFile(resolveFileTaskConfig(task as unknown as FileTaskConfig))) return false;
  const settings = isObject(raw.settings) ? raw.settings : {};
  const ref = isObject(settings.customTaskFile) ? settings.customTaskFile : {};
  const name = typeof ref.name === 'string' ? ref.name : 'its task file';
  p.add(
    `taskFile: this run trained on the task file ${shown(name)} (hash ${want.slice(0, 16)}...), but the run file does not carry its rows and no file with that hash is loaded in this page; drop or pick ${shown(name)} in the Cohort panel (Compose, "Task from a file"), then import the run again`,
  );
  return true;
}

/** The kept task file a checked run brings (to add to the store's taskFiles), or none. */
export function keptOfRun(run: {
  config: ExperimentConfig;
  taskFile?: CarriedTaskFile;
}): Record<string, KeptTaskFile> {
  const hash = (run.config.task as FileTaskConfig | null | undefined)?.hash;
  return run.taskFile && hash ? { [hash]: { name: run.taskFile.name, text: run.taskFile.text } } : {};
}
