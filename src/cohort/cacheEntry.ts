// The checks of one entry of the content-addressed base-checkpoint cache, shared by the Node cache
// (src/cohort/cache.ts, files) and the page's (src/worker/axisBuilds.ts, IndexedDB): an entry is used only
// when its recorded length and FNV-1a hash, its header, its meta's cacheKey and every weight check.
import { loadCheckpoint } from '../model/checkpoint';
import { baseMetaOf, hashBytes } from './manifest';
import type { TaskConfig } from '../tasks';
import type { AgentSpec } from './agent';
import { buildKey } from './axes';

/** The key of a build on an engine: the CPU reference's entries keep the bare key, others end in -ENGINE. */
export const engineCacheKey = (bare: string, engine: string): string =>
  engine === 'cpu' ? bare : `${bare}-${engine}`;

/** Prefix of checkpoint paths that name a cache entry (`@cache/KEY.ckpt`) instead of a file under public/. */
export const CACHE_PREFIX = '@cache/';

/** The cache key of `spec`'s build on `task` by the engine named `engine` (what cachedCheckpoint stores it under). */
export const cacheKeyOf = (spec: AgentSpec, task: TaskConfig, engine: string, recipe?: object): string =>
  engineCacheKey(buildKey(spec, task, recipe), engine);

/** What the sidecar records of an entry's bytes: "LENGTH HASH". */
export const cacheSum = (bytes: Uint8Array): string => `${bytes.length} ${hashBytes(bytes)}`;

/**
 * Why the entry (`bytes` with its recorded `sum`) cannot be used as the build `key`, or null when it checks.
 * 'missing' when there are no bytes; `where` names it in the header's error.
 */
export function cacheBytesProblem(
  bytes: Uint8Array | undefined,
  sum: string | undefined,
  key: string,
  where = key,
): string | null {
  if (!bytes) return 'missing';
  if (sum === undefined) return 'its checksum file is missing';
  const got = cacheSum(bytes);
  if (sum.trim() !== got) return `its hash does not check (file ${got}, recorded ${sum.trim()})`;
  try {
    const ck = loadCheckpoint(bytes);
    const meta = baseMetaOf(ck.meta, where);
    if (meta.cacheKey !== key) return `its header names another build (${String(meta.cacheKey)})`;
    for (const [name, t] of ck.params)
      for (let i = 0; i < t.length; i++) if (!Number.isFinite(t[i])) return `weight ${name}[${i}] is ${t[i]}`;
  } catch (e) {
    return `its header does not parse: ${(e as Error).message}`;
  }
  return null;
}
