// Pretraining base agents inside the training worker ("Pretrain the base agents here", and composed agents
// without a shipped checkpoint): the same deterministic recipes as `npm run pretrain` (src/cohort), with
// progress notes, and a cache so a reset or a second run reuses what this worker already made.
import { pretrainPreset } from '../cohort/build';
import { presetAgentSpecs } from '../cohort/presets';
import type { AgentSpec } from '../cohort/agent';
import { pretrainAgent } from '../cohort/pretrain';
import type { Backend } from '../engine/backend';
import type { ExperimentConfig } from '../rl/config';
import type { TrainCommand } from './protocol';

/** The start command's pretraining request. */
export type PretrainOptions = NonNullable<Extract<TrainCommand, { type: 'start' }>['pretrain']>;

/** A running maximum: pretraining reports its chosen (earlier) step last, and a progress bar never goes back. */
const rising = (): ((x: number) => number) => {
  let m = 0;
  return (x) => (m = Math.max(m, x));
};

export class PretrainCache {
  /** Checkpoints pretrained in this worker, by their shipped path; they shadow the shipped files. */
  private readonly pretrained = new Map<string, Uint8Array>();
  /** Which preset (and recipe) `pretrained` holds. */
  private pretrainedKey = '';
  /** Agents of agent-list cohorts pretrained here, by what makes them (recipe, task, family, size, seed, view). */
  private readonly agentCache = new Map<string, Uint8Array>();

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
  ): Promise<boolean> {
    const cohort = config.cohort as { preset?: string; agents?: unknown } | undefined;
    if (cohort && Array.isArray(cohort.agents)) return this.pretrainAgents(be, config, opts, aborted, note);
    if (!cohort?.preset)
      throw new Error(
        'pretraining in the browser needs a preset cohort (cohort: { preset: NAME }) or an agent list',
      );
    const key = `${cohort.preset}|${JSON.stringify(opts.recipe ?? {})}`;
    if (key === this.pretrainedKey) return true;
    const ids = presetAgentSpecs(cohort.preset).map((s) => s.id);
    const done = rising();
    const built = await pretrainPreset(be, cohort.preset, {
      recipe: opts.recipe,
      shouldStop: aborted,
      onProgress: (p) =>
        note(
          `Pretraining agent ${p.agent}: step ${p.step}/${p.maxSteps}, loss ${p.loss.toFixed(3)}` +
            (p.valAccuracy === undefined ? '' : `, validation accuracy ${(100 * p.valAccuracy).toFixed(0)}%`),
          done((Math.max(0, ids.indexOf(p.agent)) + p.step / p.maxSteps) / ids.length),
        ),
    });
    if (aborted()) return false;
    this.pretrained.clear();
    for (const a of built.agents) this.pretrained.set(a.spec.checkpoint, a.result.bytes);
    this.pretrainedKey = key;
    return true;
  }

  /**
   * Pretrain the agents of an agent-list cohort whose checkpoint paths `opts.paths` names (default:
   * all) with pretrainAgent in each spec's view, reusing agents this worker already made with the same
   * recipe; their bytes stand in for those paths. False if aborted.
   */
  private async pretrainAgents(
    be: Backend,
    config: ExperimentConfig,
    opts: PretrainOptions,
    aborted: () => boolean,
    note: (m: string, work?: number) => void,
  ): Promise<boolean> {
    const specs = (config.cohort as { agents: AgentSpec[] }).agents;
    if (!config.task) throw new Error('task: missing (required when the cohort is given as an agent list)');
    const task = config.task;
    const todo = specs.filter(
      (s, i) =>
        s.checkpoint &&
        (!opts.paths || opts.paths.includes(s.checkpoint)) &&
        specs.findIndex((t) => t.checkpoint === s.checkpoint) === i,
    );
    const made = new Map<string, Uint8Array>();
    const done = rising();
    for (const [i, s] of todo.entries()) {
      const key = JSON.stringify([opts.recipe ?? {}, task, s.family, s.size, s.seed, s.view]);
      let bytes = this.agentCache.get(key);
      if (!bytes) {
        note(
          `Pretraining agent ${s.id} (${i + 1} of ${todo.length}): ${s.family}.${s.size} seed ${s.seed}, ${s.view} view…`,
          done(i / todo.length),
        );
        const r = await pretrainAgent(be, s, task, {
          recipe: opts.recipe,
          shouldStop: aborted,
          onProgress: (p) =>
            note(
              `Pretraining agent ${p.agent} (${i + 1} of ${todo.length}): step ${p.step}/${p.maxSteps}, loss ${p.loss.toFixed(3)}` +
                (p.valAccuracy === undefined
                  ? ''
                  : `, validation accuracy ${(100 * p.valAccuracy).toFixed(0)}%`),
              done((i + p.step / p.maxSteps) / todo.length),
            ),
        });
        r.agent.model.free();
        if (aborted()) return false;
        this.agentCache.set(key, (bytes = r.bytes));
      }
      made.set(s.checkpoint!, bytes);
    }
    this.pretrained.clear();
    for (const [path, bytes] of made) this.pretrained.set(path, bytes);
    this.pretrainedKey = ''; // the map no longer holds a preset's agents
    return true;
  }
}
