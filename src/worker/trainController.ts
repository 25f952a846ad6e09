// The training worker's state machine, free of `self` so Node tests can drive it: one run at a time
// (TrainSession), a step budget for pause / resume / step-once, reset to the base weights, live
// hyperparameters and the speed. The worker (trainWorker.ts) only forwards messages to it.
import type { ReadBytes } from '../cohort/manifest';
import type { Backend } from '../engine/backend';
import type { BackendPreference, SelectedBackend } from '../engine/select';
import type { AutoShape } from '../engine/autoSelect';
import { selectWithFakeAdapter, type FakeAdapter } from './fakeAdapter';
import type { ExperimentConfig } from '../rl/config';
import type { CarriedTaskFile } from '../tasks/file/carried';
import type { InspectCommand, TrainCommand, TrainEvent, TrainPhase } from './protocol';
import { applyLive, cachedReader, TrainSession } from './trainSession';
import { PretrainCache, type PretrainOptions } from './browserPretrain';
import { AxisBuilder } from './axisBuilds';
import { openCheckpointStore } from './checkpointStore';
import type { Losable } from './deviceLoss';
import { answerInspect, postCheckpoints } from './runRequests';
import { runLoop } from './runLoop';
import { PagePool, type SpawnModelWorker } from './pagePool';
import { poolSizeProblems } from '../rl/pool/poolModels';
import { answerRegime } from './regimeRequest';
import type { RegimeReport } from '../rl/regime/measure';

/** A saved run to continue (see the 'start' command). */
type Resume = NonNullable<Extract<TrainCommand, { type: 'start' }>['resume']>;

const message = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/** A dev build (Vite) honours the test hooks without the start command's `debug`. */
const DEV = typeof import.meta.env === 'object' && import.meta.env?.DEV === true;

export interface ControllerEnv {
  /** Post an event; `transfer` lists ArrayBuffers handed over (snapshot and checkpoint bytes). */
  post(e: TrainEvent, transfer?: Transferable[]): void;
  /** A ReadBytes for checkpoints relative to `baseUrl` (undefined: the default place). */
  reader(baseUrl?: string): ReadBytes;
  selectBackend(pref: BackendPreference, shape?: AutoShape): Promise<SelectedBackend & { note?: string }>;
  /** Keep the in-memory recovery snapshot after every lock step while it costs at most this share of one
   * (default KEEP_SHARE; tests set 0 to keep only every `snapshotEvery` steps and exercise the re-run). */
  keepShare?: number;
  /** Starts a model worker of the pool (./pagePool.ts); absent: every model trains in this worker. */
  spawnModelWorker?: SpawnModelWorker;
}

/**
 * Members without `private` are shared with the run loop (runLoop.ts), which is this class's `run` moved
 * to a file of its own; nothing outside the worker uses them.
 */
export class TrainController {
  backend: Backend | null = null;
  /** The preference the backend was made for ('auto' after an explicit 'cpu' must look for a GPU again). */
  private backendPref: BackendPreference = 'auto';
  /** The dev-build test hook's fake hardware adapter (null: the real selection). */
  private fakeAdapter: FakeAdapter | null = null;
  /** The shapes 'auto' decided for ('' when not auto or unknown). */
  private backendShape = '';
  read: ReadBytes;
  private readBase: string | undefined = undefined;
  /** The run that owns the loop; a start or reset makes a new id and the old loop stops at its next check. */
  runId = 0;
  /** Lock steps the loop may still take before it pauses (Infinity while running). */
  budget = 0;
  delayMs = 0;
  private phase: TrainPhase = 'idle';
  wake: (() => void) | null = null;
  /** The loop of the current run (resolves when it has stopped and freed its session). */
  loop: Promise<void> = Promise.resolve();
  current: TrainSession | null = null;
  /** The config of the latest run (live changes included), which reset starts again. */
  lastConfig: ExperimentConfig | null = null;
  private lastPref: BackendPreference = 'auto';
  /** Base agents pretrained in this worker (they shadow the shipped files of the runs that pretrain). */
  readonly pretrainCache = new PretrainCache();
  /** Agents by axes without a checkpoint, built on demand into the in-page content-addressed cache. */
  readonly axisBuilds = new AxisBuilder(openCheckpointStore);
  private lastPretrain: PretrainOptions | undefined;
  /** Checkpoint bytes the page sent (imported files), by path; they shadow files at those paths. */
  imported = new Map<string, Uint8Array>();
  /** The start command's task file (registered by the run loop before the config is read). */
  taskFile: CarriedTaskFile | undefined;
  /** Starts and resets, one at a time. */
  private queue: Promise<void> = Promise.resolve();
  /** Post a snapshot every this many lock steps (0: only at pause and done). */
  snapshotEvery = 5;
  /** The start command's pool size, and the pool of model workers (./pagePool.ts). */
  workers = 1;
  readonly pool: PagePool;
  /**
   * Faults (docs/architecture.md "Faults"): the latest snapshot of the current run kept in memory, the
   * point a divergence rolls back to and a lost device reloads from. Kept after every lock step while
   * taking it costs under KEEP_SHARE of a lock step (as measured on the run's backend), else at
   * least every `snapshotEvery` (or 5) steps; the steps after it are re-run silently (records the page has are not posted again).
   */
  good: { runId: number; step: number; bytes: Uint8Array } | null = null;
  /** A live change since `good`: keep a new one before the next lock step (so a re-run uses the same values). */
  keepDue = false;
  /** The start command's test hooks (see TrainCommand 'start' `debug`). */
  private debug = false;
  injectNaN: Extract<TrainCommand, { type: 'start' }>['injectNaN'];
  /** The page's regime check sent with the start command (reused at step 0 when its settings match). */
  startRegime: RegimeReport | undefined;
  /** The current backend's device was lost (device.lost settled): the loop recovers at its next check. */
  lostFlag = false;

  constructor(readonly env: ControllerEnv) {
    this.read = cachedReader(env.reader());
    this.pool = new PagePool(env.spawnModelWorker);
  }

  status(id: number, p: TrainPhase, step: number, total: number, msg: string, work?: number): void {
    this.phase = p;
    this.env.post({
      type: 'status',
      runId: id,
      phase: p,
      step,
      totalSteps: total,
      message: msg,
      ...(work === undefined ? {} : { work }),
    });
  }

  /** Read checkpoints relative to `baseUrl` from now on (a new reader only when it changes). */
  useBase(baseUrl: string | undefined): void {
    if (baseUrl === this.readBase) return;
    this.readBase = baseUrl;
    this.read = cachedReader(this.env.reader(baseUrl));
  }

  /** Whether the backend made for `made` serves a run that asks for `want`. */
  static reuses(made: BackendPreference, name: string, want: BackendPreference): boolean {
    return want === 'auto' ? made !== 'cpu' && made !== 'wasm' : name === want;
  }

  /**
   * The backend for a run that asks for `pref`; `shape` is what 'auto' times (the run's decoding shapes):
   * a made backend is reused unless the preference changed, or 'auto' decided for other shapes.
   */
  async getBackend(pref: BackendPreference, shape?: AutoShape): Promise<Backend> {
    const shapeKey = pref === 'auto' && shape ? JSON.stringify(shape) : '';
    if (
      this.backend &&
      TrainController.reuses(this.backendPref, this.backend.info.name, pref) &&
      this.backendShape !== 'reselect' &&
      (shapeKey === '' || shapeKey === this.backendShape)
    )
      return this.backend;
    this.backend?.destroy();
    this.backend = null;
    const { backend, fallbackReason, note } = this.fakeAdapter
      ? await selectWithFakeAdapter(this.fakeAdapter, pref, shape)
      : await this.env.selectBackend(pref, shape);
    this.backend = backend;
    this.backendPref = pref;
    this.backendShape = shapeKey;
    this.lostFlag = false;
    // a device lost while the loop waits (paused) wakes it to recover; our own destroy() drops the backend first
    void (backend as Losable).device?.lost?.then(() => {
      if (this.backend !== backend) return;
      this.lostFlag = true;
      this.wake?.();
    });
    this.env.post({
      type: 'engine',
      backend: backend.info.name,
      adapter: backend.info.adapter,
      fallbackReason,
      ...(note ? { note } : {}),
    });
    return backend;
  }

  /** Apply the start command's test hook `injectNaN` (with `debug` only) to a freshly opened session. */
  arm(s: TrainSession): void {
    const inj = this.debug ? this.injectNaN : undefined;
    if (!inj) return;
    const tr = s.trainers.find((t) => t.opts.method === inj.method);
    if (tr) tr.opts.faultInjection = { agent: inj.agent, step: inj.step };
  }

  /** Stop the current run's loop (it finishes the unit of work in progress), then start a new run. */
  private begin(
    config: ExperimentConfig,
    pref: BackendPreference,
    paused: boolean,
    resume?: Resume,
  ): Promise<void> {
    this.queue = this.queue.then(async () => {
      const id = ++this.runId;
      this.wake?.();
      await this.loop;
      await this.dropFinished();
      this.budget = paused ? 0 : Infinity;
      this.lastConfig = config;
      this.lastPref = pref;
      this.env.post(
        resume
          ? { type: 'run', runId: id, config, resumeFrom: resume.step }
          : { type: 'run', runId: id, config },
      );
      this.loop = runLoop(this, id, config, pref, this.lastPretrain, resume);
    });
    return this.queue;
  }

  /** Handle one command. Returns when a start or reset has begun (not when the run ends). */
  command(cmd: TrainCommand): Promise<void> {
    switch (cmd.type) {
      case 'start':
        this.useBase(cmd.baseUrl);
        this.startRegime = cmd.regime;
        this.delayMs = Math.max(0, cmd.delayMs);
        this.lastPretrain = cmd.pretrain;
        this.imported = new Map(
          Object.entries(cmd.checkpoints ?? {}).map(([p, b]) => [p, new Uint8Array(b)]),
        );
        this.taskFile = cmd.taskFile;
        this.snapshotEvery = Math.max(0, Math.floor(cmd.snapshotEvery ?? 5));
        if (poolSizeProblems(cmd.workers ?? 1).length)
          return Promise.reject(new Error(poolSizeProblems(cmd.workers, 'the pool size (workers)')[0]));
        this.workers = cmd.workers ?? 1;
        this.debug = cmd.debug === true;
        this.injectNaN = cmd.injectNaN;
        return this.begin(structuredClone(cmd.config), cmd.backend, cmd.paused ?? false, cmd.resume);
      case 'reset':
        return this.lastConfig
          ? this.begin(structuredClone(this.lastConfig), this.lastPref, true)
          : this.queue;
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
        if (Object.keys(params).length) this.keepDue = true; // the recovery point must carry the new values
        this.env.post({ type: 'live', runId: this.runId, params });
        break;
      }
      case 'speed':
        this.delayMs = Math.max(0, cmd.delayMs);
        break;
      case 'inspect':
      case 'attention':
        return this.inspect(cmd);
      case 'exportCheckpoints':
        return this.exportCheckpoints();
      case 'regime':
        return answerRegime(this, cmd);
      case 'debugLoseDevice': {
        const dev = (this.backend as Losable | null)?.device;
        if (!(this.debug || DEV))
          this.ignore(
            'debugLoseDevice is a test hook: it is honoured only when the run was started with debug: true, or in a dev build',
          );
        else if (!dev)
          this.ignore('debugLoseDevice: there is no GPU device to lose (the run is on the CPU backend)');
        else dev.destroy();
        break;
      }
      case 'debugKillModelWorker': {
        if (!(this.debug || DEV))
          this.ignore(
            'debugKillModelWorker is a test hook: it is honoured only when the run was started with debug: true, or in a dev build',
          );
        else if (!this.pool.killOne())
          this.ignore(
            'debugKillModelWorker: the run has no model workers (pool size 1, WebGPU, or workers that could not start)',
          );
        break;
      }
      case 'debugFakeAdapter': {
        if (!DEV) {
          this.ignore('debugFakeAdapter is a test hook: it is honoured only in a dev build');
          break;
        }
        this.fakeAdapter = { adapter: cmd.adapter, gpuRate: cmd.gpuRate, cpuRate: cmd.cpuRate };
        this.backendShape = 'reselect'; // the next run selects again (a loaded session keeps its backend until then)
        break;
      }
    }
    return Promise.resolve();
  }

  /** A test hook not honoured: a 'fault' event of kind 'ignored' saying why. */
  private ignore(message: string): void {
    this.env.post({
      type: 'fault',
      runId: this.runId,
      kind: 'ignored',
      step: this.current?.step ?? 0,
      message,
    });
  }

  /** Work on the loaded session, one unit at a time: lock steps, evaluations, the inspector's forwards. */
  private busy: Promise<unknown> = Promise.resolve();
  exclusive<T>(work: () => Promise<T>): Promise<T> {
    const r = this.busy.then(work);
    this.busy = r.catch(() => undefined);
    return r;
  }

  /** Free a finished run kept for the inspector (after any request in flight). */
  private dropFinished(): Promise<void> {
    return this.exclusive(async () => {
      this.current?.dispose();
      this.current = null;
    });
  }

  /**
   * Answer an inspector request from the loaded run, between lock steps (the attention forward never
   * meets a step half done). Never throws: a bad request gets an 'inspectError' event.
   */
  private inspect(cmd: InspectCommand): Promise<void> {
    return this.exclusive(() => answerInspect(this.current, this.runId, cmd, (e, t) => this.env.post(e, t)));
  }

  /** Post every method's trainer state (between lock steps); a failure is reported, training goes on. */
  async postSnapshot(id: number, s: TrainSession, phase: 'running' | 'paused' | 'done'): Promise<void> {
    try {
      const t0 = performance.now();
      this.keepDue = false;
      const bytes = await this.exclusive(() => s.snapshot());
      const seconds = (performance.now() - t0) / 1000;
      if (id === this.runId) this.good = { runId: id, step: s.step, bytes: bytes.slice() }; // the recovery point (faults)
      const buf = bytes.buffer as ArrayBuffer;
      if (id === this.runId)
        this.env.post({ type: 'snapshot', runId: id, step: s.step, phase, bytes: buf, seconds }, [buf]);
    } catch (e) {
      this.env.post({
        type: 'snapshotError',
        runId: id,
        step: s.step,
        message: `could not take a snapshot at step ${s.step}: ${message(e)}`,
      });
    }
  }

  /** Every method's agents as checkpoint files, between lock steps. Never throws. */
  private exportCheckpoints(): Promise<void> {
    const id = this.runId;
    return this.exclusive(() =>
      postCheckpoints(id === this.runId ? this.current : null, id, (e, t) => this.env.post(e, t)),
    );
  }

  /** Stop the run and free the backend (tests). */
  async close(): Promise<void> {
    this.runId++;
    this.wake?.();
    await this.queue;
    await this.loop;
    await this.dropFinished();
    this.backend?.destroy();
    this.backend = null;
    this.pool.close();
  }
}
