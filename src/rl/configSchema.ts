// The rules of an experiment config's fields, in the schema layer (src/schema/): the train and eval
// sections, the top-level fields and the cohort's shape. Cross-field checks (co-rl's N >= 2, the teacher,
// checkpoints) are config.ts's.
import * as v from 'valibot';
import type { AgentSpec } from '../cohort/agent';
import {
  eachField,
  int,
  isObj,
  nonEmpty,
  num,
  oneOf,
  problemsWith,
  show,
  text,
  unknownFields,
} from '../schema';
import type { Fields } from '../schema';
import type { LossType } from './grpo';
import type { ScaleRewards } from './advantages';
import { TEACHER_MODES } from './coLabeling';
import {
  PROMPT_SOURCES,
  REWARD_METHODS,
  type CohortRef,
  type EvalConfig,
  type TrainConfig,
} from './configTypes';

const LOSS_TYPES: readonly LossType[] = ['grpo', 'bnpo', 'dr_grpo'];
const SCALES: readonly ScaleRewards[] = ['group', 'batch', 'none'];

const intMsg = (lo: number, hi: number) => (i: v.BaseIssue<unknown>) =>
  `must be an integer in [${lo}, ${hi}], got ${show(i.input)}`;

/** K >= 2, said with why when it is 0 or 1: a group of fewer samples has no reward std. */
const samples = v.pipe(
  v.number(intMsg(2, 1024)),
  v.integer(intMsg(2, 1024)),
  v.check(
    (k) => k < 0 || k >= 2,
    (i) =>
      `must be >= 2 (a group of ${show(i.input)} sample${i.input === 1 ? '' : 's'} has no reward std, so no advantage), got ${show(i.input)}`,
  ),
  v.minValue(2, intMsg(2, 1024)),
  v.maxValue(1024, intMsg(2, 1024)),
);

export const TRAIN_FIELDS: Fields<TrainConfig> = {
  batchPrompts: int(1, 4096),
  samples,
  temperature: num(0, 10, true),
  maxNewTokens: v.nullable(int(1, 4096)),
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
  prompts: oneOf(PROMPT_SOURCES),
  rowsPerPass: int(1, 1 << 20),
};

const regimeMsg = (i: v.BaseIssue<unknown>) =>
  `must be 0 (no regime check) or an integer in [10, 100000] (validation problems of the step-0 regime check), got ${show(i.input)}`;

export const EVAL_FIELDS: Fields<EvalConfig> = {
  every: int(0),
  problems: int(1, 100000),
  ensembleSamples: int(1, 64),
  temperature: num(0, 10, true),
  portraitSamples: int(0, 64),
  regime: v.pipe(
    v.number(regimeMsg),
    v.integer(regimeMsg),
    v.check((n) => n === 0 || (n >= 10 && n <= 100000), regimeMsg),
  ),
  split: oneOf(['test', 'validation']),
};

/** The run seed and an agent's seed: a 32-bit unsigned integer. */
export const SEED = int(0, 0xffffffff);
export const STEPS = int(1, 1_000_000);
export const NAME = text('a string');
export const METHODS = v.pipe(
  v.array(v.unknown(), (i) => methodsMsg(i.input)),
  v.nonEmpty((i) => methodsMsg(i.input)),
  v.array(oneOf(REWARD_METHODS)),
);
function methodsMsg(x: unknown): string {
  return `must be a non-empty array of ${REWARD_METHODS.map((m) => `'${m}'`).join(' | ')}, got ${show(x)}`;
}

const SPEC_FIELDS = [
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
/** The fields of an agent spec the config checks itself (the rest are the agent's: cohort/axes.ts). */
const AGENT = {
  id: nonEmpty(),
  family: nonEmpty(),
  size: nonEmpty(),
  view: nonEmpty(),
  seed: SEED,
  checkpoint: v.optional(text('a path string')),
};

const listMsg = (i: v.BaseIssue<unknown>) => `must be a non-empty array of agent specs, got ${show(i.input)}`;
const AGENT_LIST = v.pipe(v.array(v.unknown(), listMsg), v.nonEmpty(listMsg));

/** The cohort section's shape: a preset name, or a non-empty list of agent specs; pushes "cohort...: why". */
export function checkCohortShape(raw: unknown, errs: string[]): CohortRef | null {
  if (!isObj(raw)) {
    errs.push(`cohort: must be { "preset": NAME } or { "agents": [AgentSpec, ...] }, got ${show(raw)}`);
    return null;
  }
  errs.push(
    ...unknownFields(raw, 'cohort', ['preset', 'agents'], () => 'unknown field (allowed: preset | agents)'),
  );
  if ('preset' in raw === 'agents' in raw) {
    errs.push('cohort: give exactly one of "preset" or "agents"');
    return null;
  }
  if ('preset' in raw) {
    const p = problemsWith(nonEmpty('a preset name'), raw.preset, 'cohort.preset');
    errs.push(...p);
    return p.length ? null : { preset: raw.preset as string };
  }
  const list = problemsWith(AGENT_LIST, raw.agents, 'cohort.agents');
  if (list.length) {
    errs.push(...list);
    return null;
  }
  const agents = raw.agents as unknown[];
  const before = errs.length;
  agents.forEach((a, i) => {
    const at = `cohort.agents[${i}]`;
    if (!isObj(a)) errs.push(`${at}: must be an object, got ${show(a)}`);
    else errs.push(...unknownFields(a, at, SPEC_FIELDS), ...eachField(a, at, AGENT));
  });
  return errs.length === before ? { agents: agents as AgentSpec[] } : null;
}
