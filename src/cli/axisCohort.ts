// NODE ONLY: a config's cohort of agents by axes (docs/cohorts.md "Agents by axes"): read the JSON file,
// validate the task and every agent (unknown family, tokenizer, axis or field; a context too small),
// listing every problem before any work, and build or fetch each agent's checkpoint from the cache.
import { readFileSync } from 'node:fs';
import { parseAxisCohort, type AxisCohort } from '../cohort/axes';
import { cachedCheckpoint, type CacheResult } from '../cohort/cache';
import type { Backend } from '../engine/backend';

export { parseAxisCohort, type AxisCohort };

/** Read and validate a config file; throws one message listing every problem (nothing is run). */
export function readAxisCohort(file: string): AxisCohort {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new Error(`${file}: ${(e as Error).message}`, { cause: e });
  }
  const r = parseAxisCohort(raw);
  if ('errors' in r)
    throw new Error(
      `${file}: ${r.errors.length} problem${r.errors.length === 1 ? '' : 's'}; nothing was run:\n  - ${r.errors.join('\n  - ')}`,
    );
  return r.cohort;
}

/** Build (or fetch from the cache) every agent's checkpoint, logging each with its time. */
export async function buildAxisCohort(
  be: Backend,
  c: AxisCohort,
  log: (s: string) => void,
  dir?: string,
): Promise<CacheResult[]> {
  const out: CacheResult[] = [];
  for (const s of c.specs) {
    const r = await cachedCheckpoint(be, s, c.task, {
      dir,
      notice: (n) => log(`notice: ${n}`),
      onProgress: (p) => {
        if (!p.done)
          log(
            `  ${s.id}: step ${p.step}/${p.maxSteps} loss ${p.loss.toFixed(3)} val greedy ${p.valAccuracy?.toFixed(3)}`,
          );
      },
    });
    log(
      `${s.id} ${s.family}.${s.size} seed ${s.seed} ${s.view}${s.tokenizer ? ` tokenizer ${s.tokenizer}` : ''}: ${r.built ? 'built' : 'from the cache'} in ${r.seconds.toFixed(1)} s -> ${r.file}`,
    );
    out.push(r);
  }
  return out;
}
