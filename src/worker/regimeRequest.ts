// The training worker's regime checks (docs/method.md, "The regime"; src/rl/regime/measure.ts): the Train
// view's "Check the regime" on a cohort's base agents before Start (RegimeCommand), and a run's own report
// at step 0 when its config sets eval.regime (the page's check reused when its settings match). Both post
// plain RegimeReports; the agents loaded for a check are freed before it answers.
import type { Agent } from '../cohort';
import { engineId } from '../engine/backend';
import { releaseDecoders } from '../model/generate';
import { CohortLoader, validateExperiment } from '../rl/cohortEnv';
import type { ExperimentConfig } from '../rl/config';
import { baseRegime } from '../rl/experiment';
import type { RegimeReport } from '../rl/regime/measure';
import { makeTask } from '../tasks';
import type { RegimeCommand } from './protocol';
import { registerKept } from './taskFiles';
import type { BackendSlot } from './backendSlot';
import type { CheckpointSources } from './checkpointSources';
import type { TrainEvent } from './protocol';
import type { TrainSession } from './trainSession';
import type { RunContext } from './runContext';

/** What a check uses of the training worker (TrainController's parts). */
export interface RegimeHost {
  post(e: TrainEvent): void;
  backends: BackendSlot;
  sources: CheckpointSources;
  /** Whether a run is loaded (it keeps its engine: changing it would free the run's buffers). */
  loaded(): boolean;
  /** Work on the engine, one unit at a time with the run's lock steps. */
  exclusive<T>(work: () => Promise<T>): Promise<T>;
}

const message = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/** Whether `r` was measured at the settings a run with `config` records at step 0 (same agents, P, K, T, seed 1). */
export function regimeMatches(r: RegimeReport | undefined, config: ExperimentConfig, ids: string[]): boolean {
  return (
    !!r &&
    r.split === 'validation' &&
    (config.eval.regime ? r.problems === config.eval.regime : true) &&
    r.K === config.train.samples &&
    r.temperature === config.train.temperature &&
    r.seed === 1 &&
    r.figures.agents.map((a) => a.id).join('\n') === ids.join('\n')
  );
}

/** Answer one RegimeCommand with the worker's parts `c`. Never throws: a failure is a 'regimeError' event. */
export async function answerRegime(c: RegimeHost, cmd: RegimeCommand): Promise<void> {
  const { requestId } = cmd;
  const note = (m: string) => c.post({ type: 'regimeStatus', requestId, message: m });
  const t0 = performance.now();
  let agents: Agent[] = [];
  try {
    if (!(Number.isInteger(cmd.problems) && cmd.problems >= 10))
      throw new Error(`problems: must be an integer >= 10, got ${JSON.stringify(cmd.problems)}`);
    c.sources.useBase(cmd.baseUrl);
    if (cmd.taskFile) registerKept(cmd.taskFile); // the page's dropped file, checked again here
    note('Looking for the engine…');
    // a loaded run keeps its engine (changing it would free the run's buffers): the answer names the engine
    const be = c.loaded() && c.backends.current ? c.backends.current : await c.backends.get(cmd.backend);
    let config: ExperimentConfig | null = structuredClone(cmd.config);
    config = await c.sources.axisBuilds.resolve(be, config, {
      recipe: cmd.pretrain?.recipe,
      aborted: () => false,
      note,
      notice: note,
      shipped: c.sources.shipped, // builds shipped with the app (public/checkpoints/cache)
    });
    if (!config) throw new Error('the cohort could not be built');
    if (
      cmd.pretrain &&
      !(await c.sources.pretrainCache.pretrain(be, config, cmd.pretrain, () => false, note))
    )
      throw new Error('pretraining the base agents stopped');
    const imported = new Map(
      Object.entries(cmd.checkpoints ?? {}).map(([p, b]) => [p, new Uint8Array(b)] as const),
    );
    const read = c.sources.readerFor(!!cmd.pretrain, imported);
    note('Checking the config and the base checkpoints…');
    const v = await validateExperiment(config, read);
    if (!v.ok) throw new Error(`invalid cohort:\n- ${v.errors.join('\n- ')}`);
    const task = makeTask(v.config.task!);
    const report = await c.exclusive(async () => {
      agents = await new CohortLoader(read, v.specs).load(be);
      note(`Drawing from ${agents.length} agents on ${cmd.problems} validation problems…`);
      return baseRegime(
        agents,
        task,
        { ...v.config, eval: { ...v.config.eval, regime: cmd.problems } },
        (id, done, total) =>
          note(`Agent ${id} drawn (${done}/${total}, ${((performance.now() - t0) / 1000).toFixed(1)} s)`),
      );
    });
    c.post({
      type: 'regime',
      requestId,
      report,
      backend: engineId(be.info), // 'wasm-relaxed' where the page's wasm engine runs the FMA kernels
      seconds: (performance.now() - t0) / 1000,
    });
  } catch (e) {
    c.post({ type: 'regimeError', requestId, message: `regime check: ${message(e)}` });
  } finally {
    for (const a of agents) {
      releaseDecoders(a.model);
      a.model.free();
    }
  }
}

/**
 * A run's regime report at step 0: the page's own check (the Regime panel's) whenever it matches the run's
 * cohort, K and T (and problem count, when eval.regime names one), so it costs nothing; else, only when
 * config.eval.regime > 0, measured now on the session's first method's agents (still the base agents), so
 * a run nobody asked to check starts as fast as before. A failure is a notice, never the run's end.
 */
export async function runRegimeAtStart(
  c: RunContext,
  s: TrainSession,
  given: RegimeReport | undefined,
  note: (m: string) => void,
): Promise<void> {
  const n = s.config.eval.regime ?? 0;
  const tr = s.trainers[0];
  if (!tr) return;
  if (regimeMatches(given, s.config, s.agentIds)) {
    c.post({ type: 'runRegime', runId: c.id, report: given!, reused: true });
    return;
  }
  if (!(n > 0)) return;
  try {
    note(`Regime check of the base agents on ${n} validation problems (step 0)…`);
    const report = await c.exclusive(() => baseRegime(tr.agents, tr.opts.task, s.config));
    if (!c.aborted()) c.post({ type: 'runRegime', runId: c.id, report, reused: false });
  } catch (e) {
    c.post({ type: 'notice', runId: c.id, message: `The step-0 regime check failed: ${message(e)}` });
  }
}
