// NODE ONLY: a config's file task (`"task": { "kind": "file", "path": "..." }`): read the file (a relative
// path against the config file's folder), load it with every check (load.ts), register it and fill in its
// content hash, so the rest of the instrument sees a plain task config. A config that already names a
// hash is refused when the file's data differ (a run is bound to its data).
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { DEFAULT_MAX_CONTEXT } from './format';
import { loadTaskFile, TaskFileError, type TaskFile } from './load';
import { registerTaskFile } from './registry';
import type { FileTaskConfig } from './config';

/** The smallest `arch.blockSize` of a raw config's agents by axes, or the default context limit. */
function smallestContext(raw: Record<string, unknown>): number {
  const agents = (raw.cohort as { agents?: unknown } | undefined)?.agents;
  const sizes = (Array.isArray(agents) ? agents : [])
    .map((a) => (a as { arch?: { blockSize?: unknown } } | null)?.arch?.blockSize)
    .filter((b): b is number => typeof b === 'number' && Number.isInteger(b) && b > 0);
  return sizes.length ? Math.min(...sizes) : DEFAULT_MAX_CONTEXT;
}

/** Read and load a task file by path (throws a TaskFileError when it cannot be read or does not pass). */
function readTaskFile(path: string, opts: Parameters<typeof loadTaskFile>[1] = {}): TaskFile {
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? (e as Error).message;
    throw new TaskFileError(path, [
      {
        line: null,
        message: `cannot read the task file ${path} (${code}); check the path (relative paths start from the config file's folder)`,
      },
    ]);
  }
  return loadTaskFile(bytes, { name: path, ...opts });
}

/**
 * A raw config with its file task loaded and its hash filled in; other configs are returned as they are.
 * Throws a TaskFileError listing every problem of the file (nothing is loaded then).
 */
export function withTaskFile(
  raw: Record<string, unknown>,
  configFile: string,
  opts: { absolutePath?: boolean } = {},
): Record<string, unknown> {
  const task = raw.task as (FileTaskConfig & Record<string, unknown>) | undefined;
  if (!task || typeof task !== 'object' || task.kind !== 'file' || typeof task.path !== 'string') return raw;
  const path = isAbsolute(task.path) ? task.path : resolve(dirname(configFile), task.path);
  const f = readTaskFile(path, {
    normalize: task.normalize,
    evalFraction: task.evalFraction,
    maxContext: smallestContext(raw),
  });
  if (task.hash !== undefined && task.hash !== f.hash)
    throw new TaskFileError(path, [
      {
        line: null,
        message: `the file's data differ from the ones this config was made with (hash ${f.hash.slice(0, 16)}..., the config names ${String(task.hash).slice(0, 16)}...); restore the file or drop "hash" to run on the new data`,
      },
    ]);
  registerTaskFile(f);
  // absolutePath: for a config copied elsewhere (a sweep's DIR/sweep.json, read again by every cell)
  return { ...raw, task: { ...task, ...(opts.absolutePath ? { path } : {}), hash: f.hash } };
}
