// One training run inside the worker: the experiment config validated (src/rl/cohortEnv), fresh copies
// of the preset's base agents per method, one CohortTrainer per method, stepped in lock step with the
// same prompts and seeds (as src/rl/experiment.ts does), evaluations at step 0, every `eval.every` and
// the last step. Live hyperparameters mutate the train config every trainer shares.
import type { Agent, ReadBytes } from '../cohort';
import type { Backend } from '../engine/backend';
import { releaseDecoders } from '../model/generate';
import { CohortLoader, validateExperiment } from '../rl/cohortEnv';
import type { ExperimentConfig } from '../rl/config';
import { evalSteps } from '../rl/experiment';
import type { EvalRecord, StepRecord } from '../rl/records';
import { CohortTrainer, type ModelsFactory } from '../rl/trainer';
import { decodeSnapshot, encodeSnapshot } from '../rl/snapshot';
import { saveCheckpoint } from '../model/checkpoint';
import { rlTask } from '../rl/unseenPrompts';
import type { LiveParams } from './protocol';

/** Called between units of work; true abandons the run (a reset or a new start arrived). */
export type Aborted = () => boolean;

/** A ReadBytes that reads each path once (checkpoints are re-read on every reset). */
export function cachedReader(read: ReadBytes): ReadBytes {
  const cache = new Map<string, Promise<Uint8Array>>();
  return (path) => {
    let p = cache.get(path);
    if (!p) {
      p = read(path);
      cache.set(path, p);
      p.catch(() => cache.delete(path)); // a failed read is retried next time
    }
    return p;
  };
}

/** Apply valid live values to a train config in place; returns what was applied. */
export function applyLive(train: ExperimentConfig['train'], p: LiveParams): LiveParams {
  const out: LiveParams = {};
  if (p.lr !== undefined && Number.isFinite(p.lr) && p.lr > 0 && p.lr <= 1) out.lr = train.lr = p.lr;
  if (
    p.temperature !== undefined &&
    Number.isFinite(p.temperature) &&
    p.temperature > 0 &&
    p.temperature <= 10
  )
    out.temperature = train.temperature = p.temperature;
  return out;
}

export class TrainSession {
  /** Lock steps every method has completed. */
  step = 0;
  readonly trainers: CohortTrainer[] = [];
  private readonly agentSets: Agent[][] = [];
  private readonly evalAt: Set<number>;
  /** The models train in a pool of workers (src/rl/pool): the methods of a lock step run side by side. */
  private pooled = false;

  private constructor(
    readonly backend: Backend,
    readonly config: ExperimentConfig,
  ) {
    this.evalAt = new Set(evalSteps(config.steps, config.eval.every));
  }

  /**
   * Validate `raw` (every problem listed in one error), then load one fresh copy of the base agents per
   * method through `read`. `note` receives progress lines.
   */
  static async open(
    backend: Backend,
    raw: ExperimentConfig,
    read: ReadBytes,
    note: (m: string) => void,
    models?: ModelsFactory,
  ): Promise<TrainSession> {
    note('Checking the config and the base checkpoints…');
    const v = await validateExperiment(raw, read);
    if (!v.ok) throw new Error(`invalid run config:\n- ${v.errors.join('\n- ')}`);
    const s = new TrainSession(backend, v.config);
    const task = rlTask(v.config);
    const loader = new CohortLoader(read, v.specs);
    const { methods, seed, train } = v.config;
    try {
      for (const [i, method] of methods.entries()) {
        note(`Loading the base checkpoints for ${method} (${i + 1}/${methods.length})…`);
        const agents = await loader.load(backend);
        s.agentSets.push(agents);
        // one shared `train` object: a live change reaches every trainer at its next step
        s.trainers.push(
          new CohortTrainer(backend, agents, { method, seed, task, train, eval: v.config.eval }, models),
        );
        s.pooled = models !== undefined;
      }
    } catch (e) {
      s.dispose();
      throw e;
    }
    return s;
  }

  /** Agent ids of the cohort. */
  get agentIds(): string[] {
    return this.agentSets[0]?.map((a) => a.spec.id) ?? [];
  }

  /** True when the run evaluates after the current step (step 0 included). */
  get evalDue(): boolean {
    return this.evalAt.has(this.step);
  }

  /**
   * Evaluate every method now; at step 0 the base agents are evaluated once and shared. The records go
   * to `onEval` together at the end (one page update), also when a method fails. False if aborted.
   */
  async evaluate(
    onEval: (r: EvalRecord) => void,
    aborted: Aborted,
    note: (m: string) => void,
  ): Promise<boolean> {
    const out: EvalRecord[] = [];
    const base = this.step === 0;
    try {
      for (const tr of this.trainers) {
        if (aborted()) return false;
        note(
          `Evaluating ${tr.opts.method} on ${this.config.eval.problems} held-out problems (step ${this.step})…`,
        );
        // the base evaluation shows before its portrait samples are drawn (the first chart point sooner)
        const r: EvalRecord =
          base && out.length
            ? { ...structuredClone(out[0]), method: tr.opts.method }
            : await tr.evaluate(!base);
        out.push(r);
      }
    } finally {
      if (!aborted()) out.forEach(onEval);
    }
    if (!base || !(this.config.eval.portraitSamples > 0) || aborted()) return !aborted();
    note(
      `Live portrait: ${this.config.eval.portraitSamples} samples per agent and held-out problem (step 0)…`,
    );
    const first = await this.trainers[0].addPortrait(out[0]);
    if (aborted()) return false;
    // the same evaluation again, now with the counts: the page replaces the record it has (metricsSlice)
    out.forEach((r) =>
      onEval({
        ...r,
        agents: first.agents.map((a) => ({ ...a })),
        portraitSamples: first.portraitSamples,
        seconds: first.seconds,
      }),
    );
    return true;
  }

  /**
   * One training step of every method, in order. The records go to `onStep` together at the end of the
   * lock step (one page update), also when a method fails (e.g. a NaN). False if aborted in between.
   */
  async lockStep(
    onStep: (r: StepRecord) => void,
    aborted: Aborted,
    note: (m: string) => void,
  ): Promise<boolean> {
    const out: StepRecord[] = [];
    try {
      if (this.pooled) {
        if (aborted()) return false;
        note(`Step ${this.step + 1}: every method samples, votes, rewards and updates in the model workers…`);
        // side by side; the records (and the first failure) in method order, as one after another
        const settled = await Promise.allSettled(this.trainers.map((tr) => tr.step()));
        for (const x of settled) {
          if (x.status === 'rejected') throw x.reason;
          out.push(x.value);
        }
      } else
        for (const tr of this.trainers) {
          if (aborted()) return false;
          note(`Step ${this.step + 1}: ${tr.opts.method} samples, votes, rewards and updates…`);
          out.push(await tr.step());
        }
    } finally {
      if (!aborted()) out.forEach(onStep);
    }
    this.step++;
    return true;
  }

  /**
   * Every method's trainer state after `step` lock steps as bytes (src/rl/snapshot.ts), with the live
   * learning rate and temperature. Call between lock steps.
   */
  async snapshot(): Promise<Uint8Array> {
    const trainers = [];
    for (const tr of this.trainers) trainers.push(await tr.snapshot());
    const { lr, temperature } = this.config.train;
    return encodeSnapshot({ step: this.step, trainers, extra: { lr, temperature } });
  }

  /**
   * Continue from snapshot bytes taken by `snapshot` of a run of the same config: every method's
   * trainer is checked before any is written (a refusal leaves the session at step 0, untouched), then
   * the step counter and the live values the snapshot ran with are restored (returned as applied).
   */
  async restore(bytes: Uint8Array | ArrayBuffer, expectStep?: number): Promise<LiveParams> {
    const b = decodeSnapshot(bytes);
    const mine = this.trainers.map((t) => t.opts.method);
    const theirs = b.trainers.map((t) => t.method);
    const refuse = (why: string): never => {
      throw new Error(`cannot resume from the saved snapshot: ${why}`);
    };
    if (expectStep !== undefined && b.step !== expectStep)
      refuse(`it holds step ${b.step}, the saved run says step ${expectStep}`);
    if (b.step > this.config.steps)
      refuse(`it holds step ${b.step}, beyond this run's ${this.config.steps} steps`);
    if (mine.join() !== theirs.join())
      refuse(`it holds methods [${theirs.join(', ')}], this run trains [${mine.join(', ')}]`);
    for (const t of b.trainers)
      if (t.step !== b.step) refuse(`method ${t.method} is at step ${t.step}, the lock step is ${b.step}`);
    // check every method before writing any
    for (const [i, tr] of this.trainers.entries()) await tr.checkSnapshot(b.trainers[i]);
    for (const [i, tr] of this.trainers.entries()) await tr.restore(b.trainers[i]);
    this.step = b.step;
    const live: LiveParams = {};
    if (typeof b.extra.lr === 'number') live.lr = b.extra.lr;
    if (typeof b.extra.temperature === 'number') live.temperature = b.extra.temperature;
    return applyLive(this.config.train, live);
  }

  /**
   * Every method's agents as checkpoint files (src/model/checkpoint.ts) with meta saying the method,
   * the lock step, the agent's spec and the base it came from. Call between lock steps.
   */
  async exportCheckpoints(): Promise<{ method: string; agent: string; name: string; bytes: Uint8Array }[]> {
    const out: { method: string; agent: string; name: string; bytes: Uint8Array }[] = [];
    const created = new Date().toISOString();
    for (const tr of this.trainers) {
      const method = tr.opts.method;
      await tr.syncAgents(); // the models' parameters, where a pool trains them
      for (const a of tr.agents) {
        const meta = {
          format: 'co-rl-trained-agent',
          method,
          step: this.step,
          seed: this.config.seed,
          run: this.config.name,
          agent: { ...a.spec },
          base: a.base ?? null,
          created,
        };
        const bytes = await saveCheckpoint(a.model, meta);
        const safe = (x: string) => x.replace(/[^\w.-]+/g, '_');
        out.push({
          method,
          agent: a.spec.id,
          name: `${safe(method)}-${safe(a.spec.id)}-step${this.step}.ckpt`,
          bytes,
        });
      }
    }
    return out;
  }

  /** Change the learning rate and/or temperature for the following steps. */
  setLive(p: LiveParams): LiveParams {
    return applyLive(this.config.train, p);
  }

  /** Free every GPU buffer the run holds (trainers' references, the agents' models). */
  dispose(): void {
    for (const tr of this.trainers) tr.dispose();
    for (const set of this.agentSets)
      for (const a of set) {
        releaseDecoders(a.model);
        a.model.free();
      }
    this.trainers.length = 0;
    this.agentSets.length = 0;
  }
}
