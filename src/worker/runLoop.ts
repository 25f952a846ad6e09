// The life of one training run in the worker (a RunLoop per start or reset of TrainController): load the
// backend and the cohort, evaluate the base agents (or restore a saved run), then take lock steps while the
// step budget allows, with the faults of docs/architecture-runtime.md: a divergence rolls the lock step back and
// pauses; a lost device is recreated and the run reloaded from the kept snapshot, no step lost or repeated.
// The run's state (its session, the kept snapshot, what the page has been posted) lives here; the
// controller's shared parts (backend, budget, checkpoint sources, pool) come in a RunHost.
import type { ReadBytes } from '../cohort/manifest';
import type { Backend } from '../engine/backend';
import type { BackendPreference } from '../engine/select';
import type { ExperimentConfig } from '../rl/config';
import type { EvalRecord, StepRecord } from '../rl/records';
import { TrainingDivergedError } from '../rl/trainer';
import type { RegimeReport } from '../rl/regime/measure';
import type { CarriedTaskFile } from '../tasks/file/carried';
import type { PretrainOptions } from './browserPretrain';
import type { BackendSlot } from './backendSlot';
import type { CheckpointSources } from './checkpointSources';
import { lostReason } from './deviceLoss';
import { poolModels, type PagePool } from './pagePool';
import type { TrainCommand, TrainEvent, TrainPhase } from './protocol';
import { TrainSession } from './trainSession';
import { runRegimeAtStart } from './regimeRequest';
import type { RunContext } from './runContext';
import { autoShapeOf } from './autoShape';
import type { StepBudget } from './stepBudget';
import { registerKept } from './taskFiles';
import { RunSnapshots } from './runSnapshots';

type Start = Extract<TrainCommand, { type: 'start' }>;
/** A saved run to continue (see the 'start' command). */
export type Resume = NonNullable<Start['resume']>;

const message = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/** What a run uses of its controller, shared by the runs one after another. */
export interface RunHost {
  /** Post an event; `transfer` lists ArrayBuffers handed over (snapshot bytes). */
  post(e: TrainEvent, transfer?: Transferable[]): void;
  /** See ControllerEnv.keepShare (./runSnapshots.ts). */
  keepShare?: number;
  backends: BackendSlot;
  budget: StepBudget;
  sources: CheckpointSources;
  pool: PagePool;
  /** Work on a loaded session, one unit at a time (the controller's inspector requests share it). */
  exclusive<T>(work: () => Promise<T>): Promise<T>;
}

/** The start command's settings a run reads (a reset runs again with the same object). */
export interface RunSetup {
  pretrain: PretrainOptions | undefined;
  taskFile: CarriedTaskFile | undefined;
  /** The pool size (./pagePool.ts). */
  workers: number;
  /** Post a snapshot every this many lock steps (0: only at pause and done). */
  snapshotEvery: number;
  /** The page's regime check (reused at step 0 when its settings match). */
  regime: RegimeReport | undefined;
  /** The test hook (with `debug` only); it fires once: cleared when it has, so a reset does not fire it again. */
  injectNaN: Start['injectNaN'];
}

export class RunLoop {
  /** The run's config: the start's, then its session's (live changes included), which a reset starts again. */
  private cfg: ExperimentConfig;
  /** The phase of the latest status posted. */
  phase: TrainPhase = 'idle';
  /** Resolves when the run has stopped (and freed its session unless it finished). */
  readonly done: Promise<void>;
  private stopped = false;
  private readonly total: number;
  /** The loaded session; a finished run keeps it for the inspector until dropSession(). */
  private session: TrainSession | null = null;
  /** The run's checkpoint bytes (set when it loads). */
  private read: ReadBytes = () => Promise.reject(new Error('internal: the run read before it loaded'));
  /** Lock steps whose step records, and the latest step whose evaluation, the page has (a re-run posts neither again). */
  private posted: number;
  private evaled: number;
  /** The snapshots posted and the recovery point (./runSnapshots.ts). */
  private readonly snaps: RunSnapshots;
  /** What the run's parts (snapshots, the step-0 regime check) use of it. */
  private readonly ctx: RunContext;
  constructor(
    private readonly host: RunHost,
    readonly id: number,
    config: ExperimentConfig,
    readonly pref: BackendPreference,
    private readonly setup: RunSetup,
    private readonly resume?: Resume,
  ) {
    this.cfg = config;
    this.total = config.steps;
    this.posted = resume?.step ?? 0;
    this.evaled = resume ? resume.step : -1;
    this.ctx = { id, aborted: () => this.stopped, post: host.post, exclusive: host.exclusive };
    this.snaps = new RunSnapshots(this.ctx, host.keepShare, setup.snapshotEvery, this.total);
    this.done = this.life();
  }

  /** The run's config: the start's, then its session's (live changes included), which a reset starts again. */
  get config(): ExperimentConfig {
    return this.cfg;
  }
  /** The loaded session (null: none). */
  get current(): TrainSession | null {
    return this.session;
  }
  /** Stop at the next check (it finishes the unit of work in progress). */
  stop(): void {
    this.stopped = true;
    this.host.budget.wake();
  }
  /** A live change was applied: the recovery point must carry the new values. */
  liveChanged(): void {
    this.snaps.renewDue();
  }
  /** Free a finished run's session (call within `exclusive`, after the run is done). */
  dropSession(): void {
    this.session?.dispose();
    this.session = null;
  }

  private readonly aborted = () => this.stopped;
  private status(p: TrainPhase, step: number, msg: string, work?: number): void {
    this.phase = p;
    this.host.post({
      type: 'status',
      runId: this.id,
      phase: p,
      step,
      totalSteps: this.total,
      message: msg,
      ...(work === undefined ? {} : { work }),
    });
  }
  private readonly note = (m: string, work?: number) =>
    this.status('loading', this.resume?.step ?? 0, m, work);
  private readonly notice = (m: string) => this.host.post({ type: 'notice', runId: this.id, message: m });
  private readonly onEval = (record: EvalRecord) => this.host.post({ type: 'eval', runId: this.id, record });

  /** The whole life: load, evaluate the base agents (or restore), then step while the budget allows. */
  private async life(): Promise<void> {
    const { host } = this;
    this.host.backends.lost = false;
    /** A finished run stays loaded (as `current`) for the inspector until the next start, reset or close. */
    let kept = false;
    try {
      if (!(await this.load())) return;
      const s0 = this.session!;
      if (this.resume) await this.restore(s0, this.resume);
      else {
        if (!(await host.exclusive(() => s0.evaluate(this.onEval, this.aborted, this.note)))) return;
        this.evaled = 0;
        await runRegimeAtStart(this.ctx, s0, this.setup.regime, this.note);
        if (this.aborted()) return;
        await this.snaps.post(s0, host.budget.running ? 'running' : 'paused'); // step 0: a reload can resume from the base
      }
      if (!(await this.steps())) return;
      const s = this.session!;
      kept = true;
      await this.snaps.post(s, 'done');
      this.status('done', s.step, `Done: ${this.total} steps of ${s.config.methods.join(', ')}.`);
    } catch (e) {
      if (this.aborted()) return;
      this.status('error', this.session?.step ?? 0, message(e));
      host.post({ type: 'error', runId: this.id, message: message(e) });
    } finally {
      if (!kept) {
        const gone = this.session;
        this.session = null;
        await host.exclusive(async () => gone?.dispose()); // after any inspector forward in flight
      }
    }
  }

  /** The backend, the cohort's builds, the pretrained agents, the session. False: stopped meanwhile. */
  private async load(): Promise<boolean> {
    const { host, setup } = this;
    if (setup.taskFile) {
      this.note(`Reading the task file ${setup.taskFile.name}…`);
      registerKept(setup.taskFile); // the page's dropped file, checked again here: the config names its hash
    }
    this.note('Looking for a GPU…');
    const be = await host.backends.get(this.pref, autoShapeOf(this.cfg));
    if (this.aborted()) return false;
    // the agents to pretrain, by axes or of a shipped preset ("Pretrain here"), build side by side in the pool
    const pool = (n: number, rungs?: number) => host.pool.builds(be, setup.workers, n, this.notice, rungs);
    const built = await host.sources.axisBuilds.resolve(be, this.cfg, {
      recipe: setup.pretrain?.recipe,
      aborted: this.aborted,
      note: this.note,
      notice: this.notice,
      shipped: host.sources.shipped, // builds shipped with the app (public/checkpoints/cache)
      pool,
    });
    if (!built || this.aborted()) return false;
    const pretrain = setup.pretrain;
    if (
      pretrain &&
      !(await host.sources.pretrainCache.pretrain(be, built, pretrain, this.aborted, this.note, pool))
    )
      return false;
    // pretrained bytes only stand in when this run pretrains; imported ones whenever the page sent them
    this.read = host.sources.readerFor(!!pretrain);
    const session = await this.open(be, built, this.note);
    this.cfg = session.config;
    return !this.aborted();
  }

  /** Open a session of `config` on `be` (with the pool's model workers), armed with the test hook. */
  private async open(
    be: Backend,
    config: ExperimentConfig,
    note: (m: string) => void,
  ): Promise<TrainSession> {
    const { host, setup } = this;
    const m = poolModels(config);
    const f = await host.pool.factory(be, setup.workers, m, this.notice);
    host.post({ type: 'pool', runId: this.id, workers: f ? Math.min(setup.workers, m) : 1 });
    const s = await TrainSession.open(be, config, this.read, note, f);
    this.session = s;
    const inj = setup.injectNaN;
    const tr = inj && s.trainers.find((t) => t.opts.method === inj.method);
    if (inj && tr) tr.opts.faultInjection = { agent: inj.agent, step: inj.step };
    return s;
  }

  /** Put a saved run back at its snapshot (the page holds it already). */
  private async restore(s0: TrainSession, resume: Resume): Promise<void> {
    this.note(`Restoring the saved run at step ${resume.step}…`);
    const had = { lr: s0.config.train.lr, temperature: s0.config.train.temperature };
    const kept0 = new Uint8Array(resume.snapshot).slice();
    const live = await this.host.exclusive(() => s0.restore(resume.snapshot, resume.step));
    this.snaps.restored(s0.step, kept0);
    const changed = Object.fromEntries(
      Object.entries(live).filter(([k, v]) => had[k as keyof typeof had] !== v),
    );
    if (Object.keys(changed).length) this.host.post({ type: 'live', runId: this.id, params: changed });
  }

  /** Lock steps until the last, pausing while the budget is spent, with the faults. False: stopped. */
  private async steps(): Promise<boolean> {
    const { host } = this;
    const budget = host.budget;
    let pauseNote = '';
    for (let s = this.session!; s.step < this.total; s = this.session!) {
      if (this.aborted()) return false;
      if (host.backends.lost) {
        if (!(await this.recover(s, (await lostReason(host.backends.current)) ?? 'unknown reason')))
          return false;
        continue;
      }
      if (!budget.running) {
        await this.snaps.post(s, 'paused');
        this.status(
          'paused',
          s.step,
          pauseNote || 'Paused: Resume, or Step for one more step of every method.',
        );
        pauseNote = '';
        await budget.wait();
        continue;
      }
      await this.snaps.beforeStep(s); // a live change: the recovery point gets the new values
      budget.take();
      const running = (m: string) => this.status('running', s.step, m);
      const t0 = performance.now();
      try {
        if (!(await this.advance(s, running))) return false;
      } catch (e) {
        if (this.aborted()) return false;
        budget.refund(); // the lock step did not happen
        if (e instanceof TrainingDivergedError) {
          pauseNote = await this.diverged(s, e);
          budget.pause();
          continue;
        }
        const lost = await lostReason(host.backends.current);
        if (lost === null && host.pool.broken) {
          // a model worker died mid-step: new workers, the kept snapshot, the steps after it re-run
          if (!(await this.recover(s, message(e), true))) return false;
          continue;
        }
        if (lost === null) throw e;
        if (!(await this.recover(s, lost))) return false;
        continue;
      }
      await this.snaps.afterStep(s, (performance.now() - t0) / 1000, budget.running ? 'running' : 'paused');
      await budget.pace();
    }
    return true;
  }

  /** One lock step (and its evaluation if due); records the page already has are not posted again. */
  private async advance(s: TrainSession, running: (m: string) => void): Promise<boolean> {
    const { host, id } = this;
    const rs: StepRecord[] = [];
    const postSteps = () =>
      rs.forEach((record) => record.step > this.posted && host.post({ type: 'step', runId: id, record }));
    let ok: boolean;
    try {
      ok = await host.exclusive(() => s.lockStep((r) => rs.push(r), this.aborted, running));
    } catch (e) {
      // a divergence, a lost device or a stopped model worker undoes the lock step: none of it is shown; any other error shows what finished
      if (
        !(e instanceof TrainingDivergedError) &&
        (await lostReason(host.backends.current)) === null &&
        !host.pool.broken
      )
        postSteps();
      throw e;
    }
    if (!ok) return false;
    postSteps();
    this.posted = Math.max(this.posted, s.step);
    if (!s.evalDue) return true;
    const es: EvalRecord[] = [];
    const postEvals = () => s.step > this.evaled && es.forEach(this.onEval);
    try {
      ok = await host.exclusive(() => s.evaluate((r) => es.push(r), this.aborted, running));
    } catch (e) {
      if ((await lostReason(host.backends.current)) === null && !host.pool.broken) postEvals();
      throw e;
    }
    if (!ok) return false;
    postEvals();
    this.evaled = Math.max(this.evaled, s.step);
    return true;
  }

  /** Put `s` back at the kept snapshot and re-run (silently) up to lock step `to`, keeping the live values it has now. */
  private async rollBack(s: TrainSession, to: number, note: (m: string) => void): Promise<boolean> {
    const g = this.snaps.recoveryPoint;
    if (!g || g.step > to) throw new Error(`no snapshot at or before step ${to} was kept to roll back to`);
    const live = { lr: s.config.train.lr, temperature: s.config.train.temperature };
    await this.host.exclusive(() => s.restore(g.bytes.slice(), g.step));
    while (s.step < to) if (!(await this.advance(s, note))) return false;
    s.setLive(live);
    return true;
  }

  /** A NaN/inf in lock step `e.step`: undo the whole lock step for every method, keep what was shown, pause. */
  private async diverged(s: TrainSession, e: TrainingDivergedError): Promise<string> {
    const f = e.step;
    const method = s.trainers.find((t) => t.stepCount < f)?.opts.method ?? 'a method';
    // the diverging trainer put its agents back itself; methods earlier in the lock step finished it: undo theirs
    if (s.trainers.some((t) => t.stepCount >= f))
      await this.rollBack(s, f - 1, (m) => this.status('running', f - 1, m));
    const what = (/^non-finite (.+?) for agent/.exec(e.message)?.[1] ?? 'value').replace(
      / \((.*)\)$/,
      ': $1',
    );
    const msg =
      `Paused: ${method} agent ${e.agent} diverged at step ${f} (${what}). ${e.agent} was rolled back to its state after step ${f - 1}, ` +
      `and so was every other agent (the lock step was not applied); the metrics up to step ${f - 1} are kept. Lower the learning rate, then Resume.`;
    this.host.post({ type: 'fault', runId: this.id, kind: 'diverged', step: s.step, message: msg });
    for (const t of s.trainers) delete t.opts.faultInjection; // the test hook fires once (a transient fault)
    this.setup.injectNaN = undefined;
    return msg;
  }

  /** The device is lost: a new backend, the session opened again, the kept snapshot restored, the steps after it re-run. */
  private async recover(old: TrainSession, reason: string, worker = false): Promise<boolean> {
    const { host, id, posted } = this;
    const what = worker ? `A model worker stopped (${reason})` : `The GPU device was lost (${reason})`;
    const g = this.snaps.recoveryPoint;
    if (!g) throw new Error(`${what} before the run kept a snapshot to reload from; start the run again.`);
    const msg = `${what}. ${worker ? 'Restarting the model workers' : 'Recreating it'} and reloading the agents from step ${g.step}…`;
    host.post({ type: 'fault', runId: id, kind: 'deviceLost', step: g.step, message: msg });
    this.status('loading', posted, msg);
    const live = { lr: old.config.train.lr, temperature: old.config.train.temperature };
    this.session = null;
    await host.exclusive(async () => {
      try {
        old.dispose();
      } catch {
        // its buffers went with the device
      }
    });
    host.backends.discardLost();
    const be = await host.backends.get(this.pref, autoShapeOf(old.config));
    if (this.aborted()) return false;
    const ns = await this.open(be, old.config, (m) => this.status('loading', posted, m));
    if (this.aborted()) return false;
    if (!(await this.rollBack(ns, posted, (m) => this.status('loading', posted, `${msg} ${m}`))))
      return false;
    ns.setLive(live);
    this.snaps.renewDue();
    const done =
      `${what}; recovered: every agent was reloaded from step ${g.step} ${worker ? 'into new model workers' : be.info.name === 'webgpu' ? 'on a new WebGPU device' : `on the ${be.info.name === 'wasm' ? 'WebAssembly SIMD engine' : 'CPU backend'} (WebGPU could not be recreated)`}` +
      (g.step + 1 === ns.step
        ? ` and step ${ns.step} was re-run`
        : g.step < ns.step
          ? ` and steps ${g.step + 1}-${ns.step} were re-run`
          : '') +
      `; training continues from step ${ns.step}, nothing was lost or repeated.`;
    host.post({ type: 'fault', runId: id, kind: 'recovered', step: ns.step, message: done });
    return true;
  }
}
