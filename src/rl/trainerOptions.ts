// The cohort trainer's settings, its per-step detail, its divergence error, completion slots and the checks of a cohort it can train (used by ./trainer.ts).
import type { Agent } from '../cohort/agent';
import type { Backend } from '../engine/backend';
import { frozenTeacherProblem, teacherModeProblem } from './coLabeling';
import type { Task } from '../tasks';
import type { EvalConfig, TrainConfig } from './config';
import type { RewardMethod } from './rewards';

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
  /** Tests only (the numerical guard, src/store/guard.test.ts): write NaN into this agent's gradient
   * right after its backward at this step, as a real divergence would. Never set in normal runs. */
  faultInjection?: { agent: string; step: number };
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
  constructor(
    readonly agent: string,
    readonly step: number,
    what: string,
  ) {
    super(`non-finite ${what} for agent ${agent} at step ${step}: training stopped`);
    this.name = 'TrainingDivergedError';
  }
}

/** Slots per agent: the config's value, or the longest correct completion seen in the agent's view + EOS + 2. */
export function completionSlots(agent: Agent, task: Task, configured: number | null): number {
  const Tp = task.promptLength(agent.spec.view);
  const room = agent.model.cfg.blockSize - Tp + 1;
  if (configured !== null) {
    if (configured > room)
      throw new Error(
        `agent ${agent.spec.id}: maxNewTokens ${configured} does not fit its context (blockSize ${agent.model.cfg.blockSize}, prompt ${Tp} tokens): at most ${room}`,
      );
    return configured;
  }
  if (agent.base) return Math.min(agent.base.maxNewTokens + 2, room); // longest correct completion + EOS, + 2
  return Math.min(task.longestCompletion(agent.spec.view) + 1 + 2, room);
}

/** Refuse a cohort the trainer cannot train with `opts` (the reason names what to change). */
export function checkTrainerCohort(backend: Backend, agents: readonly Agent[], opts: TrainerOptions): void {
  if (agents.length === 0) throw new Error('a cohort needs at least one agent');
  if (opts.method === 'co-rl' && agents.length < 2) {
    throw new Error(
      `co-rl needs N >= 2 agents (each is graded by its ring predecessor, never itself); got N = ${agents.length}. Use ttrl for one agent.`,
    );
  }
  const tp =
    opts.method === 'co-rl' && opts.train.teacher !== 'ring'
      ? teacherModeProblem(opts.train.teacher, agents.length)
      : null;
  if (tp) throw new Error(`co-rl: ${tp}`);
  const fp = opts.method === 'co-rl-frozen' ? frozenTeacherProblem(opts.train.teacher, agents.length) : null;
  if (fp) throw new Error(`co-rl-frozen: ${fp}. Use ttrl for one agent.`);
  if (opts.train.samples < 2) throw new Error(`samples K must be >= 2, got ${opts.train.samples}`);
  const ids = agents.map((a) => a.spec.id);
  if (new Set(ids).size !== ids.length)
    throw new Error(`agent ids must be unique (random streams derive from them): ${ids.join(', ')}`);
  for (const a of agents) {
    if (a.model.backend !== backend) throw new Error(`agent ${a.spec.id} lives on another backend`);
    if (a.model.cfg.vocabSize !== a.tokenizer.vocabSize)
      throw new Error(
        `agent ${a.spec.id}: model vocabSize ${a.model.cfg.vocabSize} != tokenizer vocabSize ${a.tokenizer.vocabSize}`,
      );
  }
}
