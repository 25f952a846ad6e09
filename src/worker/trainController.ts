// The training worker's state machine, free of `self` so Node tests can drive it: the page's commands,
// one run at a time (a RunLoop, ./runLoop.ts, which owns the run's state), the step budget for pause /
// resume / step-once and the speed (./stepBudget.ts), reset to the base weights, live hyperparameters,
// the inspector's and the regime check's requests. The worker (trainWorker.ts) only forwards messages to it.
import type { ReadBytes } from '../cohort/manifest';
import type { BackendPreference, SelectedBackend } from '../engine/select';
import type { AutoShape } from '../engine/autoSelect';
import type { ExperimentConfig } from '../rl/config';
import type { InspectCommand, TrainCommand, TrainEvent } from './protocol';
import { applyLive } from './trainSession';
import type { Losable } from './deviceLoss';
import { answerInspect, postCheckpoints } from './runRequests';
import { RunLoop, type Resume, type RunHost, type RunSetup } from './runLoop';
import { PagePool, type SpawnModelWorker } from './pagePool';
import { poolSizeProblems } from '../rl/pool/poolModels';
import { answerRegime, type RegimeHost } from './regimeRequest';
import { BackendSlot } from './backendSlot';
import { CheckpointSources } from './checkpointSources';
import { StepBudget } from './stepBudget';

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

export class TrainController {
  readonly #env: ControllerEnv;
  /** The backend, shared by the runs one after another and the regime checks. */
  readonly #backends: BackendSlot;
  /** Where checkpoint bytes come from: builds, pretrained agents, imported files, shipped files. */
  readonly #sources: CheckpointSources;
  /** The pool of model workers (./pagePool.ts). */
  readonly #pool: PagePool;
  /** Lock steps the run may still take before it pauses, and the speed. */
  readonly #budget = new StepBudget();
  /** The latest run's id; a start or reset makes a new one and stops the old run (it stops at its next check). */
  #runId = 0;
  /** The latest run (a finished one stays for the inspector and reset); null before the first start. */
  #run: RunLoop | null = null;
  /** The latest start command's settings, which a reset runs again with. */
  #setup: RunSetup | null = null;
  /** The start command's test hooks (see TrainCommand 'start' `debug`). */
  #debug = false;
  /** Starts and resets, one at a time. */
  #queue: Promise<void> = Promise.resolve();
  /** Work on the loaded session, one unit at a time: lock steps, evaluations, the inspector's forwards. */
  #busy: Promise<unknown> = Promise.resolve();

  constructor(env: ControllerEnv) {
    this.#env = env;
    this.#backends = new BackendSlot(env, () => this.#budget.wake());
    this.#sources = new CheckpointSources((baseUrl) => env.reader(baseUrl));
    this.#pool = new PagePool(env.spawnModelWorker);
  }

  /** What a run uses of this controller. */
  #host(): RunHost {
    return {
      post: (e, t) => this.#env.post(e, t),
      keepShare: this.#env.keepShare,
      backends: this.#backends,
      budget: this.#budget,
      sources: this.#sources,
      pool: this.#pool,
      exclusive: (w) => this.#exclusive(w),
    };
  }

  /** What a regime check uses of this controller. */
  #regimeHost(): RegimeHost {
    return {
      post: (e) => this.#env.post(e),
      backends: this.#backends,
      sources: this.#sources,
      loaded: () => this.#run?.current != null,
      exclusive: (w) => this.#exclusive(w),
    };
  }

  /** Stop the current run (it finishes the unit of work in progress), then start a new run. */
  #begin(
    config: ExperimentConfig,
    pref: BackendPreference,
    paused: boolean,
    setup: RunSetup,
    resume?: Resume,
  ): Promise<void> {
    this.#queue = this.#queue.then(async () => {
      const id = ++this.#runId;
      this.#run?.stop();
      await this.#run?.done;
      await this.#dropFinished();
      this.#budget.reset(paused);
      this.#env.post(
        resume
          ? { type: 'run', runId: id, config, resumeFrom: resume.step }
          : { type: 'run', runId: id, config },
      );
      this.#run = new RunLoop(this.#host(), id, config, pref, setup, resume);
    });
    return this.#queue;
  }

  /** Handle one command. Returns when a start or reset has begun (not when the run ends). */
  command(cmd: TrainCommand): Promise<void> {
    switch (cmd.type) {
      case 'start': {
        this.#sources.useBase(cmd.baseUrl);
        this.#budget.setDelay(cmd.delayMs);
        this.#sources.imported = new Map(
          Object.entries(cmd.checkpoints ?? {}).map(([p, b]) => [p, new Uint8Array(b)]),
        );
        if (poolSizeProblems(cmd.workers ?? 1).length)
          return Promise.reject(new Error(poolSizeProblems(cmd.workers, 'the pool size (workers)')[0]));
        this.#debug = cmd.debug === true;
        this.#setup = {
          pretrain: cmd.pretrain,
          taskFile: cmd.taskFile,
          workers: cmd.workers ?? 1,
          snapshotEvery: Math.max(0, Math.floor(cmd.snapshotEvery ?? 5)),
          regime: cmd.regime,
          injectNaN: this.#debug ? cmd.injectNaN : undefined,
        };
        return this.#begin(
          structuredClone(cmd.config),
          cmd.backend,
          cmd.paused ?? false,
          this.#setup,
          cmd.resume,
        );
      }
      case 'reset':
        return this.#run && this.#setup
          ? this.#begin(structuredClone(this.#run.config), this.#run.pref, true, this.#setup)
          : this.#queue;
      case 'pause':
        this.#budget.pause();
        break;
      case 'resume':
        this.#budget.resume();
        break;
      case 'step':
        // from paused: exactly one lock step; while running: stop after the step in progress
        this.#budget.stepOnce(this.#run?.phase === 'paused');
        break;
      case 'live': {
        const c = this.#run?.config;
        const params = c ? applyLive(c.train, cmd.params) : {};
        if (Object.keys(params).length) this.#run?.liveChanged(); // the recovery point must carry the new values
        this.#env.post({ type: 'live', runId: this.#runId, params });
        break;
      }
      case 'speed':
        this.#budget.setDelay(cmd.delayMs);
        break;
      case 'inspect':
      case 'attention':
        return this.#inspect(cmd);
      case 'exportCheckpoints':
        return this.#exportCheckpoints();
      case 'regime':
        return answerRegime(this.#regimeHost(), cmd);
      case 'debugLoseDevice': {
        const dev = (this.#backends.current as Losable | null)?.device;
        if (!(this.#debug || DEV))
          this.#ignore(
            'debugLoseDevice is a test hook: it is honoured only when the run was started with debug: true, or in a dev build',
          );
        else if (!dev)
          this.#ignore('debugLoseDevice: there is no GPU device to lose (the run is on the CPU backend)');
        else dev.destroy();
        break;
      }
      case 'debugKillModelWorker': {
        if (!(this.#debug || DEV))
          this.#ignore(
            'debugKillModelWorker is a test hook: it is honoured only when the run was started with debug: true, or in a dev build',
          );
        else if (!this.#pool.killOne())
          this.#ignore(
            'debugKillModelWorker: the run has no model workers (pool size 1, WebGPU, or workers that could not start)',
          );
        break;
      }
      case 'debugFakeAdapter': {
        if (!DEV) {
          this.#ignore('debugFakeAdapter is a test hook: it is honoured only in a dev build');
          break;
        }
        this.#backends.useFakeAdapter({ adapter: cmd.adapter, gpuRate: cmd.gpuRate, cpuRate: cmd.cpuRate });
        break;
      }
    }
    return Promise.resolve();
  }

  /** A test hook not honoured: a 'fault' event of kind 'ignored' saying why. */
  #ignore(message: string): void {
    this.#env.post({
      type: 'fault',
      runId: this.#runId,
      kind: 'ignored',
      step: this.#run?.current?.step ?? 0,
      message,
    });
  }

  #exclusive<T>(work: () => Promise<T>): Promise<T> {
    const r = this.#busy.then(work);
    this.#busy = r.catch(() => undefined);
    return r;
  }

  /** Free a finished run kept for the inspector (after any request in flight). */
  #dropFinished(): Promise<void> {
    const run = this.#run;
    return this.#exclusive(async () => run?.dropSession());
  }

  /**
   * Answer an inspector request from the loaded run, between lock steps (the attention forward never
   * meets a step half done). Never throws: a bad request gets an 'inspectError' event.
   */
  #inspect(cmd: InspectCommand): Promise<void> {
    return this.#exclusive(() =>
      answerInspect(this.#run?.current ?? null, this.#runId, cmd, (e, t) => this.#env.post(e, t)),
    );
  }

  /** Every method's agents as checkpoint files, between lock steps. Never throws. */
  #exportCheckpoints(): Promise<void> {
    const id = this.#runId;
    return this.#exclusive(() =>
      postCheckpoints(id === this.#runId ? (this.#run?.current ?? null) : null, id, (e, t) =>
        this.#env.post(e, t),
      ),
    );
  }

  /** Stop the run and free the backend (tests). */
  async close(): Promise<void> {
    this.#runId++;
    this.#run?.stop();
    await this.#queue;
    await this.#run?.done;
    await this.#dropFinished();
    this.#backends.destroy();
    this.#pool.close();
  }
}
