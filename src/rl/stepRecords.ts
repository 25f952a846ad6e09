// The trainer's per-agent step record and example completions, built from a step's figures (used by ./trainer.ts).
import type { Agent } from '../cohort/agent';
import type { Problem, ViewName } from '../tasks';
import type { AgentStepMetrics } from './metrics';
import type { AgentStepRecord, StepExample } from './records';
import type { RewardResult } from './rewards';
import type { AgentRollout } from './rollout';

/** An agent's step record from its step metrics, its step-1 std baselines `f` and its update figures `u`. */
export function agentStepRecord(
  a: Agent,
  m: AgentStepMetrics,
  f: { batch: number; group: number },
  binary: boolean,
  sampleAccuracy: number,
  u: { loss: number; kl: number | null; clip: number; gradNorm: number; lr: number },
): AgentStepRecord {
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
    sampleAccuracy,
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

/** The first prompt's completions, answers and rewards of every agent (a step record's examples). */
export function stepExamples(
  agents: Agent[],
  K: number,
  render: (p: Problem, view: ViewName) => string,
  p: Problem,
  rolls: AgentRollout[],
  res: RewardResult,
  votes: (string | null)[],
): StepExample[] {
  return agents.map((a, n) => ({
    agent: a.spec.id,
    prompt: render(p, a.spec.view),
    truth: p.answer,
    completions: rolls[n].texts.slice(0, K),
    answers: rolls[n].answers.slice(0, K),
    rewards: res.rewards[n].slice(0, K),
    vote: votes[n],
  }));
}
