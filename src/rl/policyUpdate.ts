// The policy update of one lock step (docs/method.md, "One training step"): group advantages, the GRPO
// loss and innerEpochs clipped AdamW steps of every agent, with the AdamW step counts, the device buffer
// of gradient norms read back once per step, and the copy of every agent's parameters and moments that
// puts them back when a step diverges (a non-finite loss or gradient norm). Owned by the models' host
// (LocalModels, src/rl/cohortModels.ts), wherever the models live; needs no tokenizer and no task.
import { resolvePending, type Backend } from '../engine/backend';
import type { Tensor } from '../engine/tensor';
import type { GPT } from '../model/gpt';
import { computeAdvantages } from './advantages';
import type { TrainConfig } from './config';
import { grpoLoss } from './grpo';
import { policyBackward, startPolicyForward, type PolicyRows, type TokenFigures } from './policy';

/** What one agent's update reports into its step record. */
export interface AgentUpdate {
  loss: number;
  kl: number | null;
  clip: number;
  gradNorm: number;
  lr: number;
}

/** One model's update: its figures, or what turned non-finite (the step then diverged). */
export type UpdateOutcome = { ok: AgentUpdate } | { failed: string };

/** The test hook that writes NaN gradients into one model at one step (TrainerOptions.faultInjection). */
export interface UpdateFault {
  step: number;
  agent: string;
}

export class PolicyUpdate {
  /** AdamW steps taken per agent (kept in snapshots). */
  readonly optSteps: number[];
  /** Squared gradient norm of every (agent, inner epoch) of a step, read back once at its end. */
  private norms: Tensor | null = null;
  /** Per agent: parameters and AdamW moments before the step's updates (put back when a step diverges). */
  private before: { params: Tensor; m: Tensor; v: Tensor }[] | null = null;

  constructor(
    private readonly backend: Backend,
    private readonly models: readonly GPT[],
    private readonly ids: readonly string[],
    private readonly maxNewTokens: readonly number[],
    private readonly train: TrainConfig,
  ) {
    this.optSteps = models.map(() => 0);
  }

  /** AdamW step counts before the latest run (put back by rollback). */
  private optBefore: number[] = [];

  /**
   * Advantages, GRPO loss and innerEpochs clipped AdamW steps of every agent. Epoch by epoch (agents are
   * independent, so the order across agents changes no number): a later epoch's forwards of all agents
   * share one readback. Each gradient norm is copied on the device into one small buffer, read back once
   * at the end; a model whose loss or gradient norm turned non-finite reports what (its first failure),
   * and the caller puts every model back as it was before the step with `rollback` (the trainer throws for
   * the first failure in agent order, as if agents were updated one after another).
   */
  async run(
    rows: PolicyRows[],
    figs: TokenFigures[],
    refLogp: (Float32Array | null)[],
    rewards: number[][],
    s: number,
    lr: number,
    fault?: UpdateFault,
  ): Promise<UpdateOutcome[]> {
    const c = this.train;
    const be = this.backend;
    const N = this.models.length;
    const E = c.innerEpochs;
    const adv = rewards.map((r) => computeAdvantages(r, c.samples, c.scaleRewards));
    const norms = this.normBuffer(N * E);
    this.optBefore = [...this.optSteps];
    this.saveState();
    const logp = figs.map((f) => f.logp);
    const first: ({ loss: number; kl: number | null } | null)[] = this.models.map(() => null);
    const clip = this.models.map(() => 0);
    const lossFail = new Map<number, string>(); // n * E + e -> what
    const live = new Set(this.models.keys());
    const clipped = c.maxGradNorm > 0 && Number.isFinite(c.maxGradNorm);
    for (let e = 0; e < E; e++) {
      if (e > 0) {
        const ns = [...live];
        const f = await resolvePending(
          be,
          ns.map((n) => startPolicyForward(this.models[n], rows[n], c.temperature, {}, c.rowsPerPass)),
        );
        ns.forEach((n, i) => (logp[n] = f[i].logp));
      }
      for (const n of live) {
        const model = this.models[n];
        const out = grpoLoss({
          logp: logp[n],
          logpOld: figs[n].logp,
          ref: refLogp[n] ?? undefined,
          mask: rows[n].mask,
          advantages: adv[n],
          maxNewTokens: this.maxNewTokens[n],
          epsClip: c.epsClip,
          beta: c.beta,
          lossType: c.lossType,
        });
        if (!Number.isFinite(out.loss)) {
          lossFail.set(n * E + e, `loss (${out.loss})`);
          live.delete(n);
          continue;
        }
        first[n] ??= { loss: out.loss, kl: out.meanKl };
        model.zeroGrad();
        policyBackward(model, rows[n], out.weights, c.temperature);
        if (fault && fault.step === s && fault.agent === this.ids[n])
          // tests only: see TrainerOptions.faultInjection
          be.write(model.grads, new Float32Array(model.layout.total).fill(NaN));
        this.optSteps[n]++;
        // the clipped step computes the squared norm into model.normSq on the device; else compute it here
        if (!clipped) be.sumSquares({ out: model.normSq, inp: model.grads, N: model.layout.total });
        model.step(
          {
            lr,
            beta1: c.beta1,
            beta2: c.beta2,
            eps: c.adamEps,
            weightDecay: c.weightDecay,
            step: this.optSteps[n],
          },
          c.maxGradNorm,
        );
        be.copy(norms, model.normSq, 1, n * E + e);
        clip[n] += out.clipFraction / E;
      }
    }
    const normSq = (await be.readMany([norms]))[0] as Float32Array;
    const upd: UpdateOutcome[] = [];
    for (let n = 0; n < N; n++) {
      let gradNorm = 0;
      let what: string | null = null;
      for (let e = 0; e < E && !what; e++) {
        const norm = Math.sqrt(normSq[n * E + e]);
        what = lossFail.get(n * E + e) ?? (Number.isFinite(norm) ? null : `gradient norm (${norm})`);
        gradNorm += norm / E;
      }
      upd.push(
        what
          ? { failed: what }
          : { ok: { loss: first[n]!.loss, kl: first[n]!.kl, clip: clip[n], gradNorm, lr } },
      );
    }
    return upd;
  }

  /** Put every model's parameters, AdamW moments and step counts back as the latest run found them. */
  rollback(): void {
    this.restoreState();
    this.optSteps.splice(0, this.optSteps.length, ...this.optBefore);
  }

  /** The (size) buffer of squared gradient norms, allocated on the first step (and again only if innerEpochs changes). */
  private normBuffer(size: number): Tensor {
    if (this.norms && this.norms.size !== size) {
      this.backend.free(this.norms);
      this.norms = null;
    }
    this.norms ??= this.backend.alloc([size], 'f32', 'trainer.normSq');
    return this.norms;
  }

  /** Copy every agent's parameters and AdamW moments aside on the device (buffer copies, no dispatch). */
  private saveState(): void {
    const be = this.backend;
    this.before ??= this.models.map((m) => {
      const n = m.layout.total;
      return {
        params: be.alloc([n], 'f32', 'trainer.before.params'),
        m: be.alloc([n], 'f32', 'trainer.before.m'),
        v: be.alloc([n], 'f32', 'trainer.before.v'),
      };
    });
    this.models.forEach((m, i) => {
      const b = this.before![i];
      const n = m.layout.total;
      be.copy(b.params, m.params, n);
      be.copy(b.m, m.m, n);
      be.copy(b.v, m.v, n);
    });
  }

  /** Put every agent's parameters and AdamW moments back as saveState found them. */
  private restoreState(): void {
    const be = this.backend;
    this.models.forEach((m, i) => {
      const b = this.before![i];
      const n = m.layout.total;
      be.copy(m.params, b.params, n);
      be.copy(m.m, b.m, n);
      be.copy(m.v, b.v, n);
    });
  }

  /** Free the device buffers (the trainer's dispose). */
  dispose(): void {
    for (const t of [this.norms, ...(this.before ?? []).flatMap((b) => [b.params, b.m, b.v])])
      if (t) this.backend.free(t);
    this.norms = null;
    this.before = null;
  }
}
