// Pretraining a shipped preset's base agents inside the training worker ("Pretrain the base agents here"):
// the same deterministic recipes as `npm run pretrain` (src/cohort), with progress notes, and a cache so a
// reset or a second run reuses what this worker already made. The agents are built side by side in the pool
// of model workers when the run has one (src/rl/pool/poolBuilds.ts, the same pretrainAgent as
// pretrainPreset, so the same bytes), one after the other here otherwise. Agents by axes (composed ones
// pretrained here, the natural presets') are built by src/worker/axisBuilds.ts into the content-addressed
// cache instead.
import type { AgentSpec } from '../cohort/agent';
import { getPreset, presetAgentSpecs } from '../cohort/presets';
import type { Backend } from '../engine/backend';
import { BuildShares } from '../rl/pool/buildShares';
import { buildAgents, type BuildJob } from '../rl/pool/poolBuilds';
import type { ModelPool } from '../rl/pool/poolModels';
import type { ExperimentConfig } from '../rl/config';
import type { TrainCommand } from './protocol';

/** The start command's pretraining request. */
export type PretrainOptions = NonNullable<Extract<TrainCommand, { type: 'start' }>['pretrain']>;

export class PretrainCache {
  /** Checkpoints pretrained in this worker, by their shipped path; they shadow the shipped files. */
  private readonly pretrained = new Map<string, Uint8Array>();
  /** Which preset (and recipe) `pretrained` holds. */
  private pretrainedKey = '';

  /** The pretrained bytes standing in for checkpoint `path`, if any. */
  get(path: string): Uint8Array | undefined {
    return this.pretrained.get(path);
  }

  /**
   * Pretrain the base agents of the run's preset on `be` (deterministic for the preset seed), unless
   * this worker already has them; a reset reuses them. False if aborted.
   */
  async pretrain(
    be: Backend,
    config: ExperimentConfig,
    opts: PretrainOptions,
    aborted: () => boolean,
    note: (m: string, work?: number) => void,
    /** The pool of model workers for `builds` agents (undefined: they are built here, one after the other). */
    pool?: (builds: number, rungs?: number) => Promise<ModelPool | undefined>,
  ): Promise<boolean> {
    const cohort = config.cohort as { preset?: string; agents?: unknown } | undefined;
    // agents by axes without a checkpoint are built by src/worker/axisBuilds.ts, the rest are read
    if (cohort && Array.isArray(cohort.agents)) {
      this.pretrained.clear(); // a preset's pretrained agents must not shadow the list's shipped files
      this.pretrainedKey = '';
      return true;
    }
    if (!cohort?.preset)
      throw new Error(
        'pretraining in the browser needs a preset cohort (cohort: { preset: NAME }) or an agent list',
      );
    const key = `${cohort.preset}|${JSON.stringify(opts.recipe ?? {})}`;
    if (key === this.pretrainedKey) return true;
    const specs = presetAgentSpecs(cohort.preset) as (AgentSpec & { checkpoint: string })[];
    const task = getPreset(cohort.preset).task;
    // cacheKey '': a shipped preset's checkpoint records none, as `npm run pretrain` writes it
    const jobs: BuildJob[] = specs.map((spec) => ({
      who: `agent ${spec.id}`,
      spec,
      task,
      recipe: opts.recipe,
      cacheKey: '',
    }));
    const shares = new BuildShares(specs.length);
    const built = await buildAgents(jobs, {
      backend: be,
      pool: await pool?.(jobs.length),
      aborted,
      onProgress: (j, p) => {
        note(
          `Pretraining agent ${specs[j].id}: step ${p.step}/${p.maxSteps}, loss ${p.loss.toFixed(3)}` +
            (p.valAccuracy === undefined ? '' : `, validation accuracy ${(100 * p.valAccuracy).toFixed(0)}%`),
          shares.update(j, p),
        );
      },
      onRetry: (j, why, where) =>
        note(`agent ${specs[j].id}: its model worker stopped (${why}); pretraining it ${where} instead`),
    });
    if (!built || aborted()) return false;
    this.pretrained.clear();
    specs.forEach((spec, i) => this.pretrained.set(spec.checkpoint, built[i].bytes));
    this.pretrainedKey = key;
    return true;
  }
}
