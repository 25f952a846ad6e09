// NODE ONLY: a config's cohort of agents by axes (docs/cohorts.md "Agents by axes"): read the JSON file,
// validate the task and every agent (unknown family, tokenizer, axis or field; a context too small),
// listing every problem before any work, and build or fetch each agent's checkpoint from the cache.
import { readFileSync } from 'node:fs';
import { parseAxisCohort, type AxisCohort } from '../cohort/axes';
import {
  CACHE_PREFIX,
  cachedCheckpoint,
  cacheKeyOf,
  DEFAULT_CACHE_DIR,
  type CacheResult,
} from '../cohort/cache';
import { engineId, type Backend } from '../engine/backend';
import type { PretrainProgress } from '../cohort/pretrainSpec';
import type { NeededAgent } from '../sweep/cacheBuilds';
import type { ReadBytes } from '../cohort/manifest';
import type { AgentSpec } from '../cohort/agent';
import { nodeReader } from '../cohort/nodeFiles';
import { makeNodeBackend, type NodeBackendName } from '../engine/wasm/nodeBackend';
import { taskFileOrExit } from './taskFile';

/** Read and validate a config file; throws one message listing every problem (nothing is run). */
export function readAxisCohort(file: string): AxisCohort {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new Error(`${file}: ${(e as Error).message}`, { cause: e });
  }
  const r = parseAxisCohort(taskFileOrExit(raw as Record<string, unknown>, file));
  if ('errors' in r)
    throw new Error(
      `${file}: ${r.errors.length} problem${r.errors.length === 1 ? '' : 's'}; nothing was run:\n  - ${r.errors.join('\n  - ')}`,
    );
  return r.cohort;
}

/**
 * One agent in a log line: id, family.size, seed, view, and every architecture override by name, so an
 * agent narrowed by `arch` is not read as its family's size (e.g. "C nat-chunk.s (nEmbd 24) seed 1 plain").
 */
export function agentLabel(s: AgentSpec): string {
  const arch = Object.entries(s.arch ?? {}).map(([k, v]) => `${k} ${v}`);
  return `${s.id} ${s.family}.${s.size}${arch.length ? ` (${arch.join(', ')})` : ''} seed ${s.seed} ${s.view}${s.tokenizer ? ` tokenizer ${s.tokenizer}` : ''}`;
}

/** Where and how buildAxisCohort builds: the cache folder, and builders side by side on `engine`. */
export interface AxisBuildOptions {
  dir?: string;
  /** Builders at most (default 1: one build after the other on `be`); more need `engine`. */
  workers?: number;
  /** The Node engine `be` runs, for the pool of model workers beside it. */
  engine?: NodeBackendName;
}

const progressLine = (id: string, p: PretrainProgress): string =>
  `  ${id}: step ${p.step}/${p.maxSteps} loss ${p.loss.toFixed(3)} val greedy ${p.valAccuracy?.toFixed(3)}`;

/**
 * Build (or fetch from the cache) every agent's checkpoint, logging each with its time. With `workers` > 1
 * the missing entries are first built side by side (src/sweep/cacheBuilds.ts: this thread and a pool of model
 * workers; the same bytes as one build after the other), then every entry is read from the cache.
 */
export async function buildAxisCohort(
  be: Backend,
  c: AxisCohort,
  log: (s: string) => void,
  o: AxisBuildOptions = {},
): Promise<CacheResult[]> {
  const dir = o.dir ?? DEFAULT_CACHE_DIR;
  const key = (s: AgentSpec): string => cacheKeyOf(s, c.task, engineId(be.info));
  const side = new Map<string, number>(); // entries built side by side: their build's seconds
  if ((o.workers ?? 1) > 1 && o.engine) {
    // one build per entry (agents with the same build share it); a lone build's rungs still run side by side
    const needs = [...new Map(c.specs.map((s) => [key(s), s])).entries()].map(
      ([k, s]): NeededAgent => ({
        spec: { ...s, checkpoint: `${CACHE_PREFIX}${k}.ckpt` },
        task: c.task,
        cells: [],
      }),
    );
    const { buildCacheEntries } = await import('../sweep/cacheBuilds'); // the pool only when asked for
    const errs = await buildCacheEntries(needs, o.engine, dir, o.workers!, log, {
      onBuilt: (n, seconds) => side.set(key(n.spec), seconds),
      onProgress: (n, p) => {
        if (!p.done) log(progressLine(n.spec.id, p));
      },
    });
    if (errs.length)
      throw new Error(
        `${errs.length} build${errs.length === 1 ? '' : 's'} failed (the entries built are kept in ${dir}):\n  - ${errs.join('\n  - ')}`,
      );
  }
  const out: CacheResult[] = [];
  for (const s of c.specs) {
    const found = await cachedCheckpoint(be, s, c.task, {
      dir,
      notice: (n) => log(`notice: ${n}`),
      onProgress: (p) => {
        if (!p.done) log(progressLine(s.id, p));
      },
    });
    const seconds = side.get(found.key);
    side.delete(found.key); // an agent sharing the entry reads it from the cache
    const r = seconds === undefined ? found : { ...found, built: true, seconds };
    log(
      `${agentLabel(s)}: ${r.built ? 'built' : 'from the cache'} in ${r.seconds.toFixed(1)} s${seconds === undefined ? '' : ' (side by side)'} -> ${r.file}`,
    );
    out.push(r);
  }
  return out;
}

/**
 * An agent list whose agents have no `checkpoint`: validate them as agents by axes (every problem listed,
 * exit 2), build the missing ones into the content-addressed cache (reporting the time; `workers` builders
 * side by side), and point each at its entry. Other configs pass through.
 */
export async function withAxisAgents(
  raw: Record<string, unknown>,
  configName: string,
  buildBackend: NodeBackendName = 'wasm',
  workers = 1,
): Promise<{ raw: Record<string, unknown>; reader: ReadBytes; cached: boolean }> {
  const files = nodeReader();
  const agents = (raw.cohort as { agents?: { checkpoint?: unknown }[] } | undefined)?.agents;
  if (!Array.isArray(agents) || agents.every((a) => a && typeof a === 'object' && a.checkpoint !== undefined))
    return { raw, reader: files, cached: false };
  const p = parseAxisCohort(raw);
  if ('errors' in p) {
    process.stderr.write(
      `${configName}: ${p.errors.length} problem${p.errors.length === 1 ? '' : 's'}; nothing was run:\n  - ${p.errors.join('\n  - ')}\n`,
    );
    process.exit(2);
  }
  const t0 = performance.now();
  const log = (s: string): void => void process.stderr.write(`${s}\n`);
  // built (or fetched) on --build-backend (default the run's Node engine); the cache key names the engine
  const be = await makeNodeBackend(buildBackend);
  const built = await buildAxisCohort(be, p.cohort, log, { workers, engine: buildBackend });
  be.destroy();
  log(
    `checkpoints ready in ${((performance.now() - t0) / 1000).toFixed(1)} s (${built.filter((b) => b.built).length} built, ${built.filter((b) => !b.built).length} from the cache)`,
  );
  const bytes = new Map(built.map((b) => [`${CACHE_PREFIX}${b.key}.ckpt`, b.bytes]));
  const specs = p.cohort.specs.map((s, i) => ({ ...s, checkpoint: `${CACHE_PREFIX}${built[i].key}.ckpt` }));
  const reader: ReadBytes = async (path) => bytes.get(path) ?? files(path);
  return { raw: { ...raw, cohort: { agents: specs } }, reader, cached: true };
}
