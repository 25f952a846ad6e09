// Where an RL run's prompts come from (`train.prompts`, docs/experiment-config.md). By default ('train') the
// trainer draws from the whole train split, which is also where every base agent's pretraining pool was drawn
// from: on the natural tasks the pool is a fixed 20,000-problem sample of the train split (src/cohort/regions.ts,
// MAX_POOL), so many RL prompts are problems the agents pretrained on (on graded `mulw` 3,2, 71% of the prompts
// gate B's runs drew: every problem with a 1-digit a, 92% of those with 2 digits, 22% with 3). With 'unseen' the
// trainer draws only train problems outside every agent's pretraining pool (its training problems and its
// validation slice): new, unlabelled problems, as the paper's RL prompts are. The task's own distribution,
// conditioned on being unseen.
import { getFamily, recipePool, type AgentSpec } from '../cohort';
import { makeTask, type Problem, type Task, type TaskConfig } from '../tasks';
import { deriveRng, type Rng } from '../util/rng';
import { stable } from './canonical';
import { resolveCohortRef } from './cohortEnv';
import type { ExperimentConfig } from './configTypes';

/** Rounds of the task's own draw a batch of unseen prompts may take before it gives up. */
const MAX_ROUNDS = 64;

/** Keys of every problem any of `specs` could have pretrained on (or early-stopped by): the union of their pools. */
export function pretrainingKeys(task: TaskConfig, specs: readonly AgentSpec[]): Set<string> {
  const keys = new Set<string>();
  for (const pool of new Set(
    specs.map((s) => recipePool(task, { ...getFamily(s.family).recipe, ...s.recipe })),
  ))
    for (const p of [...pool.training, ...pool.validation]) keys.add(p.key);
  return keys;
}

/**
 * `task` whose `sampleTrain` draws only problems whose keys are not in `seen`: distinct problems of the
 * train split, in the task's own distribution conditioned on being unseen. Refuses (with what to do) when
 * the pools cover the train split so far that a batch cannot be found.
 */
export function withUnseenPrompts(task: Task, seen: ReadonlySet<string>, batch: number): Task {
  const why = (found: string): Error =>
    new Error(
      `train.prompts 'unseen': the base agents' pretraining pools cover ${found} of the train split of ${task.name}, ` +
        `so a batch of ${batch} unseen prompts cannot be drawn. Use train.prompts 'train' (every train problem), a ` +
        `smaller train.batchPrompts, or a task with a larger problem space.`,
    );
  let unseen: number | undefined;
  if (task.sizes.exact) {
    const all = task.sampleTrain(deriveRng(0, 'unseen-prompts-count'), task.sizes.rl ?? task.sizes.train);
    unseen = all.filter((p) => !seen.has(p.key)).length;
    if (unseen < batch) throw why(`all but ${unseen}`);
  }
  const sampleTrain = (rng: Rng, n: number): Problem[] => {
    const out: Problem[] = [];
    const got = new Set<string>();
    for (let round = 0; out.length < n; round++) {
      if (round >= MAX_ROUNDS) throw why(`so much (${out.length} of ${n} unseen found in ${round} draws)`);
      for (const p of task.sampleTrain(rng, n)) {
        if (seen.has(p.key) || got.has(p.key)) continue;
        got.add(p.key);
        out.push(p);
        if (out.length === n) break;
      }
    }
    return out;
  };
  return { ...task, sizes: { ...task.sizes, rl: unseen ?? task.sizes.rl }, sampleTrain };
}

/** The task config and agent specs of `config` (a shipped preset brings both; agents by axes need no checkpoint here). */
function resolveRun(config: ExperimentConfig): { task: TaskConfig; specs: readonly AgentSpec[] } {
  const r = 'agents' in config.cohort ? { specs: config.cohort.agents } : resolveCohortRef(config.cohort);
  if ('errors' in r) throw new Error(`the cohort's agents: ${r.errors.join('; ')}`);
  const task = config.task ?? ('task' in r ? r.task : undefined);
  if (!task) throw new Error('the experiment has no task (config.task is null and the cohort defined none)');
  return { task, specs: r.specs };
}

/** The task an experiment's trainers draw their prompts from (`train.prompts`); a shipped preset's task when null. */
export function rlTask(config: ExperimentConfig): Task {
  if (config.train.prompts !== 'unseen') {
    if (config.task) return makeTask(config.task); // as before the option: no cohort needed
    return makeTask(resolveRun(config).task);
  }
  let run: ReturnType<typeof resolveRun>;
  try {
    run = resolveRun(config);
  } catch (e) {
    throw new Error(`train.prompts 'unseen' needs ${(e as Error).message}`, { cause: e });
  }
  return withUnseenPrompts(
    makeTask(run.task),
    pretrainingKeys(run.task, run.specs),
    config.train.batchPrompts,
  );
}

const checked = new Map<string, string | null>();

/** Why `config` cannot draw unseen prompts (the message of `rlTask`), or null; remembered per task, cohort and B. */
export function unseenPromptsProblem(config: ExperimentConfig): string | null {
  const key = stable({ task: config.task, cohort: config.cohort, batch: config.train.batchPrompts });
  if (!checked.has(key))
    try {
      rlTask({ ...config, train: { ...config.train, prompts: 'unseen' } });
      checked.set(key, null);
    } catch (e) {
      checked.set(key, (e as Error).message);
    }
  return checked.get(key)!;
}

/** The prompts every agent of a run is shown at step `s` (1-based): the trainer's draw, in one place. */
export function stepPrompts(task: Task, seed: number, s: number, batch: number): Problem[] {
  return task.sampleTrain(deriveRng(seed, 'prompts', s), batch);
}

const shares = new Map<string, number>();

/**
 * The share of the prompts a run of `config` draws in its first `steps` steps that are problems its agents
 * pretrained on (their pools): what `train.prompts: 'unseen'` takes to 0. Remembered per task, cohort, B and seed.
 */
export function seenPromptShare(config: ExperimentConfig, steps = 20): number {
  if (config.train.prompts === 'unseen') return 0;
  const key = stable({
    task: config.task,
    cohort: config.cohort,
    b: config.train.batchPrompts,
    seed: config.seed,
    steps,
  });
  let share = shares.get(key);
  if (share === undefined) {
    const run = resolveRun(config);
    const task = makeTask(run.task);
    const seen = pretrainingKeys(run.task, run.specs);
    let n = 0;
    let hit = 0;
    for (let s = 1; s <= steps; s++)
      for (const p of stepPrompts(task, config.seed, s, config.train.batchPrompts)) {
        n++;
        if (seen.has(p.key)) hit++;
      }
    share = hit / n;
    shares.set(key, share);
  }
  return share;
}

/** Shares below this are not worth a line. */
const QUIET_BELOW = 0.05;

/**
 * One line on how many of a run's first RL prompts its agents pretrained on, with what to do about it; null when
 * under 5%, when `train.prompts` is 'unseen', or when the share cannot be measured. For notices before a run (`npm run sweep`, `npm run regime`).
 */
export function promptsNote(config: ExperimentConfig, steps = 20): string | null {
  let share: number;
  try {
    share = seenPromptShare(config, steps);
  } catch {
    return null; // a note never stops what it is about: the run's own checks name what is wrong
  }
  if (share < QUIET_BELOW) return null;
  const fix =
    unseenPromptsProblem(config) === null
      ? "train.prompts 'unseen' draws only new ones (docs/experiment-config.md)"
      : "'unseen' cannot draw here: the agents' pools cover the train split";
  return `${Math.round(share * 100)}% of the RL prompts (first ${steps} steps) are problems the agents pretrained on; ${fix}`;
}
