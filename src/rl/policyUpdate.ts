// The policy update of one lock step (docs/method.md, "One training step"): group advantages, the GRPO
// loss and innerEpochs clipped AdamW steps of every agent, with the AdamW step counts, the device buffer
// of gradient norms read back once per step, and the copy of every agent's parameters and moments that
// puts them back when a step diverges (a non-finite loss or gradient norm). Owned by CohortTrainer.
import type { Agent } from '../cohort/agent';
import { resolvePending, type Backend } from '../engine/backend';
import type { Tensor } from '../engine/tensor';
import { computeAdvantages } from './advantages';
import { grpoLoss } from './grpo';
import { policyBackward, startPolicyForward, type TokenFigures } from './policy';
import type { AgentRollout } from './rollout';
import { TrainingDivergedError, type TrainerOptions } from './trainerOptions';

/** What one agent's update reports into its step record. */
export interface AgentUpdate {
  loss: number;
  kl: number | null;
  clip: number;
  gradNorm: number;
  lr: number;
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
    private readonly agents: Agent[],
    private readonly maxNewTokens: readonly number[],
    private readonly opts: TrainerOptions,
  ) {
    this.optSteps = agents.map(() => 0);
  }

  /**
   * Advantages, GRPO loss and innerEpochs clipped AdamW steps of every agent. Epoch by epoch (agents are
   * independent, so the order across agents changes no number): a later epoch's forwards of all agents
   * share one readback. Each gradient norm is copied on the device into one small buffer, read back once
   * at the end; a non-finite loss or gradient norm then throws for the first failure in agent order (as if
   * agents were updated one after another) after putting every agent back as it was before the step.
   */
  async run(
    rolls: AgentRollout[],
    figs: TokenFigures[],
    refLogp: (Float32Array | null)[],
    rewards: number[][],
    s: number,
    lr: number,
  ): Promise<AgentUpdate[]> {
    const c = this.opts.train;
    const be = this.backend;
    const N = this.agents.length;
    const E = c.innerEpochs;
    const adv = rewards.map((r) => computeAdvantages(r, c.samples, c.scaleRewards));
    const norms = this.normBuffer(N * E);
    const optBefore = [...this.optSteps];
    this.saveState();
    const logp = figs.map((f) => f.logp);
    const first: ({ loss: number; kl: number | null } | null)[] = this.agents.map(() => null);
    const clip = this.agents.map(() => 0);
    const lossFail = new Map<number, string>(); // n * E + e -> what
    const live = new Set(this.agents.keys());
    const clipped = c.maxGradNorm > 0 && Number.isFinite(c.maxGradNorm);
    for (let e = 0; e < E; e++) {
      if (e > 0) {
        const ns = [...live];
        const f = await resolvePending(
          be,
          ns.map((n) => startPolicyForward(this.agents[n].model, rolls[n].rows, c.temperature)),
        );
        ns.forEach((n, i) => (logp[n] = f[i].logp));
      }
      for (const n of live) {
        const model = this.agents[n].model;
        const roll = rolls[n];
        const out = grpoLoss({
          logp: logp[n],
          logpOld: figs[n].logp,
          ref: refLogp[n] ?? undefined,
          mask: roll.rows.mask,
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
        policyBackward(model, roll.rows, out.weights, c.temperature);
        const fi = this.opts.faultInjection; // tests only: see TrainerOptions.faultInjection
        if (fi && fi.step === s && fi.agent === this.agents[n].spec.id)
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
    const upd: AgentUpdate[] = [];
    for (let n = 0; n < N; n++) {
      let gradNorm = 0;
      for (let e = 0; e < E; e++) {
        const lossWhat = lossFail.get(n * E + e);
        const norm = Math.sqrt(normSq[n * E + e]);
        const what = lossWhat ?? (Number.isFinite(norm) ? null : `gradient norm (${norm})`);
        if (what) {
          this.restoreState();
          this.optSteps.splice(0, N, ...optBefore);
          throw new TrainingDivergedError(this.agents[n].spec.id, s, what);
        }
        gradNorm += norm / E;
      }
      upd.push({ loss: first[n]!.loss, kl: first[n]!.kl, clip: clip[n], gradNorm, lr });
    }
    return upd;
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
    this.before ??= this.agents.map((a) => {
      const n = a.model.layout.total;
      return {
        params: be.alloc([n], 'f32', 'trainer.before.params'),
        m: be.alloc([n], 'f32', 'trainer.before.m'),
        v: be.alloc([n], 'f32', 'trainer.before.v'),
      };
    });
    this.agents.forEach((a, i) => {
      const b = this.before![i];
      const n = a.model.layout.total;
      be.copy(b.params, a.model.params, n);
      be.copy(b.m, a.model.m, n);
      be.copy(b.v, a.model.v, n);
    });
  }

  /** Put every agent's parameters and AdamW moments back as saveState found them. */
  private restoreState(): void {
    const be = this.backend;
    this.agents.forEach((a, i) => {
      const b = this.before![i];
      const n = a.model.layout.total;
      be.copy(a.model.params, b.params, n);
      be.copy(a.model.m, b.m, n);
      be.copy(a.model.v, b.v, n);
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
