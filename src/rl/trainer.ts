// The cohort trainer: one Co-RL / co-rl-frozen (control) / TTRL / GT / Intuitor / RENT / random GRPO step
// for N agents that share no parameters, gradients or random streams, as docs/method.md: all rollouts and
// votes before any update; group advantages; clipped surrogate (+ optional k3 KL to a frozen copy of the
// base, which co-rl-frozen also rolls out as each agent's frozen teacher); AdamW with global-norm clipping
// per agent; metrics per agent and pair. Runs unchanged in Node, a page or a worker. The trainer is the
// coordinator of the step (prompts, answers, votes, rewards, metrics); the per-model work goes through its
// CohortModels (src/rl/cohortModels.ts): on its own backend by default, or in a pool of workers.
import type { Agent } from '../cohort/agent';
import type { Backend } from '../engine/backend';
import type { Problem, ViewName } from '../tasks';
import { deriveSeed } from '../util/rng';
import { evaluateCohort, withPortrait, type EvaluateOptions } from './evaluate';
import { stepRewards } from './methodRewards';
import { agentStepMetrics, pairwiseAgreement } from './metrics';
import type { TokenFigures } from './policy';
import type { AgentStepRecord, EvalRecord, StepRecord } from './records';
import { ringPredecessor, type RewardResult } from './rewards';
import type { AgentUpdate } from './policyUpdate';
import { rolloutCohort, type AgentRollout } from './rollout';
import { attentionMap, buildInspection, type AttentionResult, type StepInspection } from './inspection';
import { cohortVotes, voteLabels } from './vote';
import type { TrainerSnapshot } from './snapshot';
import { frozenRolloutOptions } from './frozenTeachers';
import { stepCoLabeling } from './coLabelingDiagnostics';
import { stepPrompts } from './unseenPrompts';
import { checkSnapshotFits } from './snapshotCheck';
import { agentStepRecord, stepExamples } from './stepRecords';
import { LocalModels, type CohortModels, type ModelsSetup } from './cohortModels';
import {
  checkTrainerCohort,
  completionSlots,
  TrainingDivergedError,
  type StepDetail,
  type TrainerOptions,
} from './trainerOptions';

export { completionSlots, TrainingDivergedError, type StepDetail, type TrainerOptions };

/** Where a trainer's models run: the default is LocalModels on the trainer's backend. */
export type ModelsFactory = (agents: Agent[], setup: ModelsSetup) => CohortModels;

const now = (): number => performance.now() / 1000;

export class CohortTrainer {
  /** Steps taken so far. */
  stepCount = 0;
  readonly maxNewTokens: number[];
  /** The per-model work of a step (src/rl/cohortModels.ts). */
  readonly models: CohortModels;
  /** Remote models only: the trainer's own agents hold parameters older than the models' (refreshed by `syncAgents`). */
  private stale = false;
  private firstStd: { batch: number; group: number }[] | null = null;
  /** Fingerprints of the base parameters (set by init), checked when a snapshot is restored. */
  private baseHashes: string[] = [];
  /** The latest step in full (every prompt, agent and completion), for the inspector; null before step 1. */
  latestInspection: StepInspection | null = null;

  constructor(
    readonly backend: Backend,
    readonly agents: Agent[],
    readonly opts: TrainerOptions,
    models?: ModelsFactory,
  ) {
    checkTrainerCohort(backend, agents, opts);
    this.maxNewTokens = agents.map((a) => completionSlots(a, opts.task, opts.train.maxNewTokens));
    const setup = { ids: agents.map((a) => a.spec.id), maxNewTokens: this.maxNewTokens, train: opts.train };
    this.models = models
      ? models(agents, setup)
      : new LocalModels(
          backend,
          agents.map((a) => a.model),
          setup,
        );
  }

  /**
   * Fingerprints of the agents' base parameters (the frozen KL reference copies), read once: when a
   * snapshot is taken or restored.
   */
  async init(): Promise<void> {
    if (this.baseHashes.length === 0) this.baseHashes = await this.models.baseHashes();
  }

  /**
   * Remote models only: copy the models' current parameters into the trainer's own agents (their
   * evaluation, attention and inspection run on those). Local models are the agents: nothing to do.
   */
  async syncAgents(): Promise<void> {
    if (!this.stale) return;
    const states = await this.models.readState();
    states.forEach((st, n) => this.agents[n].model.writeParams(st.params));
    this.stale = false;
  }

  /** The prompt an agent is shown: always rendered by the task. */
  private readonly render = (p: Problem, view: ViewName): string => this.opts.task.prompt(p, view);

  private lrAt(step: number): number {
    const { lr, warmupSteps } = this.opts.train;
    return warmupSteps > 0 ? lr * Math.min(1, step / warmupSteps) : lr;
  }

  /** One training step of every agent. Throws TrainingDivergedError on a NaN/inf loss or gradient. */
  async step(): Promise<StepRecord> {
    const { train: c, seed, method } = this.opts;
    const s = this.stepCount + 1;
    const t0 = now();
    const B = c.batchPrompts;
    const K = c.samples;
    // 1. the same prompts, in the same order, for every agent
    const problems = stepPrompts(this.opts.task, seed, s, B);
    // 2-3. rollouts and answers, each agent from its own stream; all decoded, then one readback. Prompts are
    // rendered by the task (groundTruth.test.ts hands the trainer problems whose truth-bearing fields are scrambled)
    // co-rl-frozen: the frozen base copies roll out the same prompts from their own streams, in the same readback
    const N = this.agents.length;
    const ids = this.agents.map((a) => a.spec.id);
    const opts = this.agents.map((a, n) => ({
      samples: K,
      temperature: c.temperature,
      maxNewTokens: this.maxNewTokens[n],
      seed: deriveSeed(seed, 'rollout', a.spec.id, s),
    }));
    const frozenRun = method === 'co-rl-frozen';
    this.stale = this.models.remote;
    const all: AgentRollout[] = await rolloutCohort(
      frozenRun ? [...this.agents, ...this.agents] : this.agents, // the frozen copies read as their agents
      problems,
      frozenRun ? [...opts, ...frozenRolloutOptions(opts, ids, seed, s)] : opts,
      this.render,
      (jobs) => this.models.generate(jobs),
    );
    const rolls = all.slice(0, N);
    const frozen = frozenRun ? { B, K, answers: all.slice(N).map((r) => r.answers) } : undefined;
    const t1 = now();
    // policy forward (kept for the backward), and the frozen base for KL: every agent's figures in one readback
    const klNow = c.beta > 0 || (s - 1) % c.klEvery === 0;
    const figs: TokenFigures[] = await this.models.forward(
      rolls.map((r) => r.rows),
      { kl: klNow, certainty: method === 'intuitor' },
    );
    const t2 = now();
    // 4-5. votes and rewards for the whole cohort before any update
    const tb = (n: number, v: Float32Array) => ({
      values: v,
      mask: rolls[n].rows.mask,
      maxNewTokens: this.maxNewTokens[n],
    });
    const cohort = { B, K, answers: rolls.map((r) => r.answers) };
    const res: RewardResult = stepRewards(
      {
        method,
        cohort,
        frozen,
        tau: c.tau,
        teacher: c.teacher,
        seed,
        step: s,
        agentIds: ids,
        entropy: figs.map((f, n) => tb(n, f.entropy!)),
        certainty: figs.map((f, n) => (f.certainty ? tb(n, f.certainty) : null)),
      },
      () => problems.map((p) => p.answer),
    );
    const ownVotes = res.votes ?? cohortVotes(cohort.answers, B, K, c.tau);
    this.opts.inspect?.({
      step: s,
      answers: rolls.map((r) => [...r.answers]),
      votes: ownVotes.map(voteLabels),
      trainedLabels: res.trainedLabels,
      rewards: res.rewards.map((r) => [...r]),
    });
    // 6-8. advantages, loss, update of every agent (gradient norms read back once, at the end)
    const outcomes = await this.models.update(res.rewards, s, this.lrAt(s), this.opts.faultInjection);
    const bad = outcomes.findIndex((o) => 'failed' in o);
    if (bad >= 0) {
      await this.models.rollback(); // every agent as it was before the step, as if updated one after another
      throw new TrainingDivergedError(ids[bad], s, (outcomes[bad] as { failed: string }).failed);
    }
    const upd = outcomes.map((o) => (o as { ok: AgentUpdate }).ok);
    const t3 = now();
    // metrics (ground truth is read here, for measurement only)
    const truth = problems.map((p) => p.answer);
    const agents = this.agents.map((a, n) =>
      this.agentRecord(a, n, rolls[n], figs[n], res, voteLabels(ownVotes[n]), truth, upd[n]),
    );
    const pairs = pairwiseAgreement(ownVotes.map(voteLabels)).map((p) => ({
      a: this.agents[p.i].spec.id,
      b: this.agents[p.j].spec.id,
      bothLabeled: p.bothLabeled,
      agreement: p.agreement,
    }));
    this.stepCount = s;
    const record: StepRecord = {
      method,
      step: s,
      agents,
      pairs,
      timing: { rollout: t1 - t0, forward: t2 - t1, update: t3 - t2, total: now() - t0 },
    };
    const co = stepCoLabeling(
      method === 'co-rl' || frozenRun ? c.teacher : 'ring',
      ids,
      ownVotes.map(voteLabels),
      res,
      truth,
    );
    if (co) record.coLabeling = co;
    if (this.opts.keepExamples)
      record.examples = stepExamples(
        this.agents,
        this.opts.train.samples,
        this.render,
        problems[0],
        rolls,
        res,
        ownVotes.map((v) => v[0].vote),
      );
    this.latestInspection = buildInspection({
      method,
      step: s,
      K,
      agents: this.agents,
      problems,
      rolls,
      res,
      votes: ownVotes,
      teacherOf: (n) => this.teacherOf(n),
      render: this.render,
    });
    if ((method === 'co-rl' || frozenRun) && c.teacher !== 'ring')
      this.latestInspection.labelFrom = this.latestInspection.labelFrom.map(
        () => `${frozenRun ? 'frozen ' : ''}peers (${c.teacher})`,
      );
    return record;
  }

  private agentRecord(
    a: Agent,
    n: number,
    roll: AgentRollout,
    fig: TokenFigures,
    res: RewardResult,
    own: (string | null)[],
    truth: string[],
    u: { loss: number; kl: number | null; clip: number; gradNorm: number; lr: number },
  ): AgentStepRecord {
    const K = this.opts.train.samples;
    const rewards = res.rewards[n];
    const m = agentStepMetrics({
      K,
      answers: roll.answers,
      rewards,
      ownLabels: own,
      trainedLabels: res.trainedLabels ? res.trainedLabels[n] : null,
      truth,
      lengths: roll.lengths,
      eosProduced: roll.eos,
      entropy: { values: fig.entropy!, mask: roll.rows.mask, maxNewTokens: this.maxNewTokens[n] },
    });
    this.firstStd ??= [];
    this.firstStd[n] ??= { batch: m.batchStd, group: m.meanGroupStd };
    const f = this.firstStd[n];
    const binary = this.opts.method !== 'intuitor' && this.opts.method !== 'rent';
    const right = roll.answers.filter((x, i) => x !== null && x === truth[Math.floor(i / K)]).length;
    return agentStepRecord(a, m, f, binary, right / roll.answers.length, u);
  }

  /** Held-out evaluation of the current agents (greedy, avg@E, maj@E, pooled ensemble; the portrait counts unless `portrait` is false). */
  async evaluate(portrait = true): Promise<EvalRecord> {
    const e = this.opts.eval;
    await this.syncAgents();
    return evaluateCohort(this.agents, this.opts.task.heldOut(e.split ?? 'test', e.problems), {
      ...this.evalOptions(),
      portraitSamples: portrait ? e.portraitSamples : 0,
    });
  }

  /** `rec` (an evaluation of the current agents) with the live portrait's counts added (src/rl/evaluate.ts). */
  async addPortrait(rec: EvalRecord): Promise<EvalRecord> {
    await this.syncAgents();
    return withPortrait(
      rec,
      this.agents,
      this.opts.task.heldOut(this.opts.eval.split ?? 'test', this.opts.eval.problems),
      this.evalOptions(),
    );
  }

  private evalOptions(): EvaluateOptions {
    const e = this.opts.eval;
    return {
      method: this.opts.method,
      step: this.stepCount,
      seed: this.opts.seed,
      ensembleSamples: e.ensembleSamples,
      temperature: e.temperature,
      maxNewTokens: this.maxNewTokens,
      portraitSamples: e.portraitSamples,
      portraitTemperature: this.opts.train.temperature,
      render: this.render,
    };
  }

  /**
   * Attention (block `layer`, every head) of the latest step's prompt `prompt` + completion `sample` of
   * agent `agent` (an id), through the agent's current model. Call between steps only (never while a
   * step runs: the forward replaces the model's kept activations). Throws a clear message on bad input.
   */
  async attention(
    agent: string,
    prompt: number,
    sample: number,
    layer: number,
  ): Promise<AttentionResult & { step: number }> {
    const ins = this.latestInspection;
    if (!ins) throw new Error(`no step of ${this.opts.method} yet: attention is available from step 1`);
    const n = this.agents.findIndex((a) => a.spec.id === agent);
    if (n < 0) throw new Error(`unknown agent ${JSON.stringify(agent)}; agents: ${ins.agents.join(', ')}`);
    if (!Number.isInteger(prompt) || prompt < 0 || prompt >= ins.prompts.length)
      throw new Error(`prompt ${prompt} is out of range: 0..${ins.prompts.length - 1}`);
    if (!Number.isInteger(sample) || sample < 0 || sample >= ins.K)
      throw new Error(`sample ${sample} is out of range: 0..${ins.K - 1}`);
    const x = ins.prompts[prompt].agents[n];
    await this.syncAgents();
    return {
      ...(await attentionMap(this.agents[n], x.prompt, x.completions[sample], layer)),
      step: ins.step,
    };
  }

  /**
   * Everything that decides the future steps (src/rl/snapshot.ts): step count, AdamW step counts, the
   * step-1 std baselines, and per agent its parameters and AdamW moments. Call between steps.
   */
  async snapshot(): Promise<TrainerSnapshot> {
    await this.init();
    const states = await this.models.readState(); // fresh copies
    const agents: TrainerSnapshot['agents'] = this.agents.map((a, n) => {
      const f = this.firstStd?.[n];
      const st = states[n];
      return {
        id: a.spec.id,
        optSteps: st.optSteps,
        firstStd: f ? { ...f } : null,
        baseHash: this.baseHashes[n],
        params: st.params,
        m: st.m,
        v: st.v,
      };
    });
    return { method: this.opts.method, seed: this.opts.seed, step: this.stepCount, agents };
  }

  /**
   * Put a snapshot of this trainer's run back (a reload, or a rollback). Everything is checked before
   * anything is written: method, seed, agent ids and order, tensor sizes, finite values, and that the
   * agents were built from the same base parameters. Throws naming the mismatch.
   */
  async restore(snap: TrainerSnapshot): Promise<void> {
    await this.checkSnapshot(snap);
    await this.models.writeState(snap.agents);
    this.stale = this.models.remote;
    const std = snap.agents.map((s) => (s.firstStd ? { ...s.firstStd } : undefined));
    this.firstStd = std.some((x) => x) ? (std as { batch: number; group: number }[]) : null;
    this.stepCount = snap.step;
  }

  /** Throw (naming the mismatch) unless `restore(snap)` would succeed; changes nothing. */
  async checkSnapshot(snap: TrainerSnapshot): Promise<void> {
    await this.init();
    checkSnapshotFits(snap, this.opts.method, this.opts.seed, this.agents, this.baseHashes);
  }

  /** The ring predecessor whose votes (its frozen base copy's, under co-rl-frozen) grade agent n under co-rl. */
  teacherOf(n: number): number {
    return ringPredecessor(n, this.agents.length);
  }

  /** Free the frozen reference copies (and their decode buffers) and the policy buffers (the agents' models stay). */
  dispose(): void {
    this.models.dispose();
  }
}
