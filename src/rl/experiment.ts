// An experiment: one or several reward methods trained side by side in lock step on their own copies of
// the same base agents, with the same prompt batches and the same per-agent seeds (every stream derives
// from the run seed, the agent id and the step, never from the method), so curves are directly
// comparable. Environment-free: agents come from a loader; records stream out through callbacks.
import type { Agent } from '../cohort/agent';
import type { Backend } from '../engine/backend';
import { releaseDecoders } from '../model/generate';
import type { Task } from '../tasks';
import type { ExperimentConfig } from './config';
import type { EvalRecord, StepRecord } from './records';
import type { RewardMethod } from './rewards';
import { summarize, type MethodSummary } from './summary';
import { CohortTrainer, TrainingDivergedError, type ModelsFactory } from './trainer';
import { regimeCheck, type RegimeReport } from './regime/measure';
import { rlTask } from './unseenPrompts';

/** Where an experiment stopped early, if it did. */
export interface ExperimentError {
  message: string;
  method?: RewardMethod;
  agent?: string;
  step?: number;
}

/** Everything a run produced (plain data, JSON-ready). */
export interface ExperimentResult {
  config: ExperimentConfig;
  backend: string;
  /** ISO time the run started. */
  startedAt: string;
  seconds: number;
  /** Training steps completed by every method. */
  completedSteps: number;
  steps: StepRecord[];
  evals: EvalRecord[];
  summary: MethodSummary[];
  error: ExperimentError | null;
  /** The regime check of the base agents at step 0, when `eval.regime` > 0 (docs/method.md, "The regime"). */
  regime?: RegimeReport;
}

export interface ExperimentHooks {
  onStep?(r: StepRecord): void;
  onEval?(r: EvalRecord): void;
  /** After each lock step (all methods) and evaluation: units done of the total. */
  onProgress?(done: number, total: number, note: string): void;
  /** Polled between lock steps; true stops the run (a partial result is returned). */
  shouldStop?(): boolean;
  /** Keep examples of completions in step records. */
  keepExamples?: boolean;
  /** Replace the task built from the config (tests use it to hide or corrupt the ground truth). */
  task?: Task;
  /**
   * Where the trainers' models run (a pool's factory, src/rl/pool); default: on `backend`. With a pool the
   * methods of a lock step run side by side; the records are the same, in the same order.
   */
  models?: ModelsFactory;
}

/** Steps at which the run evaluates: 0, every `every`, and the last. */
export function evalSteps(steps: number, every: number): number[] {
  const out = new Set<number>([0, steps]);
  if (every > 0) for (let s = every; s < steps; s += every) out.add(s);
  return [...out].sort((a, b) => a - b);
}

/**
 * Run `config` on `backend`: for every method a trainer on fresh agents from `loadAgents` (each call
 * must return new, independent copies of the same base agents), stepped in lock step. Errors (e.g. a
 * NaN loss) end the run with everything recorded so far and `error` set; they are not thrown.
 */
export async function runExperiment(
  backend: Backend,
  config: ExperimentConfig,
  loadAgents: () => Promise<Agent[]>,
  hooks: ExperimentHooks = {},
): Promise<ExperimentResult> {
  const t0 = performance.now();
  const task = hooks.task ?? rlTask(config);
  const result: ExperimentResult = {
    config,
    backend: `${backend.info.name} (${backend.info.adapter})`,
    startedAt: new Date().toISOString(),
    seconds: 0,
    completedSteps: 0,
    steps: [],
    evals: [],
    summary: [],
    error: null,
  };
  const at = evalSteps(config.steps, config.eval.every);
  const total = config.steps * config.methods.length + at.length * config.methods.length;
  let done = 0;
  const trainers: CohortTrainer[] = [];
  const agentSets: Agent[][] = [];
  let current: { method?: RewardMethod; step?: number } = {};
  try {
    for (const method of config.methods) {
      const agents = await loadAgents();
      agentSets.push(agents);
      trainers.push(
        new CohortTrainer(
          backend,
          agents,
          {
            method,
            seed: config.seed,
            task,
            train: config.train,
            eval: config.eval,
            keepExamples: hooks.keepExamples,
          },
          hooks.models,
        ),
      );
    }
    const evaluateAll = async (): Promise<void> => {
      let base: EvalRecord | null = null;
      for (const tr of trainers) {
        current = { method: tr.opts.method, step: tr.stepCount };
        // step 0: every method holds the same base agents and the eval seeds do not depend on the method
        const r: EvalRecord =
          tr.stepCount === 0 && base
            ? { ...structuredClone(base), method: tr.opts.method }
            : await tr.evaluate();
        if (tr.stepCount === 0) base ??= r;
        result.evals.push(r);
        hooks.onEval?.(r);
        hooks.onProgress?.(++done, total, `eval ${tr.opts.method} @${tr.stepCount}`);
      }
    };
    await evaluateAll();
    if ((config.eval.regime ?? 0) > 0) result.regime = await baseRegime(trainers[0].agents, task, config);
    for (let s = 1; s <= config.steps; s++) {
      if (hooks.shouldStop?.()) {
        result.error = { message: `stopped by request after step ${s - 1}` };
        break;
      }
      const record = (tr: CohortTrainer, r: StepRecord) => {
        result.steps.push(r);
        hooks.onStep?.(r);
        hooks.onProgress?.(++done, total, `${tr.opts.method} step ${s}`);
      };
      if (hooks.models) {
        // every method's step at once; the records (and the first failure) in method order
        const settled = await Promise.allSettled(trainers.map((tr) => tr.step()));
        for (const [i, x] of settled.entries()) {
          current = { method: trainers[i].opts.method, step: s };
          if (x.status === 'rejected') throw x.reason;
          record(trainers[i], x.value);
        }
      } else
        for (const tr of trainers) {
          current = { method: tr.opts.method, step: s };
          record(tr, await tr.step());
        }
      result.completedSteps = s;
      if (at.includes(s)) await evaluateAll();
    }
  } catch (e) {
    const err = e as Error;
    result.error = {
      message: err.message ?? String(e),
      method: current.method,
      step: e instanceof TrainingDivergedError ? e.step : current.step,
      agent: e instanceof TrainingDivergedError ? e.agent : undefined,
    };
  } finally {
    for (const tr of trainers) tr.dispose();
    for (const set of agentSets)
      for (const a of set) {
        releaseDecoders(a.model);
        a.model.free();
      }
  }
  result.summary = summarize(config.methods, result.steps, result.evals);
  result.seconds = (performance.now() - t0) / 1000;
  return result;
}

/**
 * The regime check of base agents as a run records it at step 0: `eval.regime` validation problems at the
 * rollout K and temperature, seed 1 (the regime CLI's default, whatever the run seed: it describes the base
 * agents, not the run), so the figures equal `npm run regime` on the same cohort.
 */
export function baseRegime(
  agents: readonly Agent[],
  task: Task,
  config: ExperimentConfig,
  onAgent?: (id: string, done: number, total: number) => void,
): Promise<RegimeReport> {
  const n = config.eval.regime ?? 0;
  return regimeCheck(agents, task.heldOut('validation', n), 'validation', {
    K: config.train.samples,
    temperature: config.train.temperature,
    seed: 1,
    onAgent,
  });
}
