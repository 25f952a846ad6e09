// NODE ONLY: a config's cohort of agents by axes (docs/cohorts.md "Agents by axes"): read the JSON file,
// validate the task and every agent (unknown family, tokenizer, axis or field; a context too small),
// listing every problem before any work, and build or fetch each agent's checkpoint from the cache.
import { readFileSync } from 'node:fs';
import type { AgentSpec } from '../cohort/agent';
import { contextErrors, parseAxisAgent } from '../cohort/axes';
import { cachedCheckpoint, type CacheResult } from '../cohort/cache';
import type { Backend } from '../engine/backend';
import { validateTaskConfig, type TaskConfig } from '../tasks';

/** A validated cohort of agents by axes and its task. */
export interface AxisCohort {
  task: TaskConfig;
  specs: AgentSpec[];
}

/** Problems of a raw config's `task` and `cohort.agents`, or the cohort. */
export function parseAxisCohort(raw: unknown): { cohort: AxisCohort } | { errors: string[] } {
  const r = raw as { task?: unknown; cohort?: { agents?: unknown } } | null;
  if (!r || typeof r !== 'object')
    return { errors: ['config must be a JSON object with "task" and "cohort": { "agents": [...] }'] };
  const errors: string[] = [];
  if (r.task === undefined) errors.push('task: missing (e.g. { "kind": "addw", "digits": 3 })');
  else errors.push(...validateTaskConfig(r.task).map((e) => `task: ${e}`));
  const agents = r.cohort?.agents;
  if (!Array.isArray(agents) || agents.length === 0)
    errors.push('cohort.agents: must be a non-empty array of agent specs ({ "id", "family", ... })');
  const specs: AgentSpec[] = [];
  (Array.isArray(agents) ? agents : []).forEach((a, i) => {
    const p = parseAxisAgent(a, `cohort.agents[${i}]`);
    if ('errors' in p) errors.push(...p.errors);
    else specs.push(p.spec);
  });
  const ids = specs.map((s) => s.id);
  const dup = ids.filter((id, i) => ids.indexOf(id) !== i);
  if (dup.length) errors.push(`cohort.agents: ids must be unique; duplicated: ${dup.join(', ')}`);
  const task = r.task as TaskConfig;
  const taskOk = r.task !== undefined && validateTaskConfig(r.task).length === 0;
  if (taskOk) for (const s of specs) errors.push(...contextErrors(s, task)); // of every agent that parsed
  return errors.length ? { errors } : { cohort: { task, specs } };
}

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
