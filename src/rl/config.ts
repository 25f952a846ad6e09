// Experiment configuration: its parse, listing EVERY problem at once, naming the field (docs/experiment-config.md).
// The shape and defaults are configTypes.ts, the field rules configSchema.ts (the schema layer, src/schema/);
// here are the checks across fields and against the environment (presets, checkpoints).
import type { AgentSpec } from '../cohort/agent';
import { checkFields, InputError, isObj, problemsWith, show, unknownFields } from '../schema';
import { validateTaskConfig, type TaskConfig } from '../tasks';
import type { RewardMethod } from './rewards';
import { frozenTeacherProblem, teacherModeProblem } from './coLabeling';
import {
  DEFAULT_EVAL,
  DEFAULT_TRAIN,
  REWARD_METHODS,
  type ExperimentConfig,
  type ValidationEnv,
} from './configTypes';
import { checkCohortShape, EVAL_FIELDS, METHODS, NAME, SEED, STEPS, TRAIN_FIELDS } from './configSchema';

export * from './configTypes';

/** Thrown for an invalid experiment config; `problems` lists every problem, each naming its field. */
export class ExperimentConfigError extends InputError {
  constructor(problems: string[]) {
    super(problems, 'experiment config');
    this.name = 'ExperimentConfigError';
  }
}

const TOP_FIELDS = ['name', 'seed', 'steps', 'methods', 'cohort', 'task', 'train', 'eval'];

/**
 * Validate an experiment config (any value, e.g. parsed JSON) and fill its defaults. Returns the
 * resolved config and the agents' specs, or every problem found (unknown fields, wrong types,
 * impossible values, co-rl with one agent, missing or mismatched checkpoints through `env`).
 */
export function parseExperimentConfig(
  raw: unknown,
  env: ValidationEnv = {},
): { ok: true; config: ExperimentConfig; specs: AgentSpec[] | null } | { ok: false; errors: string[] } {
  const errs: string[] = [];
  if (!isObj(raw)) return { ok: false, errors: [`config must be a JSON object, got ${show(raw)}`] };
  errs.push(...unknownFields(raw, '', TOP_FIELDS));
  const name = raw.name === undefined ? 'experiment' : raw.name;
  errs.push(...problemsWith(NAME, name, 'name'));
  const seed = raw.seed === undefined ? 1 : raw.seed;
  errs.push(...problemsWith(SEED, seed, 'seed'));
  if (raw.steps === undefined) errs.push('steps: missing (an integer >= 1)');
  else errs.push(...problemsWith(STEPS, raw.steps, 'steps'));
  let methods: RewardMethod[] = [];
  errs.push(...problemsWith(METHODS, raw.methods, 'methods'));
  if (Array.isArray(raw.methods) && raw.methods.length > 0) {
    methods = raw.methods.filter((m: unknown) => (REWARD_METHODS as unknown[]).includes(m)) as RewardMethod[];
    const dup = methods.filter((m, i) => methods.indexOf(m) !== i);
    if (dup.length) errs.push(`methods: ${dup.map((d) => `'${d}'`).join(', ')} listed twice`);
  }
  const task = raw.task === undefined || raw.task === null ? null : (raw.task as TaskConfig);
  if (task !== null) for (const e of validateTaskConfig(task)) errs.push(`task: ${e}`);
  const train = checkFields(raw.train, 'train', DEFAULT_TRAIN, TRAIN_FIELDS, errs);
  const ev = checkFields(raw.eval, 'eval', DEFAULT_EVAL, EVAL_FIELDS, errs);
  if (train.beta > 0 && train.klEvery !== 1)
    errs.push(
      `train.klEvery: must be 1 when train.beta > 0 (the KL term needs the reference every step), got ${train.klEvery}`,
    );

  const cohort = checkCohortShape(raw.cohort, errs);
  let specs: AgentSpec[] | null = cohort && 'agents' in cohort ? cohort.agents : null;
  let presetTask: TaskConfig | undefined;
  if (cohort && env.resolveCohort) {
    const r = env.resolveCohort(cohort);
    if ('errors' in r) for (const e of r.errors) errs.push(`cohort: ${e}`);
    else {
      specs = r.specs;
      presetTask = r.task;
    }
  }
  if (specs) {
    const ids = specs.map((s) => s.id);
    const dupIds = ids.filter((id, i) => ids.indexOf(id) !== i);
    if (dupIds.length)
      errs.push(
        `cohort: agent ids must be unique (each agent's random streams derive from its id); duplicated: ${dupIds.join(', ')}`,
      );
    if (methods.includes('co-rl') && specs.length < 2) {
      errs.push(
        `methods: 'co-rl' needs N >= 2 agents (each agent is graded by its ring predecessor, never itself); the cohort has N = ${specs.length}. Use 'ttrl' for one agent.`,
      );
    }
    if (methods.includes('co-rl-frozen') && specs.length < 2) {
      errs.push(
        `methods: 'co-rl-frozen' needs N >= 2 agents (each agent is graded by its ring predecessor's frozen base copy, never its own); the cohort has N = ${specs.length}. Use 'ttrl' for one agent.`,
      );
    }
    const tp = train.teacher === 'ring' ? null : teacherModeProblem(train.teacher, specs.length);
    if (tp) errs.push(`train.teacher: ${tp}`);
    else if (methods.includes('co-rl-frozen') && train.teacher === 'self_plus_peers')
      errs.push(`train.teacher: ${frozenTeacherProblem(train.teacher, specs.length)}`);
    if (env.checkCheckpoint)
      specs.forEach((s, i) =>
        env.checkCheckpoint!(s).forEach((e) => errs.push(`cohort agent ${i} (${s.id}): ${e}`)),
      );
  }
  if (task === null && cohort && 'agents' in cohort)
    errs.push('task: missing (required when the cohort is given as an agent list)');
  if (cohort && 'preset' in cohort && env.resolveCohort && task === null && !presetTask && specs)
    errs.push('task: missing, and the preset defines none');
  if (errs.length) return { ok: false, errors: errs };
  const config: ExperimentConfig = {
    name: name as string,
    seed: seed as number,
    steps: raw.steps as number,
    methods,
    cohort: cohort!,
    task: task ?? presetTask ?? null,
    train,
    eval: ev,
  };
  return { ok: true, config, specs };
}

/** {@link parseExperimentConfig} that throws an {@link ExperimentConfigError} listing every problem. */
export function assertExperimentConfig(
  raw: unknown,
  env: ValidationEnv = {},
): { config: ExperimentConfig; specs: AgentSpec[] | null } {
  const r = parseExperimentConfig(raw, env);
  if (!r.ok) throw new ExperimentConfigError(r.errors);
  return { config: r.config, specs: r.specs };
}
