// The training worker's state machine, free of `self` so Node tests can drive it: one run at a time
// (TrainSession), a step budget for pause / resume / step-once, reset to the base weights, live
// hyperparameters and the speed. The worker (trainWorker.ts) only forwards messages to it.
import type { ReadBytes } from '../cohort/manifest';
import { pretrainPreset } from '../cohort/build';
import { presetAgentSpecs } from '../cohort/presets';
import type { AgentSpec } from '../cohort/agent';
import { pretrainAgent } from '../cohort/pretrain';
import type { Backend } from '../engine/backend';
import type { BackendPreference, SelectedBackend } from '../engine/select';
import type { ExperimentConfig } from '../rl/config';
import type { EvalRecord, StepRecord } from '../rl/records';
import { TrainingDivergedError } from '../rl/trainer';
import type { InspectCommand, TrainCommand, TrainEvent, TrainPhase } from './protocol';
import { applyLive, cachedReader, TrainSession } from './trainSession';

/** A saved run to continue (see the 'start' command). */
type Resume = NonNullable<Extract<TrainCommand, { type: 'start' }>['resume']>;

const message = (e: unknown): string => (e instanceof Error ? e.message : String(e));
/** A running maximum: pretraining reports its chosen (earlier) step last, and a progress bar never goes back. */
const rising = (): ((x: number) => number) => {
  let m = 0;
  return (x) => (m = Math.max(m, x));
};
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** What a backend says about its device (WebGpuBackend: `lost` from device.lost; tests fake one on the CPU). */
type Losable = { lost?: { reason: string; message: string } | null; device?: { destroy(): void; lost?: Promise<{ reason: string; message: string }> } };
/** In-memory snapshots are kept after every lock step while one costs less than this share of a lock step. */
const KEEP_SHARE = 0.1;
/** A dev build (Vite) honours the test hooks without the start command's `debug`. */
const DEV = typeof import.meta.env === 'object' && import.meta.env?.DEV === true;

export interface ControllerEnv {
  /** Post an event; `transfer` lists ArrayBuffers handed over (snapshot and checkpoint bytes). */
  post(e: TrainEvent, transfer?: Transferable[]): void;
  /** A ReadBytes for checkpoints relative to `baseUrl` (undefined: the default place). */
  reader(baseUrl?: string): ReadBytes;
  selectBackend(pref: BackendPreference): Promise<SelectedBackend>;
  /** Keep the in-memory recovery snapshot after every lock step while it costs at most this share of one
   * (default KEEP_SHARE; tests set 0 to keep only every `snapshotEvery` steps and exercise the re-run). */
  keepShare?: number;
}

export class TrainController {
  private backend: Backend | null = null;
  /** The preference the backend was made for ('auto' after an explicit 'cpu' must look for a GPU again). */
  private backendPref: BackendPreference = 'auto';
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
  /** Agents of agent-list cohorts pretrained here, by what makes them (recipe, task, family, size, seed, view). */
  private readonly agentCache = new Map<string, Uint8Array>();
  /** Checkpoint bytes the page sent (imported files), by path; they shadow files at those paths. */
  private imported = new Map<string, Uint8Array>();
  /** Starts and resets, one at a time. */
  private queue: Promise<void> = Promise.resolve();
  /** Post a snapshot every this many lock steps (0: only at pause and done). */
  private snapshotEvery = 5;
  /**
   * Faults (docs/architecture.md "Faults"): the latest snapshot of the current run kept in memory, the
   * point a divergence rolls back to and a lost device reloads from. Kept after every lock step while
   * taking it costs under KEEP_SHARE of a lock step (as measured on the run's backend), else at
   * least every `snapshotEvery` (or 5) steps; the steps after it are re-run silently (records the page has are not posted again).
   */
  private good: { runId: number; step: number; bytes: Uint8Array } | null = null;
  /** A live change since `good`: keep a new one before the next lock step (so a re-run uses the same values). */
  private keepDue = false;
  /** The start command's test hooks (see TrainCommand 'start' `debug`). */
  private debug = false;
  private injectNaN: Extract<TrainCommand, { type: 'start' }>['injectNaN'];
  /** The current backend's device was lost (device.lost settled): the loop recovers at its next check. */
  private lostFlag = false;

  constructor(private readonly env: ControllerEnv) {
    this.read = cachedReader(env.reader());
  }

  private status(id: number, p: TrainPhase, step: number, total: number, msg: string, work?: number): void {
    this.phase = p;
    this.env.post({ type: 'status', runId: id, phase: p, step, totalSteps: total, message: msg, ...(work === undefined ? {} : { work }) });
  }

  /** Whether the backend made for `made` serves a run that asks for `want`. */
  static reuses(made: BackendPreference, name: string, want: BackendPreference): boolean {
    return want === 'auto' ? made !== 'cpu' && made !== 'wasm' : name === want;
  }

  private async getBackend(pref: BackendPreference): Promise<Backend> {
    if (this.backend && TrainController.reuses(this.backendPref, this.backend.info.name, pref)) return this.backend;
    this.backend?.destroy();
    this.backend = null;
    const { backend, fallbackReason } = await this.env.selectBackend(pref);
    this.backend = backend;
    this.backendPref = pref;
    this.lostFlag = false;
    // a device lost while the loop waits (paused) wakes it to recover; our own destroy() drops the backend first
    void (backend as Losable).device?.lost?.then(() => {
      if (this.backend !== backend) return;
      this.lostFlag = true;
      this.wake?.();
    });
    this.env.post({ type: 'engine', backend: backend.info.name, adapter: backend.info.adapter, fallbackReason });
    return backend;
  }

  /** The whole life of one run: load, evaluate the base agents, then step while the budget allows. */
  private async run(
    id: number, config: ExperimentConfig, pref: BackendPreference, pretrain: TrainController['lastPretrain'],
    resume?: Resume,
  ): Promise<void> {
    const aborted = () => id !== this.runId;
    const total = config.steps;
    this.good = null;
    this.keepDue = false;
    this.lostFlag = false;
    let session: TrainSession | null = null;
    /** A finished run stays loaded (as `current`) for the inspector until the next start, reset or close. */
    let kept = false;
    const note = (m: string, work?: number) => this.status(id, 'loading', resume?.step ?? 0, total, m, work);
    /** The step of the latest snapshot posted (none yet: -1). */
    let snapped = -1;
    const snap = async (s: TrainSession, phase: 'running' | 'paused' | 'done') => {
      if (snapped === s.step || aborted()) return;
      snapped = s.step;
      await this.postSnapshot(id, s, phase);
    };
    try {
      note('Looking for a GPU…');
      const be = await this.getBackend(pref);
      if (aborted()) return;
      if (pretrain && !(await this.pretrainCohort(be, config, pretrain, aborted, note))) return;
      const shipped = this.read;
      const read: ReadBytes = (path) => {
        // pretrained bytes only stand in when this run pretrains; imported ones whenever the page sent them
        const own = (pretrain ? this.pretrained.get(path) : undefined) ?? this.imported.get(path);
        return own ? Promise.resolve(own) : shipped(path);
      };
      session = await TrainSession.open(be, config, read, note);
      this.current = session;
      this.lastConfig = session.config;
      if (aborted()) return;
      const onEval = (record: EvalRecord) => this.env.post({ type: 'eval', runId: id, record });
      const s0 = session;
      this.arm(s0);
      /** Lock steps whose step records, and the latest step whose evaluation, the page has (a re-run posts neither again). */
      let posted = resume?.step ?? 0;
      let evaled = resume ? resume.step : -1;
      if (resume) {
        note(`Restoring the saved run at step ${resume.step}…`);
        const had = { lr: s0.config.train.lr, temperature: s0.config.train.temperature };
        const kept0 = new Uint8Array(resume.snapshot).slice();
        const live = await this.exclusive(() => s0.restore(resume.snapshot, resume.step));
        this.good = { runId: id, step: s0.step, bytes: kept0 };
        snapped = s0.step; // the page holds this snapshot already
        const changed = Object.fromEntries(Object.entries(live).filter(([k, v]) => had[k as keyof typeof had] !== v));
        if (Object.keys(changed).length) this.env.post({ type: 'live', runId: id, params: changed });
      } else {
        if (!(await this.exclusive(() => s0.evaluate(onEval, aborted, note)))) return;
        evaled = 0;
        await snap(s0, this.budget > 0 ? 'running' : 'paused'); // step 0: a reload can resume from the base
      }
      // ---- faults (docs/architecture.md "Faults") ----
      /** Seconds the latest in-memory snapshot took, and the latest lock step (with its evaluation). */
      let keepCost = 0;
      let stepCost = Infinity;
      const keep = async (s: TrainSession) => {
        if (!this.keepDue && this.good?.runId === id && this.good.step === s.step) return;
        this.keepDue = false;
        const t0 = performance.now();
        try {
          const bytes = await this.exclusive(() => s.snapshot());
          if (!aborted()) this.good = { runId: id, step: s.step, bytes };
        } catch {
          this.keepDue = true; // the older snapshot stays the recovery point; try again after the next step
        }
        keepCost = (performance.now() - t0) / 1000;
      };
      /** One lock step (and its evaluation if due); records the page already has are not posted again. */
      const advance = async (s: TrainSession, running: (m: string) => void): Promise<boolean> => {
        const rs: StepRecord[] = [];
        const postSteps = () => rs.forEach((record) => record.step > posted && this.env.post({ type: 'step', runId: id, record }));
        let ok: boolean;
        try {
          ok = await this.exclusive(() => s.lockStep((r) => rs.push(r), aborted, running));
        } catch (e) {
          // a divergence or a lost device undoes the lock step: none of it is shown; any other error shows what finished
          if (!(e instanceof TrainingDivergedError) && (await this.lostReason()) === null) postSteps();
          throw e;
        }
        if (!ok) return false;
        postSteps();
        posted = Math.max(posted, s.step);
        if (!s.evalDue) return true;
        const es: EvalRecord[] = [];
        const postEvals = () => s.step > evaled && es.forEach(onEval);
        try {
          ok = await this.exclusive(() => s.evaluate((r) => es.push(r), aborted, running));
        } catch (e) {
          if ((await this.lostReason()) === null) postEvals();
          throw e;
        }
        if (!ok) return false;
        postEvals();
        evaled = Math.max(evaled, s.step);
        return true;
      };
      /** Put `s` back at the kept snapshot and re-run (silently) up to lock step `to`, keeping the live values it has now. */
      const rollBack = async (s: TrainSession, to: number, note2: (m: string) => void): Promise<boolean> => {
        const g = this.good;
        if (!g || g.runId !== id || g.step > to) throw new Error(`no snapshot at or before step ${to} was kept to roll back to`);
        const live = { lr: s.config.train.lr, temperature: s.config.train.temperature };
        await this.exclusive(() => s.restore(g.bytes.slice(), g.step));
        while (s.step < to) if (!(await advance(s, note2))) return false;
        s.setLive(live);
        return true;
      };
      /** A NaN/inf in lock step `e.step`: undo the whole lock step for every method, keep what was shown, pause. */
      const diverged = async (s: TrainSession, e: TrainingDivergedError): Promise<string> => {
        const f = e.step;
        const method = s.trainers.find((t) => t.stepCount < f)?.opts.method ?? 'a method';
        // the diverging trainer put its agents back itself; methods earlier in the lock step finished it: undo theirs
        if (s.trainers.some((t) => t.stepCount >= f)) await rollBack(s, f - 1, (m) => this.status(id, 'running', f - 1, total, m));
        const what = (/^non-finite (.+?) for agent/.exec(e.message)?.[1] ?? 'value').replace(/ \((.*)\)$/, ': $1');
        const msg = `Paused: ${method} agent ${e.agent} diverged at step ${f} (${what}). ${e.agent} was rolled back to its state after step ${f - 1}, ` +
          `and so was every other agent (the lock step was not applied); the metrics up to step ${f - 1} are kept. Lower the learning rate, then Resume.`;
        this.env.post({ type: 'fault', runId: id, kind: 'diverged', step: s.step, message: msg });
        for (const t of s.trainers) delete t.opts.faultInjection; // the test hook fires once (a transient fault)
        this.injectNaN = undefined;
        return msg;
      };
      /** The device is lost: a new backend, the session opened again, the kept snapshot restored, the steps after it re-run. */
      const recover = async (old: TrainSession, reason: string): Promise<boolean> => {
        const g = this.good;
        if (!g || g.runId !== id) throw new Error(`The GPU device was lost (${reason}) before the run kept a snapshot to reload from; start the run again.`);
        const msg = `The GPU device was lost (${reason}). Recreating it and reloading the agents from step ${g.step}…`;
        this.env.post({ type: 'fault', runId: id, kind: 'deviceLost', step: g.step, message: msg });
        this.status(id, 'loading', posted, total, msg);
        const live = { lr: old.config.train.lr, temperature: old.config.train.temperature };
        if (this.current === old) this.current = null;
        session = null;
        await this.exclusive(async () => {
          try {
            old.dispose();
          } catch {
            // its buffers went with the device
          }
        });
        const dead = this.backend;
        this.backend = null;
        try {
          dead?.destroy();
        } catch {
          // already gone
        }
        const be = await this.getBackend(pref);
        if (aborted()) return false;
        const ns = await TrainSession.open(be, old.config, read, (m) => this.status(id, 'loading', posted, total, m));
        session = ns;
        this.current = ns;
        this.arm(ns);
        if (aborted()) return false;
        if (!(await rollBack(ns, posted, (m) => this.status(id, 'loading', posted, total, `${msg} ${m}`)))) return false;
        ns.setLive(live);
        this.keepDue = true;
        const done = `The GPU device was lost (${reason}); recovered: every agent was reloaded from step ${g.step} ${be.info.name === 'webgpu' ? 'on a new WebGPU device' : `on the ${be.info.name === 'wasm' ? 'WebAssembly SIMD engine' : 'CPU backend'} (WebGPU could not be recreated)`}` +
          (g.step + 1 === ns.step ? ` and step ${ns.step} was re-run` : g.step < ns.step ? ` and steps ${g.step + 1}-${ns.step} were re-run` : '') + `; training continues from step ${ns.step}, nothing was lost or repeated.`;
        this.env.post({ type: 'fault', runId: id, kind: 'recovered', step: ns.step, message: done });
        return true;
      };
      let pauseNote = '';
      while (session.step < total) {
        if (aborted()) return;
        if (this.lostFlag) {
          if (!(await recover(session, (await this.lostReason()) ?? 'unknown reason'))) return;
          continue;
        }
        if (this.budget <= 0) {
          await snap(session, 'paused');
          this.status(id, 'paused', session.step, total, pauseNote || 'Paused: Resume, or Step for one more step of every method.');
          pauseNote = '';
          await new Promise<void>((r) => (this.wake = r));
          this.wake = null;
          continue;
        }
        const s = session;
        if (this.keepDue) await keep(s); // a live change: the recovery point gets the new values
        this.budget--;
        const running = (m: string) => this.status(id, 'running', s.step, total, m);
        const t0 = performance.now();
        try {
          if (!(await advance(s, running))) return;
        } catch (e) {
          if (aborted()) return;
          this.budget++; // the lock step did not happen
          if (e instanceof TrainingDivergedError) {
            pauseNote = await diverged(s, e);
            this.budget = 0;
            continue;
          }
          const lost = await this.lostReason();
          if (lost === null) throw e;
          if (!(await recover(s, lost))) return;
          continue;
        }
        stepCost = (performance.now() - t0) / 1000;
        if (this.snapshotEvery > 0 && s.step % this.snapshotEvery === 0 && s.step < total) await snap(s, this.budget > 0 ? 'running' : 'paused');
        else if (s.step < total && (keepCost < (this.env.keepShare ?? KEEP_SHARE) * stepCost || s.step - (this.good?.step ?? 0) >= (this.snapshotEvery || 5))) await keep(s);
        // yield to the message queue between lock steps (pause, live changes), and apply the speed delay
        await sleep(this.budget > 0 ? this.delayMs : 0);
      }
      kept = true;
      await snap(session, 'done');
      this.status(id, 'done', session.step, total, `Done: ${total} steps of ${session.config.methods.join(', ')}.`);
    } catch (e) {
      if (aborted()) return;
      this.status(id, 'error', session?.step ?? 0, total, message(e));
      this.env.post({ type: 'error', runId: id, message: message(e) });
    } finally {
      if (!kept) {
        if (this.current === session) this.current = null;
        const gone = session;
        await this.exclusive(async () => gone?.dispose()); // after any inspector forward in flight
      }
    }
  }

  /** Apply the start command's test hook `injectNaN` (with `debug` only) to a freshly opened session. */
  private arm(s: TrainSession): void {
    const inj = this.debug ? this.injectNaN : undefined;
    if (!inj) return;
    const tr = s.trainers.find((t) => t.opts.method === inj.method);
    if (tr) tr.opts.faultInjection = { agent: inj.agent, step: inj.step };
  }

  /**
   * Why the current backend's device is gone ("destroyed: …"), or null if it is not. An error from a lost
   * device can come a moment before device.lost settles: wait for it briefly.
   */
  private async lostReason(): Promise<string | null> {
    const l = this.backend as Losable | null;
    if (!l) return null;
    const show = (i: { reason: string; message: string }) => `${i.reason}${i.message ? `: ${i.message.replace(/\.$/, '')}` : ''}`;
    if (l.lost) return show(l.lost);
    const p = l.device?.lost;
    if (!p) return null;
    const info = await Promise.race([p, sleep(300).then(() => null)]);
    return info ? show(info) : null;
  }

  /** Stop the current run's loop (it finishes the unit of work in progress), then start a new run. */
  private begin(config: ExperimentConfig, pref: BackendPreference, paused: boolean, resume?: Resume): Promise<void> {
    this.queue = this.queue.then(async () => {
      const id = ++this.runId;
      this.wake?.();
      await this.loop;
      await this.dropFinished();
      this.budget = paused ? 0 : Infinity;
      this.lastConfig = config;
      this.lastPref = pref;
      this.env.post(resume ? { type: 'run', runId: id, config, resumeFrom: resume.step } : { type: 'run', runId: id, config });
      this.loop = this.run(id, config, pref, this.lastPretrain, resume);
    });
    return this.queue;
  }

  /**
   * Pretrain the base agents of the run's preset on `be` (deterministic for the preset seed), unless
   * this worker already has them; a reset reuses them. False if aborted.
   */
  private async pretrainCohort(
    be: Backend, config: ExperimentConfig, opts: NonNullable<TrainController['lastPretrain']>, aborted: () => boolean,
    note: (m: string, work?: number) => void,
  ): Promise<boolean> {
    const cohort = config.cohort as { preset?: string; agents?: unknown } | undefined;
    if (cohort && Array.isArray(cohort.agents)) return this.pretrainAgents(be, config, opts, aborted, note);
    if (!cohort?.preset) throw new Error('pretraining in the browser needs a preset cohort (cohort: { preset: NAME }) or an agent list');
    const key = `${cohort.preset}|${JSON.stringify(opts.recipe ?? {})}`;
    if (key === this.pretrainedKey) return true;
    const ids = presetAgentSpecs(cohort.preset).map((s) => s.id);
    const done = rising();
    const built = await pretrainPreset(be, cohort.preset, {
      recipe: opts.recipe,
      shouldStop: aborted,
      onProgress: (p) =>
        note(`Pretraining agent ${p.agent}: step ${p.step}/${p.maxSteps}, loss ${p.loss.toFixed(3)}` +
          (p.valAccuracy === undefined ? '' : `, validation accuracy ${(100 * p.valAccuracy).toFixed(0)}%`),
        done((Math.max(0, ids.indexOf(p.agent)) + p.step / p.maxSteps) / ids.length)),
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
    be: Backend, config: ExperimentConfig, opts: NonNullable<TrainController['lastPretrain']>, aborted: () => boolean,
    note: (m: string, work?: number) => void,
  ): Promise<boolean> {
    const specs = (config.cohort as { agents: AgentSpec[] }).agents;
    if (!config.task) throw new Error('task: missing (required when the cohort is given as an agent list)');
    const task = config.task;
    const todo = specs.filter((s, i) => s.checkpoint && (!opts.paths || opts.paths.includes(s.checkpoint)) &&
      specs.findIndex((t) => t.checkpoint === s.checkpoint) === i);
    const made = new Map<string, Uint8Array>();
    const done = rising();
    for (const [i, s] of todo.entries()) {
      const key = JSON.stringify([opts.recipe ?? {}, task, s.family, s.size, s.seed, s.view]);
      let bytes = this.agentCache.get(key);
      if (!bytes) {
        note(`Pretraining agent ${s.id} (${i + 1} of ${todo.length}): ${s.family}.${s.size} seed ${s.seed}, ${s.view} view…`, done(i / todo.length));
        const r = await pretrainAgent(be, s, task, {
          recipe: opts.recipe,
          shouldStop: aborted,
          onProgress: (p) =>
            note(`Pretraining agent ${p.agent} (${i + 1} of ${todo.length}): step ${p.step}/${p.maxSteps}, loss ${p.loss.toFixed(3)}` +
              (p.valAccuracy === undefined ? '' : `, validation accuracy ${(100 * p.valAccuracy).toFixed(0)}%`),
            done((i + p.step / p.maxSteps) / todo.length)),
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
        this.imported = new Map(Object.entries(cmd.checkpoints ?? {}).map(([p, b]) => [p, new Uint8Array(b)]));
        this.snapshotEvery = Math.max(0, Math.floor(cmd.snapshotEvery ?? 5));
        this.debug = cmd.debug === true;
        this.injectNaN = cmd.injectNaN;
        return this.begin(structuredClone(cmd.config), cmd.backend, cmd.paused ?? false, cmd.resume);
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
      case 'debugLoseDevice': {
        const dev = (this.backend as Losable | null)?.device;
        const ignored = !(this.debug || DEV)
          ? 'debugLoseDevice is a test hook: it is honoured only when the run was started with debug: true, or in a dev build'
          : !dev ? 'debugLoseDevice: there is no GPU device to lose (the run is on the CPU backend)' : '';
        if (ignored) this.env.post({ type: 'fault', runId: this.runId, kind: 'ignored', step: this.current?.step ?? 0, message: ignored });
        else dev!.destroy();
        break;
      }
    }
    return Promise.resolve();
  }

  /** Work on the loaded session, one unit at a time: lock steps, evaluations, the inspector's forwards. */
  private busy: Promise<unknown> = Promise.resolve();
  private exclusive<T>(work: () => Promise<T>): Promise<T> {
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
    return this.exclusive(async () => {
      const id = this.runId; // the run loaded now (a new one may have begun while this waited)
      try {
        const session = this.current;
        const methods = session?.config.methods ?? [];
        const tr = session?.trainers.find((t) => t.opts.method === cmd.method);
        if (session && !tr) throw new Error(`method ${JSON.stringify(cmd.method)} is not in this run; its methods: ${methods.join(', ')}`);
        if (cmd.type === 'inspect') {
          this.env.post({ type: 'inspection', runId: id, method: cmd.method, inspection: tr?.latestInspection ?? null });
          return;
        }
        if (!tr) throw new Error('no run is loaded: start a run first');
        const a = await tr.attention(cmd.agent, cmd.prompt, cmd.sample, cmd.layer);
        const { method, agent, prompt, sample, layer } = cmd;
        this.env.post({ type: 'attention', runId: id, method, agent, prompt, sample, layer, ...a });
      } catch (e) {
        this.env.post({ type: 'inspectError', runId: id, request: cmd, message: message(e) });
      }
    });
  }

  /** Post every method's trainer state (between lock steps); a failure is reported, training goes on. */
  private async postSnapshot(id: number, s: TrainSession, phase: 'running' | 'paused' | 'done'): Promise<void> {
    try {
      const t0 = performance.now();
      this.keepDue = false;
      const bytes = await this.exclusive(() => s.snapshot());
      const seconds = (performance.now() - t0) / 1000;
      if (id === this.runId) this.good = { runId: id, step: s.step, bytes: bytes.slice() }; // the recovery point (faults)
      const buf = bytes.buffer as ArrayBuffer;
      if (id === this.runId) this.env.post({ type: 'snapshot', runId: id, step: s.step, phase, bytes: buf, seconds }, [buf]);
    } catch (e) {
      this.env.post({ type: 'snapshotError', runId: id, step: s.step, message: `could not take a snapshot at step ${s.step}: ${message(e)}` });
    }
  }

  /** Every method's agents as checkpoint files, between lock steps. Never throws. */
  private exportCheckpoints(): Promise<void> {
    const id = this.runId;
    return this.exclusive(async () => {
      const s = this.current;
      if (!s || id !== this.runId) {
        this.env.post({ type: 'checkpoints', runId: id, step: 0, files: [], message: 'no run is loaded: start a run first' });
        return;
      }
      try {
        const made = await s.exportCheckpoints();
        const files = made.map((f) => ({ method: f.method, agent: f.agent, name: f.name, bytes: f.bytes.buffer as ArrayBuffer }));
        this.env.post({ type: 'checkpoints', runId: id, step: s.step, files, message: '' }, files.map((f) => f.bytes));
      } catch (e) {
        this.env.post({ type: 'checkpoints', runId: id, step: s.step, files: [], message: `could not export the checkpoints: ${message(e)}` });
      }
    });
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
  }
}
