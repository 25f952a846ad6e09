// The cohort trainer: one Co-RL / TTRL / GT / Intuitor / RENT / random GRPO step for N agents that share
// no parameters, gradients or random streams, exactly as SCIENCE.md §2-4: all rollouts and votes before any
// update; group advantages; clipped surrogate (+ optional k3 KL to a frozen copy of the base); AdamW with
// global-norm clipping per agent; metrics per agent and pair. Runs unchanged in Node, a page or a worker.
import type { Agent } from '../cohort/agent';
import type { Backend } from '../engine/backend';
import { GPT } from '../model/gpt';
import { deriveRng, deriveSeed, renderCompletion, renderPrompt, type Problem, type Task } from '../tasks';
import { computeAdvantages } from './advantages';
import type { EvalConfig, TrainConfig } from './config';
import { evaluateCohort } from './evaluate';
import { grpoLoss } from './grpo';
import { stepRewards } from './methodRewards';
import { agentStepMetrics, pairwiseAgreement } from './metrics';
import { policyBackward, policyForward, releasePolicyBuffers, type TokenFigures } from './policy';
import type { AgentStepRecord, EvalRecord, StepExample, StepRecord } from './records';
import { ringPredecessor, type RewardMethod, type RewardResult } from './rewards';
import { rolloutAgent, type AgentRollout } from './rollout';
import { cohortVotes, voteLabels } from './vote';

/** Settings of one trainer (one method on one cohort). */
export interface TrainerOptions {
  method: RewardMethod;
  /** Run seed. */
  seed: number;
  /** The task (training prompts from its train split, evaluation from its eval split). */
  task: Task;
  train: TrainConfig;
  eval: EvalConfig;
  /** Keep the first prompt's completions per agent in every step record (default false). */
  keepExamples?: boolean;
  /** Called every step, before the updates, with every answer, vote and reward (inspection, parity checks). */
  inspect?: (d: StepDetail) => void;
}

/** Everything a step decided, as plain arrays (index [agent][b*K + k] or [agent][b]). */
export interface StepDetail {
  step: number;
  answers: (string | null)[][];
  votes: (string | null)[][];
  trainedLabels: (string | null)[][] | null;
  rewards: number[][];
}

/** A NaN or infinity in a loss or gradient: training stops; records so far stay valid. */
export class TrainingDivergedError extends Error {
  constructor(readonly agent: string, readonly step: number, what: string) {
    super(`non-finite ${what} for agent ${agent} at step ${step}: training stopped`);
    this.name = 'TrainingDivergedError';
  }
}

/** Slots per agent: the config's value, or the longest correct completion seen in the agent's view + EOS + 2. */
export function completionSlots(agent: Agent, task: Task, configured: number | null): number {
  const Tp = task.promptLength(agent.spec.view);
  const room = agent.model.cfg.blockSize - Tp + 1;
  if (configured !== null) {
    if (configured > room) throw new Error(`agent ${agent.spec.id}: maxNewTokens ${configured} does not fit its context (blockSize ${agent.model.cfg.blockSize}, prompt ${Tp} tokens): at most ${room}`);
    return configured;
  }
  if (agent.base) return Math.min(agent.base.maxNewTokens + 2, room); // longest correct completion + EOS, + 2
  const probe = [...task.evalSet(Math.min(200, task.sizes.eval)), ...task.sampleTrain(deriveRng(0, 'slots'), Math.min(400, Math.floor(task.sizes.train / 2)))];
  const longest = Math.max(...probe.map((p) => renderCompletion(p, agent.spec.view).length));
  return Math.min(longest + 1 + 2, room);
}

const now = (): number => performance.now() / 1000;

export class CohortTrainer {
  /** Steps taken so far. */
  stepCount = 0;
  readonly maxNewTokens: number[];
  private refs: GPT[] | null = null;
  private readonly optSteps: number[];
  private firstStd: { batch: number; group: number }[] | null = null;

  constructor(readonly backend: Backend, readonly agents: Agent[], readonly opts: TrainerOptions) {
    if (agents.length === 0) throw new Error('a cohort needs at least one agent');
    if (opts.method === 'co-rl' && agents.length < 2) {
      throw new Error(`co-rl needs N >= 2 agents (each is graded by its ring predecessor, never itself); got N = ${agents.length}. Use ttrl for one agent.`);
    }
    if (opts.train.samples < 2) throw new Error(`samples K must be >= 2, got ${opts.train.samples}`);
    const ids = agents.map((a) => a.spec.id);
    if (new Set(ids).size !== ids.length) throw new Error(`agent ids must be unique (random streams derive from them): ${ids.join(', ')}`);
    for (const a of agents) {
      if (a.model.backend !== backend) throw new Error(`agent ${a.spec.id} lives on another backend`);
      if (a.model.cfg.vocabSize !== a.tokenizer.vocabSize) throw new Error(`agent ${a.spec.id}: model vocabSize ${a.model.cfg.vocabSize} != tokenizer vocabSize ${a.tokenizer.vocabSize}`);
    }
    this.maxNewTokens = agents.map((a) => completionSlots(a, opts.task, opts.train.maxNewTokens));
    this.optSteps = agents.map(() => 0);
  }

  /** Frozen copies of the agents' current (base) parameters, the KL reference. Called by the first step/evaluate. */
  async init(): Promise<void> {
    if (this.refs) return;
    const refs: GPT[] = [];
    for (const a of this.agents) {
      const r = new GPT(this.backend, a.model.cfg);
      r.writeParams(await a.model.readParams());
      refs.push(r);
    }
    this.refs = refs;
  }

  private lrAt(step: number): number {
    const { lr, warmupSteps } = this.opts.train;
    return warmupSteps > 0 ? lr * Math.min(1, step / warmupSteps) : lr;
  }

  /** One training step of every agent. Throws TrainingDivergedError on a NaN/inf loss or gradient. */
  async step(): Promise<StepRecord> {
    await this.init();
    const { train: c, seed, method } = this.opts;
    const s = this.stepCount + 1;
    const t0 = now();
    const B = c.batchPrompts;
    const K = c.samples;
    // 1. the same prompts, in the same order, for every agent
    const problems = this.opts.task.sampleTrain(deriveRng(seed, 'prompts', s), B);
    // 2-3. rollouts and answers, each agent from its own stream
    const rolls: AgentRollout[] = [];
    for (const [n, a] of this.agents.entries()) {
      rolls.push(await rolloutAgent(a, problems, { samples: K, temperature: c.temperature, maxNewTokens: this.maxNewTokens[n], seed: deriveSeed(seed, 'rollout', a.spec.id, s) }));
    }
    const t1 = now();
    // policy forward (kept for the backward), and the frozen base for KL
    const klNow = c.beta > 0 || (s - 1) % c.klEvery === 0;
    const figs: TokenFigures[] = [];
    const refLogp: (Float32Array | null)[] = [];
    for (const [n, a] of this.agents.entries()) {
      figs.push(await policyForward(a.model, rolls[n].rows, c.temperature, { entropy: true, certainty: method === 'intuitor' }));
      refLogp.push(klNow ? (await policyForward(this.refs![n], rolls[n].rows, c.temperature)).logp : null);
    }
    const t2 = now();
    // 4-5. votes and rewards for the whole cohort before any update
    const tb = (n: number, v: Float32Array) => ({ values: v, mask: rolls[n].rows.mask, maxNewTokens: this.maxNewTokens[n] });
    const cohort = { B, K, answers: rolls.map((r) => r.answers) };
    const res: RewardResult = stepRewards(
      {
        method, cohort, tau: c.tau, seed, step: s, agentIds: this.agents.map((a) => a.spec.id),
        entropy: figs.map((f, n) => tb(n, f.entropy!)),
        certainty: figs.map((f, n) => (f.certainty ? tb(n, f.certainty) : null)),
      },
      () => problems.map((p) => p.answer),
    );
    const ownVotes = res.votes ?? cohortVotes(cohort.answers, B, K, c.tau);
    this.opts.inspect?.({ step: s, answers: rolls.map((r) => [...r.answers]), votes: ownVotes.map(voteLabels), trainedLabels: res.trainedLabels, rewards: res.rewards.map((r) => [...r]) });
    // 6-8. advantages, loss, update: agent by agent
    const upd: { loss: number; kl: number | null; clip: number; gradNorm: number; lr: number }[] = [];
    for (const [n, a] of this.agents.entries()) upd.push(await this.update(n, a, rolls[n], figs[n], refLogp[n], res.rewards[n], s));
    const t3 = now();
    // metrics (ground truth is read here, for measurement only)
    const truth = problems.map((p) => p.answer);
    const agents = this.agents.map((a, n) => this.agentRecord(a, n, rolls[n], figs[n], res, voteLabels(ownVotes[n]), truth, upd[n]));
    const pairs = pairwiseAgreement(ownVotes.map(voteLabels)).map((p) => ({
      a: this.agents[p.i].spec.id, b: this.agents[p.j].spec.id, bothLabeled: p.bothLabeled, agreement: p.agreement,
    }));
    this.stepCount = s;
    const record: StepRecord = { method, step: s, agents, pairs, timing: { rollout: t1 - t0, forward: t2 - t1, update: t3 - t2, total: now() - t0 } };
    if (this.opts.keepExamples) record.examples = this.examples(problems[0], rolls, res, ownVotes.map((v) => v[0].vote));
    return record;
  }

  /** Advantages, GRPO loss and innerEpochs clipped AdamW steps of one agent. */
  private async update(n: number, a: Agent, roll: AgentRollout, fig: TokenFigures, ref: Float32Array | null, rewards: number[], s: number) {
    const c = this.opts.train;
    const adv = computeAdvantages(rewards, c.samples, c.scaleRewards);
    const lr = this.lrAt(s);
    const model = a.model;
    let logp = fig.logp;
    let first: { loss: number; kl: number | null } | null = null;
    let clip = 0;
    let gradNorm = 0;
    for (let e = 0; e < c.innerEpochs; e++) {
      if (e > 0) logp = (await policyForward(model, roll.rows, c.temperature)).logp;
      const out = grpoLoss({
        logp, logpOld: fig.logp, ref: ref ?? undefined, mask: roll.rows.mask, advantages: adv,
        maxNewTokens: this.maxNewTokens[n], epsClip: c.epsClip, beta: c.beta, lossType: c.lossType,
      });
      if (!Number.isFinite(out.loss)) throw new TrainingDivergedError(a.spec.id, s, `loss (${out.loss})`);
      first ??= { loss: out.loss, kl: out.meanKl };
      model.zeroGrad();
      policyBackward(model, roll.rows, out.weights, c.temperature);
      this.backend.sumSquares(model.normSq, model.grads, model.layout.total);
      const norm = Math.sqrt(((await this.backend.read(model.normSq)) as Float32Array)[0]);
      if (!Number.isFinite(norm)) throw new TrainingDivergedError(a.spec.id, s, `gradient norm (${norm})`);
      this.optSteps[n]++;
      model.step({ lr, beta1: c.beta1, beta2: c.beta2, eps: c.adamEps, weightDecay: c.weightDecay, step: this.optSteps[n] }, c.maxGradNorm);
      clip += out.clipFraction / c.innerEpochs;
      gradNorm += norm / c.innerEpochs;
    }
    return { loss: first!.loss, kl: first!.kl, clip, gradNorm, lr };
  }

  private agentRecord(
    a: Agent, n: number, roll: AgentRollout, fig: TokenFigures, res: RewardResult, own: (string | null)[], truth: string[],
    u: { loss: number; kl: number | null; clip: number; gradNorm: number; lr: number },
  ): AgentStepRecord {
    const K = this.opts.train.samples;
    const rewards = res.rewards[n];
    const m = agentStepMetrics({
      K, answers: roll.answers, rewards, ownLabels: own, trainedLabels: res.trainedLabels ? res.trainedLabels[n] : null, truth,
      lengths: roll.lengths, eosProduced: roll.eos, entropy: { values: fig.entropy!, mask: roll.rows.mask, maxNewTokens: this.maxNewTokens[n] },
    });
    this.firstStd ??= [];
    this.firstStd[n] ??= { batch: m.batchStd, group: m.meanGroupStd };
    const f = this.firstStd[n];
    const binary = this.opts.method !== 'intuitor' && this.opts.method !== 'rent';
    const right = roll.answers.filter((x, i) => x !== null && x === truth[Math.floor(i / K)]).length;
    return {
      agent: a.spec.id,
      rewardMean: m.mean,
      rewardStd: m.batchStd,
      rewardGroupStd: m.meanGroupStd,
      rewardStdNorm: f.batch > 0 ? m.batchStd / f.batch : null,
      rewardGroupStdNorm: f.group > 0 ? m.meanGroupStd / f.group : null,
      zeroStdFraction: m.zeroStdFraction,
      pseudoLabelAccuracy: m.pseudoLabelAccuracy,
      trainedLabelAccuracy: m.trainedLabelAccuracy,
      rewardAccuracy: binary ? m.rewardAccuracy : null,
      labeledFraction: m.labeledFraction,
      parseableFraction: m.parseableFraction,
      sampleAccuracy: right / roll.answers.length,
      meanLength: m.meanLength ?? 0,
      cutOffShare: m.cutOffShare ?? 0,
      meanEntropy: m.meanEntropy ?? 0,
      kl: u.kl,
      clipFraction: u.clip,
      gradNorm: u.gradNorm,
      loss: u.loss,
      lr: u.lr,
    };
  }

  private examples(p: Problem, rolls: AgentRollout[], res: RewardResult, votes: (string | null)[]): StepExample[] {
    const K = this.opts.train.samples;
    return this.agents.map((a, n) => ({
      agent: a.spec.id,
      prompt: renderPrompt(p, a.spec.view),
      truth: p.answer,
      completions: rolls[n].texts.slice(0, K),
      answers: rolls[n].answers.slice(0, K),
      rewards: res.rewards[n].slice(0, K),
      vote: votes[n],
    }));
  }

  /** Held-out evaluation of the current agents (greedy, avg@E, maj@E, pooled ensemble). */
  async evaluate(): Promise<EvalRecord> {
    const e = this.opts.eval;
    return evaluateCohort(this.agents, this.opts.task.evalSet(e.problems), {
      method: this.opts.method, step: this.stepCount, seed: this.opts.seed,
      ensembleSamples: e.ensembleSamples, temperature: e.temperature, maxNewTokens: this.maxNewTokens,
    });
  }

  /** The ring predecessor whose votes grade agent n under co-rl. */
  teacherOf(n: number): number {
    return ringPredecessor(n, this.agents.length);
  }

  /** Free the frozen reference copies and the policy buffers (the agents' models stay). */
  dispose(): void {
    for (const r of this.refs ?? []) {
      releasePolicyBuffers(r);
      r.free();
    }
    for (const a of this.agents) releasePolicyBuffers(a.model);
    this.refs = null;
  }
}
