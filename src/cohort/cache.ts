// NODE ONLY (fs): the content-addressed cache of base checkpoints built on demand. An entry is
// DIR/KEY.ckpt with KEY = buildKey(spec, task, recipe) (src/cohort/axes.ts) and a sidecar DIR/KEY.sum
// holding the file's length and FNV-1a hash (KEY ends in -wasm for entries the wasm engine built). An entry is used only when the sum, the header, the meta's
// cacheKey and every weight check; otherwise it is rebuilt (deterministically: same bytes), with a notice.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { engineId, type Backend } from '../engine/backend';
import type { TaskConfig } from '../tasks';
import type { AgentSpec } from './agent';
import { pretrainSpecOf } from './axes';
import { CACHE_PREFIX, cacheBytesProblem, cacheKeyOf, cacheSum } from './cacheEntry';
import type { PretrainRecipe } from './familySpec';
import type { ReadBytes } from './manifest';
import { pretrainAgent } from './pretrain';
import type { PretrainOptions } from './pretrainSpec';
import { PUBLIC_DIR } from './nodeFiles';

/** The default cache folder: $CORL_CACHE_DIR, else .cache/checkpoints at the repository root (ignored by git). */
export const DEFAULT_CACHE_DIR =
  process.env.CORL_CACHE_DIR || resolve(dirname(fileURLToPath(import.meta.url)), '../../.cache/checkpoints');

/** Builds shipped with the app (the wasm engine's entries, copied by `npm run ship-builds`). */
export const SHIPPED_DIR = join(PUBLIC_DIR, 'checkpoints', 'cache');

export { CACHE_PREFIX, cacheKeyOf }; // browser-safe (cacheEntry.ts): sweep plans in the page use them

/**
 * A reader that reads `@cache/KEY.ckpt` from the cache folder `dir` (else from the builds shipped with the
 * app, where cachedCheckpoint may have found it) and any other path with `files`.
 */
export function cacheReader(dir: string, files: ReadBytes): ReadBytes {
  return async (path) => {
    if (!path.startsWith(CACHE_PREFIX)) return files(path);
    const name = path.slice(CACHE_PREFIX.length);
    const own = join(dir, name);
    return new Uint8Array(readFileSync(existsSync(own) ? own : join(SHIPPED_DIR, name)));
  };
}

/** Why a cache entry cannot be used, or null when it checks (src/cohort/cacheEntry.ts). */
export function cacheEntryProblem(dir: string, key: string): string | null {
  const file = join(dir, `${key}.ckpt`);
  const sum = join(dir, `${key}.sum`);
  if (!existsSync(file)) return 'missing';
  const bytes = new Uint8Array(readFileSync(file));
  return cacheBytesProblem(bytes, existsSync(sum) ? readFileSync(sum, 'utf8') : undefined, key, file);
}

/** One cache lookup or build. */
export interface CacheResult {
  key: string;
  file: string;
  bytes: Uint8Array;
  /** True when it was pretrained now (missing or damaged entry). */
  built: boolean;
  seconds: number;
}

/**
 * The base checkpoint of `spec` on `task`: from the cache when its entry checks, else from the builds
 * shipped with the app when one of this engine checks there, else pretrained on
 * `backend` (CPU: deterministic) and stored. `notice` gets one line per damaged entry rebuilt
 * and the build's own notices (`PretrainOptions.notice`).
 */
export async function cachedCheckpoint(
  backend: Backend,
  spec: AgentSpec,
  task: TaskConfig,
  o: {
    dir?: string;
    /** Builds shipped with the app, read when the cache has none (default public/checkpoints/cache). */
    shippedDir?: string;
    recipe?: Partial<PretrainRecipe>;
    notice?: (s: string) => void;
    onProgress?: PretrainOptions['onProgress'];
  } = {},
): Promise<CacheResult> {
  const dir = o.dir ?? DEFAULT_CACHE_DIR;
  // the engine pretrains deterministically but not bit-identically to another engine: it is part of the address
  // (the CPU reference's entries keep the bare key)
  const key = cacheKeyOf(spec, task, engineId(backend.info), o.recipe);
  const file = join(dir, `${key}.ckpt`);
  const t0 = performance.now();
  const problem = cacheEntryProblem(dir, key);
  if (problem === null)
    return {
      key,
      file,
      bytes: new Uint8Array(readFileSync(file)),
      built: false,
      seconds: (performance.now() - t0) / 1000,
    };
  const shipped = join(o.shippedDir ?? SHIPPED_DIR, `${key}.ckpt`);
  if (cacheEntryProblem(o.shippedDir ?? SHIPPED_DIR, key) === null) {
    // shipped with the app (public/checkpoints/cache, `npm run ship-builds`): the same engine's bytes
    const bytes = new Uint8Array(readFileSync(shipped));
    return { key, file: shipped, bytes, built: false, seconds: (performance.now() - t0) / 1000 };
  }
  if (problem !== 'missing')
    o.notice?.(
      `cache entry ${key} (${spec.id}: ${spec.family}.${spec.size} seed ${spec.seed}) is damaged: ${problem}; rebuilding it`,
    );
  const r = await pretrainAgent(backend, pretrainSpecOf(spec), task, {
    recipe: o.recipe,
    cacheKey: key,
    onProgress: o.onProgress,
    notice: o.notice,
  });
  r.agent.model.free();
  storeCacheEntry(dir, key, r.bytes);
  return { key, file, bytes: r.bytes, built: true, seconds: (performance.now() - t0) / 1000 };
}

/** Write the cache entry `key` (its checkpoint and sum) into `dir`; returns the checkpoint's file. */
export function storeCacheEntry(dir: string, key: string, bytes: Uint8Array): string {
  const file = join(dir, `${key}.ckpt`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(file, bytes);
  writeFileSync(join(dir, `${key}.sum`), `${cacheSum(bytes)}\n`);
  return file;
}
