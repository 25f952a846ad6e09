// The sweep's pre-pass builds of agents by axes (docs/sweeps.md "Agents by axes in a sweep"): the cache
// entries the cells need that are neither in the cache nor shipped with the app are pretrained ONCE on the
// sweep's engine, side by side on as many builders as the sweep has workers (this thread and a pool of model
// workers, src/rl/pool/poolBuilds.ts; the same bytes as one build after the other, which is what one worker
// does). Each entry is stored as soon as its build is decided, so a failure later loses none of it.
// `npm run pretrain|overlap|regime|experiment -- --config` build a config's missing agents the same way
// (src/cli/axisCohort.ts), with no cells to name.
import type { AgentSpec } from '../cohort/agent';
import { pretrainSpecOf } from '../cohort/axes';
import { cacheEntryProblem, SHIPPED_DIR, storeCacheEntry } from '../cohort/cache';
import { CACHE_PREFIX, cacheKeyOf } from '../cohort/cacheEntry';
import { planAgent } from '../cohort/ladder';
import type { PretrainProgress } from '../cohort/pretrainSpec';
import { engineId } from '../engine/backend';
import { makeNodeBackend } from '../engine/wasm/nodeBackend';
import { startNodePool } from '../rl/pool/nodePool';
import { buildAgents, builtWhere, type BuildJob } from '../rl/pool/poolBuilds';
import type { ModelPool } from '../rl/pool/poolModels';
import type { SweepBackend } from './backends';
import type { TaskConfig } from '../tasks';

/** A base agent a cell needs: its spec (with checkpoint path) and the task it was pretrained on. */
export interface NeededAgent {
  spec: AgentSpec & { checkpoint: string };
  task: TaskConfig;
  /** Indices of the cells that need it (none outside a sweep: `npm run pretrain -- --config`). */
  cells: number[];
}

/** Hooks of a caller outside the sweep (src/cli/axisCohort.ts). */
export interface CacheBuildHooks {
  /** Each entry as soon as it is built and stored, with its build's seconds. */
  onBuilt?: (need: NeededAgent, seconds: number) => void;
  onProgress?: (need: NeededAgent, p: PretrainProgress) => void;
}

/** The cache key a sweep plan gave an agent by axes (its checkpoint path `@cache/KEY.ckpt`). */
export const plannedKey = (n: NeededAgent): string =>
  n.spec.checkpoint.slice(CACHE_PREFIX.length).replace(/\.ckpt$/, '');

const named = (s: AgentSpec): string => `${s.id}: ${s.family}.${s.size} seed ${s.seed}`;
const forCells = (n: NeededAgent): string => (n.cells.length ? `, for cells ${n.cells.join(', ')}` : '');

/**
 * Fetch or build every cache entry `needs` names in `dir` (see the file's head); `workers` builders at most.
 * Returns the problems, each naming its cells and agent.
 */
export async function buildCacheEntries(
  needs: readonly NeededAgent[],
  backend: SweepBackend,
  dir: string,
  workers: number,
  log: (s: string) => void,
  hooks: CacheBuildHooks = {},
): Promise<string[]> {
  const problem = new Map(needs.map((n) => [n, cacheEntryProblem(dir, plannedKey(n))]));
  const todo = needs.filter((n) => problem.get(n) !== null);
  const shipped = todo.filter((n) => cacheEntryProblem(SHIPPED_DIR, plannedKey(n)) === null);
  const build = todo.filter((n) => !shipped.includes(n));
  log(
    `${needs.length} cache entr${needs.length === 1 ? 'y' : 'ies'} of agents by axes in ${dir}: ${needs.length - todo.length} there, ${shipped.length ? `${shipped.length} shipped with the app (${SHIPPED_DIR}), ` : ''}${build.length} to build once on ${backend}`,
  );
  for (const n of shipped)
    log(`fetched ${n.spec.checkpoint} (${named(n.spec)}) from ${SHIPPED_DIR}${forCells(n)}`);
  if (!build.length) return [];
  const errs: string[] = [];
  const fail = (n: NeededAgent, why: string) =>
    errs.push(`${n.cells.length ? `cells ${n.cells.join(', ')}: ` : ''}agent ${n.spec.id}: ${why}`);
  const be = await makeNodeBackend(backend);
  const engine = engineId(be.info);
  const jobs: (BuildJob & { need: NeededAgent })[] = [];
  let rungs = 0;
  for (const need of build) {
    const key = plannedKey(need);
    const own = cacheKeyOf(need.spec, need.task, engine);
    if (own !== key) {
      fail(
        need,
        `the plan named cache entry ${key}, but ${backend} builds ${own} (the plan's key and the cache's disagree; src/sweep/axisAgents.ts must compute the key as src/cohort/cache.ts does)`,
      );
      continue;
    }
    if (problem.get(need) !== 'missing')
      log(`notice: cache entry ${key} (${named(need.spec)}) is damaged: ${problem.get(need)}; rebuilding it`);
    const spec = pretrainSpecOf(need.spec);
    try {
      rungs += planAgent(spec, need.task).rungs; // a recipe that cannot run is refused here, naming its agent
    } catch (e) {
      fail(need, (e as Error).message);
      continue;
    }
    jobs.push({ who: named(need.spec), spec, task: need.task, cacheKey: key, need });
  }
  // this thread builds too (it runs the pool's engine): builders = 1 + the pool's size
  const size = Math.min(workers, rungs) - 1;
  let pool: ModelPool | undefined;
  try {
    if (jobs.length && size >= 1) pool = await startNodePool(size, backend);
    if (jobs.length)
      log(
        `building ${jobs.length} entr${jobs.length === 1 ? 'y' : 'ies'} (${rungs} rung${rungs === 1 ? '' : 's'}) on ${pool ? `${pool.size + 1} builders: this thread and ${pool.size} model worker${pool.size === 1 ? '' : 's'}` : 'this thread'}`,
      );
    const done = new Set<number>();
    await buildAgents(jobs, {
      backend: be,
      pool,
      notice: (_, s) => log(`notice: ${s}`),
      onProgress: hooks.onProgress && ((j, p) => hooks.onProgress!(jobs[j].need, p)),
      onRetry: (j, why, where) =>
        log(`notice: ${jobs[j].who}: its model worker stopped (${why}); building it ${where} instead`),
      onBuilt: (j, r) => {
        const { need, cacheKey } = jobs[j];
        storeCacheEntry(dir, cacheKey, r.bytes);
        done.add(j);
        log(
          `built ${need.spec.checkpoint} (${jobs[j].who}) on ${backend} in ${r.seconds.toFixed(1)} s${pool ? ` (${builtWhere(r.ran, 'this thread')})` : ''}${forCells(need)}`,
        );
        hooks.onBuilt?.(need, r.seconds);
      },
    }).catch((e: unknown) => {
      // the build that failed names itself; the others stopped with it (those already built are stored)
      const why = e instanceof Error ? e.message : String(e);
      for (const [j, job] of jobs.entries())
        if (!done.has(j))
          fail(
            job.need,
            why.startsWith(`could not pretrain ${job.who}:`)
              ? why
              : `not built: the builds stopped when another failed (${why}); the sweep builds it when run again`,
          );
    });
  } catch (e) {
    for (const j of jobs) fail(j.need, `could not start the builders: ${(e as Error).message}`);
  } finally {
    pool?.close();
    be.destroy();
  }
  return errs;
}
