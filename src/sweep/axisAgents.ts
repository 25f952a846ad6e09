// A sweep cell's agents by axes (docs/sweeps.md "Agents by axes in a sweep"; docs/method.md "Natural
// diversity"): a cell whose `cohort.agents` lack a `checkpoint` is validated as `npm run experiment` does
// (src/cli/axisCohort.ts, parseAxisCohort) and each agent points at its entry of the content-addressed
// cache for the sweep's engine, `@cache/KEY.ckpt`, so a cell's id changes with every axis and the engine.
import { parseAxisCohort } from '../cohort/axes';
import { CACHE_PREFIX, cacheKeyOf } from '../cohort/cacheEntry';
import type { SweepBackend } from './backends';

const isObj = (x: unknown): x is Record<string, unknown> =>
  typeof x === 'object' && x !== null && !Array.isArray(x);

/** Does this raw cell name its agents by axes (an agent list in which some agent has no checkpoint)? */
export function hasAxisAgents(raw: Record<string, unknown>): boolean {
  const agents = isObj(raw.cohort) ? raw.cohort.agents : undefined;
  return Array.isArray(agents) && agents.some((a) => !isObj(a) || a.checkpoint === undefined);
}

/**
 * The raw cell with its agents by axes resolved (defaults filled, every agent's `checkpoint` its cache
 * entry on `backend`), or every problem of its task and agents. A cell that does not name agents by axes
 * comes back as it is.
 */
export function resolveAxisAgents(
  raw: Record<string, unknown>,
  backend: SweepBackend,
): { raw: Record<string, unknown> } | { errors: string[] } {
  if (!hasAxisAgents(raw)) return { raw };
  const p = parseAxisCohort(raw);
  if ('errors' in p) return p;
  const agents = p.cohort.specs.map((s) => ({
    ...s,
    checkpoint: `${CACHE_PREFIX}${cacheKeyOf(s, p.cohort.task, backend)}.ckpt`,
  }));
  return { raw: { ...raw, cohort: { agents } } };
}
