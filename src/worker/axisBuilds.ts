// The page's base checkpoints on demand (issue 12 "Base checkpoints on demand"; the Node twin is
// src/cohort/cache.ts): agents of a run given by axes without a checkpoint are validated (parseAxisAgent,
// contextErrors: every problem before any work), then each distinct build is read from the in-page
// content-addressed cache (key = buildKey(spec, task, recipe) + engine tag, as in Node) when its entry
// checks, else pretrained with pretrainAgent (the family's recipe, a corpus ladder included) and stored; a
// damaged entry is rebuilt with a notice. Agents that share a build (seed-only's two) share one checkpoint.
// The builds to make run side by side in this worker and the pool of model workers when the run has one
// (hooks.pool; src/rl/pool/poolBuilds.ts), one after the other on the run's backend otherwise: the same bytes.
import type { AgentSpec } from '../cohort/agent';
import { buildKey, parseAxisCohort, pretrainSpecOf } from '../cohort/axes';
import { cacheBytesProblem, cacheSum, engineCacheKey } from '../cohort/cacheEntry';
import type { PretrainRecipe } from '../cohort/familySpec';
import type { PretrainProgress } from '../cohort/pretrainSpec';
import { engineId, type Backend } from '../engine/backend';
import type { ExperimentConfig } from '../rl/config';
import { planAgent } from '../cohort/ladder';
import { buildAgents, builtWhere, type BuildJob } from '../rl/pool/poolBuilds';
import { BuildShares } from '../rl/pool/buildShares';
import type { ModelPool } from '../rl/pool/poolModels';
import type { CheckpointStore } from './checkpointStore';

/** Where a cached build's bytes are served to the run (never fetched). */
export const cachePath = (key: string): string => `cache/${key}.ckpt`;

/**
 * Where a shipped build lies under public/: the wasm engine's entry of the Node cache, copied with its sum
 * (`npm run ship-builds`). Weights are weights: a run on any engine may start from it.
 */
export const shippedPath = (wasmKey: string, ext: 'ckpt' | 'sum' = 'ckpt'): string =>
  `checkpoints/cache/${wasmKey}.${ext}`;

/** Agents of the config's agent list that name no checkpoint (they are built on demand). */
export function axisAgents(config: ExperimentConfig): AgentSpec[] {
  const c = config.cohort as { agents?: unknown };
  return Array.isArray(c?.agents) ? (c.agents as AgentSpec[]).filter((a) => !a?.checkpoint) : [];
}

/** What resolving a run's axis agents reports. */
export interface AxisBuildHooks {
  recipe?: Partial<PretrainRecipe>;
  aborted: () => boolean;
  /** A progress line and the share of the work done. */
  note: (m: string, work?: number) => void;
  /** A line kept beside the run: where each build came from, and damaged entries rebuilt. */
  notice: (m: string) => void;
  /** Reads a file the page ships (public/); a build shipped there is used instead of pretraining it here. */
  shipped?: (path: string) => Promise<Uint8Array>;
  /** The pool of model workers that builds `builds` agents side by side with this worker; none (or undefined): one after the other on the run's backend. */
  pool?: (builds: number, rungs?: number) => Promise<ModelPool | undefined>;
}

/** The shipped build of bare key `bare` (the wasm engine's entry), or undefined when none ships or it does not check. */
async function shippedBuild(
  h: AxisBuildHooks,
  bare: string,
): Promise<{ bytes: Uint8Array; key: string } | undefined> {
  if (!h.shipped) return undefined;
  const key = engineCacheKey(bare, 'wasm');
  try {
    const [bytes, sum] = await Promise.all([h.shipped(shippedPath(key)), h.shipped(shippedPath(key, 'sum'))]);
    const text = new TextDecoder().decode(sum);
    return cacheBytesProblem(bytes, text, key) === null ? { bytes, key } : undefined;
  } catch {
    return undefined; // not shipped
  }
}

/** The progress line of one build. */
export function progressLine(who: string, n: number, of: number, p: PretrainProgress): string {
  const rung = p.rung ? `, corpus ${p.rung.size} problems (rung ${p.rung.index + 1} of ${p.rung.of})` : '';
  const val = p.valAccuracy === undefined ? '' : `, validation accuracy ${(100 * p.valAccuracy).toFixed(0)}%`;
  return `Pretraining ${who} (build ${n} of ${of})${rung}: step ${p.step}/${p.maxSteps}, loss ${p.loss.toFixed(3)}${val}`;
}

/** Validate the axis agents of `config` (as the Node CLIs do); throws one error listing every problem (nothing is built). */
function checkAxes(config: ExperimentConfig, agents: AgentSpec[]): AgentSpec[] {
  const r = parseAxisCohort(
    { task: config.task, cohort: { agents } },
    (a) => `agent ${(a as AgentSpec)?.id ?? '?'}`,
  );
  if ('errors' in r)
    throw new Error(`cannot build the base agents; nothing was pretrained:\n- ${r.errors.join('\n- ')}`);
  return r.cohort.specs;
}

/**
 * Give every axis agent of `config` a checkpoint from the cache (building what is missing or damaged on
 * `be`). Returns the config with those agents' checkpoint paths and the bytes by path, or null if aborted.
 */
export async function resolveAxisAgents(
  be: Backend,
  config: ExperimentConfig,
  store: CheckpointStore,
  h: AxisBuildHooks,
): Promise<{ config: ExperimentConfig; bytes: Map<string, Uint8Array> } | null> {
  const todo = axisAgents(config);
  const bytes = new Map<string, Uint8Array>();
  if (todo.length === 0) return { config, bytes };
  const specs = checkAxes(config, todo);
  const task = config.task!;
  const keyOf = new Map(
    specs.map((s) => [s.id, engineCacheKey(buildKey(s, task, h.recipe), engineId(be.info))]),
  );
  const builds = [...new Set(keyOf.values())];
  /** The builds to pretrain: every one neither in the store (checking) nor shipped with the app. */
  const jobs: (BuildJob & { key: string; n: number })[] = [];
  for (const [i, key] of builds.entries()) {
    const users = specs.filter((s) => keyOf.get(s.id) === key);
    const s = users[0];
    const who = `${users.map((u) => u.id).join(', ')}: ${s.family}.${s.size} seed ${s.seed}, ${s.view} view${s.tokenizer ? `, ${s.tokenizer} tokens` : ''}`;
    const stored = await store.get(key).catch(() => undefined); // an unreadable entry counts as missing
    const problem = cacheBytesProblem(stored?.bytes, stored?.sum, key);
    if (problem === null) {
      bytes.set(cachePath(key), stored!.bytes);
      h.notice(`${who}: from ${store.where} (build ${key})`);
      continue;
    }
    const ship = await shippedBuild(h, buildKey(s, task, h.recipe));
    if (ship) {
      bytes.set(cachePath(key), ship.bytes); // not stored: the app always has it
      h.notice(`${who}: shipped with the app (build ${ship.key}), no pretraining needed`);
      continue;
    }
    if (problem !== 'missing')
      h.notice(
        `cache entry ${key} (${who}) is damaged: ${problem}; rebuilt it, the damaged entry was not used`,
      );
    jobs.push({ who, spec: pretrainSpecOf(s), task, recipe: h.recipe, cacheKey: key, key, n: i + 1 });
  }
  if (jobs.length === 0) return finish();
  const rungsOf = (j: BuildJob) => {
    try {
      return planAgent(j.spec, j.task, { recipe: j.recipe }).rungs;
    } catch {
      return 1; // buildAgents names the build and what is wrong
    }
  };
  const rungs = jobs.reduce((n, j) => n + rungsOf(j), 0);
  const pool = await h.pool?.(jobs.length, rungs);
  for (const [j, b] of jobs.entries())
    h.note(`Pretraining ${b.who} (build ${b.n} of ${builds.length})…`, j / jobs.length);
  const shares = new BuildShares(jobs.length);
  const built = await buildAgents(jobs, {
    backend: be,
    pool,
    aborted: h.aborted,
    onProgress: (j, p) => {
      h.note(progressLine(jobs[j].who, jobs[j].n, builds.length, p), shares.update(j, p));
    },
    notice: (_, s) => h.notice(s),
    onRetry: (j, why, where) =>
      h.notice(`${jobs[j].who}: its model worker stopped (${why}); pretraining it ${where} instead`),
  });
  if (!built || h.aborted()) return null;
  for (const [j, r] of built.entries()) {
    const { who, key } = jobs[j];
    try {
      await store.put(key, { bytes: r.bytes, sum: cacheSum(r.bytes) });
    } catch (e) {
      h.notice(
        `${who}: could not be stored in ${store.where} (${(e as Error).message}); this run uses it, the next one pretrains it again`,
      );
    }
    bytes.set(cachePath(key), r.bytes);
    const m = r.meta;
    const ladder = m.ladder?.length
      ? `; corpus ladder ${m.ladder.map((g) => `${g.size} (${(100 * g.valAccuracy).toFixed(0)}%)`).join(', ')}`
      : '';
    h.notice(
      `${who}: pretrained here in ${r.seconds.toFixed(1)} s (${m.steps} steps` +
        `${m.corpus?.size ? ` on ${m.corpus.size} problems` : ''}, validation accuracy ${(100 * m.valAccuracy).toFixed(0)}%${m.inBand ? '' : ', outside its band'}${ladder}), stored in ${store.where} as build ${key}${pool ? ` (${builtWhere(r.ran)})` : ''}`,
    );
  }
  return finish();

  function finish() {
    const full = new Map(specs.map((s) => [s.id, s]));
    const agents = (config.cohort as { agents: AgentSpec[] }).agents.map((a) =>
      a.checkpoint ? a : { ...full.get(a.id)!, checkpoint: cachePath(keyOf.get(a.id)!) },
    );
    return { config: { ...config, cohort: { agents } }, bytes };
  }
}

/** A worker's builds: its store (opened once) and the bytes of every build it served, by path. */
export class AxisBuilder {
  private store: Promise<CheckpointStore> | null = null;
  /** Bytes of the builds served so far (a reset of a run reads them again). */
  readonly served = new Map<string, Uint8Array>();

  constructor(private readonly open: () => Promise<CheckpointStore>) {}

  /** Resolve the run's axis agents (see resolveAxisAgents); the config to run, or null if aborted. */
  async resolve(be: Backend, config: ExperimentConfig, h: AxisBuildHooks): Promise<ExperimentConfig | null> {
    if (axisAgents(config).length === 0) return config;
    this.store ??= this.open();
    const r = await resolveAxisAgents(be, config, await this.store, h);
    if (!r) return null;
    for (const [p, b] of r.bytes) this.served.set(p, b);
    return r.config;
  }
}
