// The training worker's state machine, free of `self` so Node tests can drive it: one run at a time
// (TrainSession), a step budget for pause / resume / step-once, reset to the base weights, live
// hyperparameters and the speed. The worker (trainWorker.ts) only forwards messages to it.
import type { ReadBytes } from '../cohort/manifest';
import { pretrainPreset } from '../cohort/build';
import type { Backend } from '../engine/backend';
import type { BackendPreference, SelectedBackend } from '../engine/select';
import type { ExperimentConfig } from '../rl/config';
import type { EvalRecord } from '../rl/records';
import type { TrainCommand, TrainEvent, TrainPhase } from './protocol';
import { applyLive, cachedReader, TrainSession } from './trainSession';

const message = (e: unknown): string => (e instanceof Error ? e.message : String(e));
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export interface ControllerEnv {
  post(e: TrainEvent): void;
  /** A ReadBytes for checkpoints relative to `baseUrl` (undefined: the default place). */
  reader(baseUrl?: string): ReadBytes;
  selectBackend(pref: BackendPreference): Promise<SelectedBackend>;
}

export class TrainController {
  private backend: Backend | null = null;
  private read: ReadBytes;
  private readBase: string | undefined = undefined;
  /** The run that owns the loop; a start or reset makes a new id and the old loop stops at its next check. */
  private runId = 0;
  /** Lock steps the loop may still take before it pauses (Infinity while running). */
  private budget = 0;
  private delayMs = 0;
  private phase: TrainPhase = 'idle';
  private wake: (() => void) | null = null;
  /** The loop of the current run (resolves when it has stopped and freed its session). */
  loop: Promise<void> = Promise.resolve();
  private current: TrainSession | null = null;
  /** The config of the latest run (live changes included), which reset starts again. */
  private lastConfig: ExperimentConfig | null = null;
  private lastPref: BackendPreference = 'auto';
  /** Checkpoints pretrained in this worker, by their shipped path; they shadow the shipped files. */
  private readonly pretrained = new Map<string, Uint8Array>();
  /** Which preset (and recipe) `pretrained` holds. */
  private pretrainedKey = '';
  private lastPretrain: Extract<TrainCommand, { type: 'start' }>['pretrain'];
  /** Starts and resets, one at a time. */
  private queue: Promise<void> = Promise.resolve();

  constructor(private readonly env: ControllerEnv) {
    this.read = cachedReader(env.reader());
  }

  private status(id: number, p: TrainPhase, step: number, total: number, msg: string): void {
    this.phase = p;
    this.env.post({ type: 'status', runId: id, phase: p, step, totalSteps: total, message: msg });
  }

  private async getBackend(pref: BackendPreference): Promise<Backend> {
    if (this.backend && (pref === 'auto' || this.backend.info.name === pref)) return this.backend;
    this.backend?.destroy();
    this.backend = null;
    const { backend, fallbackReason } = await this.env.selectBackend(pref);
    this.backend = backend;
    this.env.post({ type: 'engine', backend: backend.info.name, adapter: backend.info.adapter, fallbackReason });
    return backend;
  }

  /** The whole life of one run: load, evaluate the base agents, then step while the budget allows. */
  private async run(
    id: number, config: ExperimentConfig, pref: BackendPreference, pretrain: TrainController['lastPretrain'],
  ): Promise<void> {
    const aborted = () => id !== this.runId;
    const total = config.steps;
    let session: TrainSession | null = null;
    const note = (m: string) => this.status(id, 'loading', 0, total, m);
    try {
      note('Looking for a GPU…');
      const be = await this.getBackend(pref);
      if (aborted()) return;
      if (pretrain && !(await this.pretrainCohort(be, config, pretrain, aborted, note))) return;
      const shipped = this.read;
      const read: ReadBytes = (path) => {
        const own = this.pretrained.get(path);
        return own ? Promise.resolve(own) : shipped(path);
      };
      session = await TrainSession.open(be, config, read, note);
      this.current = session;
      this.lastConfig = session.config;
      if (aborted()) return;
      const onEval = (record: EvalRecord) => this.env.post({ type: 'eval', runId: id, record });
      if (!(await session.evaluate(onEval, aborted, note))) return;
      while (session.step < total) {
        if (aborted()) return;
        if (this.budget <= 0) {
          this.status(id, 'paused', session.step, total, 'Paused: Resume, or Step for one more step of every method.');
          await new Promise<void>((r) => (this.wake = r));
          this.wake = null;
          continue;
        }
        this.budget--;
        const s = session;
        const running = (m: string) => this.status(id, 'running', s.step, total, m);
        if (!(await s.lockStep((record) => this.env.post({ type: 'step', runId: id, record }), aborted, running))) return;
        if (s.evalDue && !(await s.evaluate(onEval, aborted, running))) return;
        // yield to the message queue between lock steps (pause, live changes), and apply the speed delay
        await sleep(this.budget > 0 ? this.delayMs : 0);
      }
      this.status(id, 'done', session.step, total, `Done: ${total} steps of ${session.config.methods.join(', ')}.`);
    } catch (e) {
      if (aborted()) return;
      this.status(id, 'error', session?.step ?? 0, total, message(e));
      this.env.post({ type: 'error', runId: id, message: message(e) });
    } finally {
      if (this.current === session) this.current = null;
      session?.dispose();
    }
  }

  /** Stop the current run's loop (it finishes the unit of work in progress), then start a new run. */
  private begin(config: ExperimentConfig, pref: BackendPreference, paused: boolean): Promise<void> {
    this.queue = this.queue.then(async () => {
      const id = ++this.runId;
      this.wake?.();
      await this.loop;
      this.budget = paused ? 0 : Infinity;
      this.lastConfig = config;
      this.lastPref = pref;
      this.env.post({ type: 'run', runId: id, config });
      this.loop = this.run(id, config, pref, this.lastPretrain);
    });
    return this.queue;
  }

  /**
   * Pretrain the base agents of the run's preset on `be` (deterministic for the preset seed), unless
   * this worker already has them; a reset reuses them. False if aborted.
   */
  private async pretrainCohort(
    be: Backend, config: ExperimentConfig, opts: NonNullable<TrainController['lastPretrain']>, aborted: () => boolean,
    note: (m: string) => void,
  ): Promise<boolean> {
    const cohort = config.cohort as { preset?: string } | undefined;
    if (!cohort?.preset) throw new Error('pretraining in the browser needs a preset cohort (cohort: { preset: NAME })');
    const key = `${cohort.preset}|${JSON.stringify(opts.recipe ?? {})}`;
    if (key === this.pretrainedKey) return true;
    const built = await pretrainPreset(be, cohort.preset, {
      recipe: opts.recipe,
      shouldStop: aborted,
      onProgress: (p) =>
        note(`Pretraining agent ${p.agent}: step ${p.step}/${p.maxSteps}, loss ${p.loss.toFixed(3)}` +
          (p.valAccuracy === undefined ? '' : `, validation accuracy ${(100 * p.valAccuracy).toFixed(0)}%`)),
    });
    if (aborted()) return false;
    this.pretrained.clear();
    for (const a of built.agents) this.pretrained.set(a.spec.checkpoint, a.result.bytes);
    this.pretrainedKey = key;
    return true;
  }

  /** Handle one command. Returns when a start or reset has begun (not when the run ends). */
  command(cmd: TrainCommand): Promise<void> {
    switch (cmd.type) {
      case 'start':
        if (cmd.baseUrl !== this.readBase) {
          this.readBase = cmd.baseUrl;
          this.read = cachedReader(this.env.reader(cmd.baseUrl));
        }
        this.delayMs = Math.max(0, cmd.delayMs);
        this.lastPretrain = cmd.pretrain;
        return this.begin(structuredClone(cmd.config), cmd.backend, cmd.paused ?? false);
      case 'reset':
        return this.lastConfig ? this.begin(structuredClone(this.lastConfig), this.lastPref, true) : this.queue;
      case 'pause':
        this.budget = 0;
        break;
      case 'resume':
        this.budget = Infinity;
        this.wake?.();
        break;
      case 'step':
        // from paused: exactly one lock step; while running: stop after the step in progress
        this.budget = this.phase === 'paused' ? 1 : 0;
        this.wake?.();
        break;
      case 'live': {
        const c = this.current?.config ?? this.lastConfig;
        const params = c ? applyLive(c.train, cmd.params) : {};
        this.env.post({ type: 'live', runId: this.runId, params });
        break;
      }
      case 'speed':
        this.delayMs = Math.max(0, cmd.delayMs);
        break;
    }
    return Promise.resolve();
  }

  /** Stop the run and free the backend (tests). */
  async close(): Promise<void> {
    this.runId++;
    this.wake?.();
    await this.queue;
    await this.loop;
    this.backend?.destroy();
    this.backend = null;
  }
}
