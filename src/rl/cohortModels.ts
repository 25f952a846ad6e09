// The models of one cohort trainer, wherever they live (docs/architecture-runtime.md, "The cohort in parallel"):
// the per-model work of a lock step (decoding with each model's own seed, the policy forward with its
// frozen base copy, the policy update and its rollback, the state a snapshot holds) behind one interface,
// so the trainer (the coordinator: prompts, answers, votes, rewards, metrics) is the same whether the models
// are on its own backend (LocalModels, here) or spread over a pool of workers (src/rl/pool). Everything
// crossing it is plain data: prompt ids, tokens, per-token figures, rewards, update figures. Every model
// draws only from its own seed stream, so no number depends on where or in which order models run.
import { resolvePending, type Backend } from '../engine/backend';
import type { GenerateResult } from '../model/generate';
import { releaseDecoders } from '../model/generate';
import { GPT } from '../model/gpt';
import type { TrainConfig } from './config';
import { releasePolicyBuffers, startPolicyForward, type PolicyRows, type TokenFigures } from './policy';
import { PolicyUpdate, type UpdateFault, type UpdateOutcome } from './policyUpdate';
import { generateAll, type GenerateJob } from './rollout';
import { fingerprint } from './snapshot';

/** What the policy forward of a step computes besides log-probs. */
export interface ForwardPlan {
  /** Also forward the frozen base copies (their log-probs are the KL reference of the update). */
  kl: boolean;
  /** Self-certainty figures (Intuitor's reward). */
  certainty: boolean;
}

/** One model's state as a snapshot holds it (copies). */
export interface ModelState {
  params: Float32Array;
  m: Float32Array;
  v: Float32Array;
  optSteps: number;
}

/** The N models of one trainer (model n = agent n; frozen copy n = agent n's base, never updated). */
export interface CohortModels {
  /** True when the models run elsewhere (a pool): the trainer's own agents are then copies to refresh with `pull`. */
  readonly remote: boolean;
  /** Fingerprints of the base parameters of every model (src/rl/snapshot.ts). */
  baseHashes(): Promise<string[]>;
  /** Decode jobs 0..N-1 on the models and jobs N..2N-1 (if any) on their frozen base copies. */
  generate(jobs: GenerateJob[]): Promise<GenerateResult[]>;
  /** The policy forward of every model over its rollout rows, kept for `update`; returns the figures. */
  forward(rows: PolicyRows[], plan: ForwardPlan): Promise<TokenFigures[]>;
  /** The update of every model from the kept forward and `rewards` (per model, per row). */
  update(rewards: number[][], step: number, lr: number, fault?: UpdateFault): Promise<UpdateOutcome[]>;
  /** Put every model back as the latest `update` found it (a diverged step). */
  rollback(): Promise<void>;
  /** Every model's parameters, AdamW moments and step count (copies). */
  readState(): Promise<ModelState[]>;
  /** Write every model's state (a restore); gradients are zeroed. */
  writeState(states: readonly ModelState[]): Promise<void>;
  /** Free what the host holds for these models (their frozen copies, buffers; local models stay). */
  dispose(): void;
}

/** What a host needs to know of a trainer's models to update them. */
export interface ModelsSetup {
  /** Agent ids, in order (the fault-injection hook names one). */
  ids: string[];
  /** Completion slots per model. */
  maxNewTokens: number[];
  train: TrainConfig;
}

/** The models on the caller's backend: today's single-worker path, one readback per phase for all models. */
export class LocalModels implements CohortModels {
  readonly remote = false;
  private refs: GPT[] | null = null;
  private hashes: string[] = [];
  private readonly updater: PolicyUpdate;
  /** The latest forward, for the update: rows, figures and the reference log-probs. */
  private kept: { rows: PolicyRows[]; figs: TokenFigures[]; refLogp: (Float32Array | null)[] } | null = null;

  constructor(
    private readonly backend: Backend,
    private readonly models: readonly GPT[],
    private readonly setup: ModelsSetup,
  ) {
    this.updater = new PolicyUpdate(backend, models, setup.ids, setup.maxNewTokens, setup.train);
  }

  /** The frozen reference copies, made on the device (a buffer copy per model) on first use. */
  private initRefs(): GPT[] {
    this.refs ??= this.models.map((m) => {
      const r = new GPT(this.backend, m.cfg);
      this.backend.copy(r.params, m.params, m.layout.total);
      return r;
    });
    return this.refs;
  }

  async baseHashes(): Promise<string[]> {
    const refs = this.initRefs();
    if (this.hashes.length === 0) {
      const base = await this.backend.readMany(refs.map((r) => r.params));
      this.hashes = base.map((b) => fingerprint(b as Float32Array));
    }
    return this.hashes;
  }

  generate(jobs: GenerateJob[]): Promise<GenerateResult[]> {
    const N = this.models.length;
    const refs = jobs.length > N ? this.initRefs() : [];
    return generateAll([...this.models, ...refs].slice(0, jobs.length), jobs);
  }

  async forward(rows: PolicyRows[], plan: ForwardPlan): Promise<TokenFigures[]> {
    const refs = this.initRefs();
    const { temperature, rowsPerPass } = this.setup.train;
    const fwd = await resolvePending(
      this.backend,
      this.models.flatMap((m, n) => {
        const own = startPolicyForward(
          m,
          rows[n],
          temperature,
          { entropy: true, certainty: plan.certainty },
          rowsPerPass,
        );
        return plan.kl ? [own, startPolicyForward(refs[n], rows[n], temperature, {}, rowsPerPass)] : [own];
      }),
    );
    const per = plan.kl ? 2 : 1;
    const figs = this.models.map((_, n) => fwd[n * per]);
    const refLogp = this.models.map((_, n) => (plan.kl ? fwd[n * per + 1].logp : null));
    this.kept = { rows, figs, refLogp };
    return figs;
  }

  async update(rewards: number[][], step: number, lr: number, fault?: UpdateFault): Promise<UpdateOutcome[]> {
    const k = this.kept;
    if (!k) throw new Error('LocalModels.update: no forward of this step to update from');
    this.kept = null;
    const out = await this.updater.run(k.rows, k.figs, k.refLogp, rewards, step, lr, fault);
    // The step's backward passes are done: every model and frozen copy hands its activation buffers back
    // to the backend's pool, where the next method's models of the lock step take them. Kept per model,
    // five methods of two agents held ten sets at once and took the wasm engine's memory past 4 GiB at
    // 512 rows (docs/architecture.md, "wasm backend"). At the end of the update, not model by model, so
    // no other buffer of the step takes one of them in between and a steady loop allocates nothing.
    for (const m of [...this.models, ...(this.refs ?? [])]) m.releaseActivations();
    return out;
  }

  rollback(): Promise<void> {
    this.updater.rollback();
    return Promise.resolve();
  }

  async readState(): Promise<ModelState[]> {
    const out: ModelState[] = [];
    for (const [n, m] of this.models.entries()) {
      const [params, mm, v] = (await this.backend.readMany([m.params, m.m, m.v])) as Float32Array[];
      out.push({ params, m: mm, v, optSteps: this.updater.optSteps[n] });
    }
    return out;
  }

  writeState(states: readonly ModelState[]): Promise<void> {
    states.forEach((s, n) => {
      const model = this.models[n];
      model.writeParams(s.params);
      this.backend.write(model.m, s.m);
      this.backend.write(model.v, s.v);
      model.zeroGrad();
      this.updater.optSteps[n] = s.optSteps;
    });
    return Promise.resolve();
  }

  dispose(): void {
    for (const r of this.refs ?? []) {
      releasePolicyBuffers(r);
      releaseDecoders(r); // co-rl-frozen decodes with the frozen copies
      r.free();
    }
    for (const m of this.models) releasePolicyBuffers(m);
    this.refs = null;
    this.kept = null;
    this.updater.dispose();
  }
}
