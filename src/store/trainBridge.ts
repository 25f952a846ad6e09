// Connects the store to the training worker (src/worker/trainWorker.ts): sends its commands, queues its
// events and folds them into the store at most once per animation frame, so a fast run never floods
// the main thread. Also reads the preset catalogue from the checkpoint manifest.
import type { Manifest } from '../cohort/manifest';
import { appBaseUrl } from '../cohort/fetchReader';
import { describeTaskConfig, resolveTaskConfig } from '../tasks';
import type { LiveParams, TrainCommand, TrainEvent } from '../worker/protocol';
import type { ExperimentConfig } from '../rl/config';
import { settingsProblems, toExperimentConfig, type RunSettings } from '../formats/runSettings';
import { type PresetInfo } from './runConfigSlice';
import { useStore } from './store';
import { foldTrainEvents } from './trainEvents';
import { cohortContext } from '../formats/customCohort';
import { cohortStartFields } from './cohortStart';
import { taskFileStartField } from '../formats/taskFileTask';
import { matchingRegime } from './regimeSlice';

let worker: Worker | null = null;
let queue: TrainEvent[] = [];
let scheduled = false;

function flush(): void {
  scheduled = false;
  if (queue.length === 0) return;
  const events = queue;
  queue = [];
  const s = useStore.getState();
  const next = foldTrainEvents({ runStatus: s.runStatus, metrics: s.metrics }, events);
  useStore.setState({ runStatus: next.runStatus, metrics: next.metrics });
  if (next.engine)
    s.setEngine(next.engine.backend, next.engine.adapter, next.engine.fallbackReason, next.engine.note ?? '');
  for (const l of listeners) l(events);
}

/** Other bridges' listeners (the inspector's): each batch of worker events, after the store has folded it. */
const listeners = new Set<(events: readonly TrainEvent[]) => void>();
/** Listen to the training worker's events (per batch, at most once per frame); returns the unsubscribe. */
export function onTrainEvents(fn: (events: readonly TrainEvent[]) => void): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}
/** Post a command to the training worker (started on first use), for other bridges (the inspector's). */
export const sendTrainCommand = (cmd: TrainCommand): void => send(cmd);

function schedule(): void {
  if (scheduled) return;
  scheduled = true;
  // one store update per frame; the timeout covers hidden tabs, where frames do not run
  const timer = setTimeout(flush, 250);
  requestAnimationFrame(() => {
    clearTimeout(timer);
    flush();
  });
}

function send(cmd: TrainCommand): void {
  if (!worker) {
    worker = new Worker(new URL('../worker/trainWorker.ts', import.meta.url), { type: 'module' });
    worker.onmessage = (ev: MessageEvent<TrainEvent>) => {
      queue.push(ev.data);
      schedule();
    };
    worker.onerror = (ev) => {
      worker = null;
      useStore
        .getState()
        .setRunStatus({ phase: 'error', message: ev.message || 'the training worker crashed' });
    };
  }
  worker.postMessage(cmd);
}

/** How to start: paused at the first step; or a saved run (its config, continued from its snapshot). */
export interface StartOptions {
  paused?: boolean;
  /** The config to run instead of the settings' (a saved run's, live changes included). */
  config?: ExperimentConfig;
  /** Continue from a snapshot (persistBridge.ts). */
  resume?: { step: number; snapshot: ArrayBuffer };
}

/** Start a run with the current settings (replacing any run). Returns the problems instead if invalid. */
export function startTraining(opts: StartOptions = {}): Partial<Record<keyof RunSettings, string>> {
  const s = useStore.getState();
  const preset = s.presets.find((p) => p.name === s.runSettings.preset);
  const problems = settingsProblems(
    s.runSettings,
    preset?.agents.length,
    cohortContext(s.presets, s.importedCheckpoints, s.taskFiles),
  );
  if (Object.keys(problems).length) return problems;
  const cohortFields = cohortStartFields(s.runSettings, s.importedCheckpoints);
  // the panel's regime check of these base agents: the worker reuses it at step 0 when it matches the config
  const regime = opts.resume ? undefined : matchingRegime(s.regimeCheck, s.runSettings);
  send({
    type: 'start',
    config: opts.config ?? toExperimentConfig(s.runSettings),
    backend: s.runSettings.backend,
    workers: s.runSettings.workers,
    delayMs: s.speedMs,
    paused: opts.paused,
    baseUrl: appBaseUrl(),
    ...taskFileStartField(s.runSettings, s.taskFiles), // a dropped task file's text, loaded again there
    ...cohortFields, // pretrain (preset: pretrainHere; composed: the "pretrain here" agents) and imported bytes
    ...(opts.resume ? { resume: opts.resume } : {}),
    ...(regime ? { regime } : {}),
  });
  s.setRunStatus({ phase: 'loading', message: 'Starting the training worker…' });
  return {};
}

export const pauseTraining = (): void => send({ type: 'pause' });
export const resumeTraining = (): void => send({ type: 'resume' });
/** Exactly one step of every method, then paused. */
export const stepTraining = (): void => send({ type: 'step' });
/** Back to the base agents and the run seed, paused at step 0. */
export const resetTraining = (): void => send({ type: 'reset' });

/** Change the pause between steps (applies from the next step). */
export function setTrainingSpeed(ms: number): void {
  useStore.getState().setSpeed(ms);
  if (worker) send({ type: 'speed', delayMs: ms });
}

/** Update settings; a valid learning rate or temperature also goes to the running run at once. */
export function changeSettings(patch: Partial<RunSettings>): void {
  const s = useStore.getState();
  s.setRunSettings(patch);
  const live: LiveParams = {};
  if (patch.lr !== undefined) live.lr = patch.lr;
  if (patch.temperature !== undefined) live.temperature = patch.temperature;
  const active = ['loading', 'running', 'paused'].includes(s.runStatus.phase);
  const problems = settingsProblems(useStore.getState().runSettings);
  if (active && worker && Object.keys(live).length && !problems.lr && !problems.temperature)
    send({ type: 'live', params: live });
}

/** Presets listed in a manifest, for the cohort picker. */
export function presetCatalog(m: Manifest): PresetInfo[] {
  return Object.entries(m.presets).map(([name, p]) => ({
    name,
    description: p.description,
    task: describeTaskConfig(resolveTaskConfig(p.task)),
    agents: p.agents.map((a) => ({
      id: a.id,
      family: a.family,
      size: a.size,
      seed: a.seed,
      view: a.view,
      params: a.params,
      valAccuracy: a.valAccuracy,
      checkpoint: a.checkpoint,
    })),
  }));
}

let catalog: Promise<void> | null = null;

/** Fetch the checkpoint manifest once and put its presets in the store. */
export function loadCatalog(): Promise<void> {
  catalog ??= (async () => {
    try {
      const res = await fetch(new URL('checkpoints/index.json', appBaseUrl()));
      if (!res.ok) throw new Error(`HTTP ${res.status} ${res.statusText}`);
      const m = (await res.json()) as Manifest;
      if (m.format !== 'co-rl-checkpoints' || typeof m.presets !== 'object')
        throw new Error('not a checkpoint manifest');
      useStore.getState().setPresets(presetCatalog(m));
    } catch (e) {
      catalog = null;
      useStore
        .getState()
        .setPresets(
          [],
          `could not read the checkpoint manifest: ${e instanceof Error ? e.message : String(e)}`,
        );
    }
  })();
  return catalog;
}
