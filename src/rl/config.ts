// Experiment configuration: a typed object with defaults (one comment per field, nanoGPT style) and a
// validator that lists EVERY problem at once, naming the field. Documented in docs/experiment-config.md.
// Hyperparameter defaults follow docs/method.md ("One training step") and the public Co-RL launchers (beta 0, eps_clip 0.2).
import type { AgentSpec } from '../cohort/agent';
import { validateTaskConfig, type TaskConfig } from '../tasks';
import type { LossType } from './grpo';
import type { RewardMethod } from './rewards';
import type { ScaleRewards } from './advantages';
import { frozenTeacherProblem, TEACHER_MODES, teacherModeProblem, type TeacherMode } from './coLabeling';

/** All reward methods, in display order. */
export const REWARD_METHODS: readonly RewardMethod[] = [
  'co-rl',
  'ttrl',
  'gt',
  'intuitor',
  'rent',
  'random',
  'co-rl-frozen',
];
const LOSS_TYPES: readonly LossType[] = ['grpo', 'bnpo', 'dr_grpo'];
const SCALES: readonly ScaleRewards[] = ['group', 'batch', 'none'];

/** Which agents to train: a named cohort preset, or an explicit list of agent specs with checkpoints. */
export type CohortRef = { preset: string } | { agents: AgentSpec[] };

/** The training hyperparameters shared by every method of an experiment. */
export interface TrainConfig {
  /** Prompts per step B (the same prompts, in the same order, for every agent). */
  batchPrompts: number;
  /** Samples per prompt K (>= 2: a group needs two rewards to have a std). */
  samples: number;
  /** Rollout sampling temperature T (docs/method.md default 1.0). */
  temperature: number;
  /** Completion slots per rollout; null = the longest correct completion of the task in the agent's view + EOS + 2. */
  maxNewTokens: number | null;
  /** Vote threshold tau in [0, 1]: a prompt is unlabeled when the top answer's share is below it. */
  tau: number;
  /** Advantage scaling: 'group' (default) | 'batch' | 'none'. */
  scaleRewards: ScaleRewards;
  /** Loss aggregation: 'grpo' (paper Eq. 5, default) | 'bnpo' | 'dr_grpo'. */
  lossType: LossType;
  /** PPO clip range eps_clip. */
  epsClip: number;
  /** KL coefficient beta against the frozen base (default 0 as in the public Co-RL launchers). */
  beta: number;
  /** Optimizer passes over the same rollouts (1 = on-policy, rho = 1, no clipping). */
  innerEpochs: number;
  /** AdamW learning rate (constant after warmup). */
  lr: number;
  /** Linear learning-rate warmup steps. */
  warmupSteps: number;
  /** AdamW beta1. */
  beta1: number;
  /** AdamW beta2. */
  beta2: number;
  /** AdamW epsilon. */
  adamEps: number;
  /** AdamW decoupled weight decay. */
  weightDecay: number;
  /** Global gradient-norm clip (0 = off). */
  maxGradNorm: number;
  /** Estimate KL to the base every this many steps when beta = 0 (1 = every step; beta > 0 forces 1). */
  klEvery: number;
  /** co-rl's (and co-rl-frozen's) teacher: 'ring' (the paper) | 'strict_majority' | 'self_plus_peers' | 'union' (N >= 3; extensions, not in the paper; co-rl-frozen refuses 'self_plus_peers'). */
  teacher: TeacherMode;
}

/** Held-out evaluation settings. */
export interface EvalConfig {
  /** Evaluate every this many steps (0 = only before the first and after the last step). */
  every: number;
  /** Held-out problems (a prefix of the split's fixed order; never used for training). */
  problems: number;
  /**
   * Which held-out split: 'test' (absent; every reported figure) or 'validation' (choosing a recipe, a
   * learning rate, a step count: docs/method.md ("Natural diversity")). Both are disjoint from the train split RL prompts come from.
   */
  split?: 'test' | 'validation';
  /** Samples per agent pooled into the cohort ensemble vote (the paper's maj@8 uses 4 per agent). */
  ensembleSamples: number;
  /** Temperature of those samples (the paper evaluates at 0.6). */
  temperature: number;
  /** S: samples per agent and held-out problem at the rollout temperature, for the live phase portrait (0 = off; the Train view's default is 8). */
  portraitSamples: number;
  /**
   * The regime check of the base agents at step 0 (docs/method.md, "The regime"; src/rl/regime/measure.ts):
   * this many validation problems at the rollout K and temperature, seed 1, kept beside the run's records
   * (absent or 0 = off: Node experiments leave it off to stay fast; the Train view sets it, default 400).
   */
  regime?: number;
}

/** A whole experiment: one or several methods on the same base agents, prompts and seeds, in lock step. */
export interface ExperimentConfig {
  /** A label for the run. */
  name: string;
  /** Run seed: every random stream (prompts, each agent's sampling, evaluation) is derived from it. */
  seed: number;
  /** Training steps per method. */
  steps: number;
  /** Reward methods run side by side; each gets its own copies of the base agents. */
  methods: RewardMethod[];
  /** The agents. */
  cohort: CohortRef;
  /** The task; null = the cohort preset's task. */
  task: TaskConfig | null;
  train: TrainConfig;
  eval: EvalConfig;
}

/** Defaults of the training hyperparameters. */
export const DEFAULT_TRAIN: Readonly<TrainConfig> = {
  batchPrompts: 16,
  samples: 8,
  temperature: 1.0,
  maxNewTokens: null,
  tau: 0,
  scaleRewards: 'group',
  lossType: 'grpo',
  epsClip: 0.2,
  beta: 0,
  innerEpochs: 1,
  lr: 1e-4,
  warmupSteps: 0,
  beta1: 0.9,
  beta2: 0.95,
  adamEps: 1e-8,
  weightDecay: 0,
  maxGradNorm: 1,
  klEvery: 1,
  teacher: 'ring',
};

/** Defaults of evaluation. */
export const DEFAULT_EVAL: Readonly<EvalConfig> = {
  every: 10,
  problems: 200,
  ensembleSamples: 4,
  temperature: 0.6,
  portraitSamples: 0,
};

/** What a validator may ask of the environment (cohort presets, checkpoint files); both optional. */
export interface ValidationEnv {
  /** Agent specs (and default task) of a cohort section, or the problems with it. */
  resolveCohort?(c: CohortRef): { specs: AgentSpec[]; task?: TaskConfig } | { errors: string[] };
  /** Problems with an agent's checkpoint: missing, unreadable, family or config mismatch; [] if fine. */
  checkCheckpoint?(spec: AgentSpec): string[];
}

/** Thrown for an invalid experiment config; `problems` lists every problem, each naming its field. */
export class ExperimentConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(
      `invalid experiment config (${problems.length} problem${problems.length === 1 ? '' : 's'}):\n  - ${problems.join('\n  - ')}`,
    );
    this.name = 'ExperimentConfigError';
  }
}

const TOP_FIELDS = ['name', 'seed', 'steps', 'methods', 'cohort', 'task', 'train', 'eval'];
const isObj = (x: unknown): x is Record<string, unknown> =>
  typeof x === 'object' && x !== null && !Array.isArray(x);
const show = (x: unknown): string => JSON.stringify(x) ?? String(x);

type Check = (v: unknown) => string | null;
const int =
  (min: number, max = Number.MAX_SAFE_INTEGER): Check =>
  (v) =>
    typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max
      ? null
      : `must be an integer in [${min}, ${max === Number.MAX_SAFE_INTEGER ? 'inf' : max}], got ${show(v)}`;
const num =
  (lo: number, hi: number, loOpen = false, hiOpen = false): Check =>
  (v) =>
    typeof v === 'number' && Number.isFinite(v) && (loOpen ? v > lo : v >= lo) && (hiOpen ? v < hi : v <= hi)
      ? null
      : `must be a number in ${loOpen ? '(' : '['}${lo}, ${hi === Infinity ? 'inf' : hi}${hiOpen ? ')' : ']'}, got ${show(v)}`;
const oneOf =
  (vals: readonly string[]): Check =>
  (v) =>
    typeof v === 'string' && vals.includes(v)
      ? null
      : `must be one of ${vals.map((x) => `'${x}'`).join(' | ')}, got ${show(v)}`;

const TRAIN_CHECKS: Record<keyof TrainConfig, Check> = {
  batchPrompts: int(1, 4096),
  samples: (v) =>
    typeof v === 'number' && Number.isInteger(v) && v < 2 && v >= 0
      ? `must be >= 2 (a group of ${v} sample${v === 1 ? '' : 's'} has no reward std, so no advantage), got ${v}`
      : int(2, 1024)(v),
  temperature: num(0, 10, true),
  maxNewTokens: (v) => (v === null ? null : int(1, 4096)(v)),
  tau: num(0, 1),
  scaleRewards: oneOf(SCALES),
  lossType: oneOf(LOSS_TYPES),
  epsClip: num(0, 1, false, true),
  beta: num(0, Infinity),
  innerEpochs: int(1, 64),
  lr: num(0, 1, true),
  warmupSteps: int(0),
  beta1: num(0, 1, false, true),
  beta2: num(0, 1, false, true),
  adamEps: num(0, 1, true),
  weightDecay: num(0, 1),
  maxGradNorm: num(0, Infinity),
  klEvery: int(1),
  teacher: oneOf(TEACHER_MODES),
};
const EVAL_CHECKS: Record<keyof EvalConfig, Check> = {
  every: int(0),
  problems: int(1, 100000),
  ensembleSamples: int(1, 64),
  temperature: num(0, 10, true),
  portraitSamples: int(0, 64),
  regime: (v) =>
    v === 0 || (typeof v === 'number' && Number.isInteger(v) && v >= 10 && v <= 100000)
      ? null
      : `must be 0 (no regime check) or an integer in [10, 100000] (validation problems of the step-0 regime check), got ${show(v)}`,
  split: oneOf(['test', 'validation']),
};

/** Validate one section of flat fields against its checks, filling defaults; pushes `section.field: ...` errors. */
function section<T extends object>(
  raw: unknown,
  name: string,
  defaults: Readonly<T>,
  checks: Record<keyof T, Check>,
  errs: string[],
): T {
  const out = { ...defaults } as T;
  if (raw === undefined) return out;
  if (!isObj(raw)) {
    errs.push(`${name}: must be an object, got ${show(raw)}`);
    return out;
  }
  for (const [k, v] of Object.entries(raw)) {
    if (!(k in checks)) {
      errs.push(`${name}.${k}: unknown field (allowed: ${Object.keys(checks).join(', ')})`);
      continue;
    }
    const e = checks[k as keyof T](v);
    if (e) errs.push(`${name}.${k}: ${e}`);
    else (out as Record<string, unknown>)[k] = v;
  }
  return out;
}

function checkCohortShape(raw: unknown, errs: string[]): CohortRef | null {
  if (!isObj(raw)) {
    errs.push(`cohort: must be { "preset": NAME } or { "agents": [AgentSpec, ...] }, got ${show(raw)}`);
    return null;
  }
  const keys = Object.keys(raw);
  for (const k of keys)
    if (k !== 'preset' && k !== 'agents') errs.push(`cohort.${k}: unknown field (allowed: preset | agents)`);
  if ('preset' in raw === 'agents' in raw) {
    errs.push('cohort: give exactly one of "preset" or "agents"');
    return null;
  }
  if ('preset' in raw) {
    if (typeof raw.preset !== 'string' || raw.preset === '') {
      errs.push(`cohort.preset: must be a preset name, got ${show(raw.preset)}`);
      return null;
    }
    return { preset: raw.preset };
  }
  if (!Array.isArray(raw.agents) || raw.agents.length === 0) {
    errs.push(`cohort.agents: must be a non-empty array of agent specs, got ${show(raw.agents)}`);
    return null;
  }
  const specFields = [
    'id',
    'family',
    'size',
    'seed',
    'view',
    'checkpoint',
    'arch',
    'tokenizer',
    'corpus',
    'recipe',
  ];
  const before = errs.length;
  raw.agents.forEach((a: unknown, i: number) => {
    const at = `cohort.agents[${i}]`;
    if (!isObj(a)) {
      errs.push(`${at}: must be an object, got ${show(a)}`);
      return;
    }
    for (const k of Object.keys(a))
      if (!specFields.includes(k)) errs.push(`${at}.${k}: unknown field (allowed: ${specFields.join(', ')})`);
    for (const k of ['id', 'family', 'size', 'view']) {
      if (typeof a[k] !== 'string' || a[k] === '')
        errs.push(`${at}.${k}: must be a non-empty string, got ${show(a[k])}`);
    }
    const es = int(0, 0xffffffff)(a.seed);
    if (es) errs.push(`${at}.seed: ${es}`);
    if (a.checkpoint !== undefined && typeof a.checkpoint !== 'string')
      errs.push(`${at}.checkpoint: must be a path string, got ${show(a.checkpoint)}`);
  });
  const ok = errs.length === before;
  return ok ? { agents: raw.agents as AgentSpec[] } : null;
}

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
  for (const k of Object.keys(raw))
    if (!TOP_FIELDS.includes(k)) errs.push(`${k}: unknown field (allowed: ${TOP_FIELDS.join(', ')})`);
  const name = raw.name === undefined ? 'experiment' : raw.name;
  if (typeof name !== 'string') errs.push(`name: must be a string, got ${show(name)}`);
  const seed = raw.seed === undefined ? 1 : raw.seed;
  const es = int(0, 0xffffffff)(seed);
  if (es) errs.push(`seed: ${es}`);
  const esteps = int(1, 1_000_000)(raw.steps);
  if (esteps) errs.push(`steps: ${raw.steps === undefined ? 'missing (an integer >= 1)' : esteps}`);
  let methods: RewardMethod[] = [];
  if (!Array.isArray(raw.methods) || raw.methods.length === 0) {
    errs.push(
      `methods: must be a non-empty array of ${REWARD_METHODS.map((m) => `'${m}'`).join(' | ')}, got ${show(raw.methods)}`,
    );
  } else {
    raw.methods.forEach((m: unknown, i: number) => {
      const e = oneOf(REWARD_METHODS as string[])(m);
      if (e) errs.push(`methods[${i}]: ${e}`);
    });
    methods = raw.methods.filter((m: unknown) => (REWARD_METHODS as unknown[]).includes(m)) as RewardMethod[];
    const dup = methods.filter((m, i) => methods.indexOf(m) !== i);
    if (dup.length) errs.push(`methods: ${dup.map((d) => `'${d}'`).join(', ')} listed twice`);
  }
  const task = raw.task === undefined || raw.task === null ? null : (raw.task as TaskConfig);
  if (task !== null) for (const e of validateTaskConfig(task)) errs.push(`task: ${e}`);
  const train = section(raw.train, 'train', DEFAULT_TRAIN, TRAIN_CHECKS, errs);
  const ev = section(raw.eval, 'eval', DEFAULT_EVAL, EVAL_CHECKS, errs);
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
