// The training worker's state machine, free of `self` so Node tests can drive it: one run at a time
// (TrainSession), a step budget for pause / resume / step-once, reset to the base weights, live
// hyperparameters and the speed. The worker (trainWorker.ts) only forwards messages to it.
import type { ReadBytes } from '../cohort/manifest';
import { pretrainPreset } from '../cohort/build';
import type { AgentSpec } from '../cohort/agent';
import { pretrainAgent } from '../cohort/pretrain';
import type { Backend } from '../engine/backend';
import type { BackendPreference, SelectedBackend } from '../engine/select';
import type { ExperimentConfig } from '../rl/config';
import type { EvalRecord } from '../rl/records';
import type { InspectCommand, TrainCommand, TrainEvent, TrainPhase } from './protocol';
import { applyLive, cachedReader, TrainSession } from './trainSession';

/** A saved run to continue (see the 'start' command). */
type Resume = NonNullable<Extract<TrainCommand, { type: 'start' }>['resume']>;

const message = (e: unknown): string => (e instanceof Error ? e.message : String(e));
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export interface ControllerEnv {
  /** Post an event; `transfer` lists ArrayBuffers handed over (snapshot and checkpoint bytes). */
  post(e: TrainEvent, transfer?: Transferable[]): void;
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
  /** Agents of agent-list cohorts pretrained here, by what makes them (recipe, task, family, size, seed, view). */
  private readonly agentCache = new Map<string, Uint8Array>();
  /** Checkpoint bytes the page sent (imported files), by path; they shadow files at those paths. */
  private imported = new Map<string, Uint8Array>();
  /** Starts and resets, one at a time. */
  private queue: Promise<void> = Promise.resolve();
  /** Post a snapshot every this many lock steps (0: only at pause and done). */
  private snapshotEvery = 5;

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
    resume?: Resume,
  ): Promise<void> {
    const aborted = () => id !== this.runId;
    const total = config.steps;
    let session: TrainSession | null = null;
    /** A finished run stays loaded (as `current`) for the inspector until the next start, reset or close. */
    let kept = false;
    const note = (m: string) => this.status(id, 'loading', resume?.step ?? 0, total, m);
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
      if (resume) {
        note(`Restoring the saved run at step ${resume.step}…`);
        const had = { lr: s0.config.train.lr, temperature: s0.config.train.temperature };
        const live = await this.exclusive(() => s0.restore(resume.snapshot, resume.step));
        snapped = s0.step; // the page holds this snapshot already
        const changed = Object.fromEntries(Object.entries(live).filter(([k, v]) => had[k as keyof typeof had] !== v));
        if (Object.keys(changed).length) this.env.post({ type: 'live', runId: id, params: changed });
      } else {
        if (!(await this.exclusive(() => s0.evaluate(onEval, aborted, note)))) return;
        await snap(s0, this.budget > 0 ? 'running' : 'paused'); // step 0: a reload can resume from the base
      }
      while (session.step < total) {
        if (aborted()) return;
        if (this.budget <= 0) {
          await snap(session, 'paused');
          this.status(id, 'paused', session.step, total, 'Paused: Resume, or Step for one more step of every method.');
          await new Promise<void>((r) => (this.wake = r));
          this.wake = null;
          continue;
        }
        this.budget--;
        const s = session;
        const running = (m: string) => this.status(id, 'running', s.step, total, m);
        if (!(await this.exclusive(() => s.lockStep((record) => this.env.post({ type: 'step', runId: id, record }), aborted, running)))) return;
        if (s.evalDue && !(await this.exclusive(() => s.evaluate(onEval, aborted, running)))) return;
        if (this.snapshotEvery > 0 && s.step % this.snapshotEvery === 0 && s.step < total) await snap(s, this.budget > 0 ? 'running' : 'paused');
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
    note: (m: string) => void,
  ): Promise<boolean> {
    const cohort = config.cohort as { preset?: string; agents?: unknown } | undefined;
    if (cohort && Array.isArray(cohort.agents)) return this.pretrainAgents(be, config, opts, aborted, note);
    if (!cohort?.preset) throw new Error('pretraining in the browser needs a preset cohort (cohort: { preset: NAME }) or an agent list');
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

  /**
   * Pretrain the agents of an agent-list cohort whose checkpoint paths `opts.paths` names (default:
   * all) with pretrainAgent in each spec's view, reusing agents this worker already made with the same
   * recipe; their bytes stand in for those paths. False if aborted.
   */
  private async pretrainAgents(
    be: Backend, config: ExperimentConfig, opts: NonNullable<TrainController['lastPretrain']>, aborted: () => boolean,
    note: (m: string) => void,
  ): Promise<boolean> {
    const specs = (config.cohort as { agents: AgentSpec[] }).agents;
    if (!config.task) throw new Error('task: missing (required when the cohort is given as an agent list)');
    const task = config.task;
    const todo = specs.filter((s, i) => s.checkpoint && (!opts.paths || opts.paths.includes(s.checkpoint)) &&
      specs.findIndex((t) => t.checkpoint === s.checkpoint) === i);
    const made = new Map<string, Uint8Array>();
    for (const [i, s] of todo.entries()) {
      const key = JSON.stringify([opts.recipe ?? {}, task, s.family, s.size, s.seed, s.view]);
      let bytes = this.agentCache.get(key);
      if (!bytes) {
        note(`Pretraining agent ${s.id} (${i + 1} of ${todo.length}): ${s.family}.${s.size} seed ${s.seed}, ${s.view} view…`);
        const r = await pretrainAgent(be, s, task, {
          recipe: opts.recipe,
          shouldStop: aborted,
          onProgress: (p) =>
            note(`Pretraining agent ${p.agent} (${i + 1} of ${todo.length}): step ${p.step}/${p.maxSteps}, loss ${p.loss.toFixed(3)}` +
              (p.valAccuracy === undefined ? '' : `, validation accuracy ${(100 * p.valAccuracy).toFixed(0)}%`)),
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
      const bytes = await this.exclusive(() => s.snapshot());
      const seconds = (performance.now() - t0) / 1000;
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
