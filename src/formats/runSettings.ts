// The Train view's run settings (preset, methods, hyperparameters; defaults from src/rl/config.ts) as plain
// data, and their conversion into an ExperimentConfig with every problem named per field (src/rl/config.ts
// validator). Links, run files and the config editor carry them (urlConfig.ts, runFile.ts); the store's
// slice holding them is src/store/runConfigSlice.ts.

import { poolSizeProblems } from '../rl/pool/poolModels';
import * as v from 'valibot';
import { reasonWith } from '../schema';
import type { ScaleRewards } from '../rl/advantages';
import { DEFAULT_EVAL, DEFAULT_TRAIN, parseExperimentConfig, type ExperimentConfig } from '../rl/config';
import type { LossType } from '../rl/grpo';
import { frozenTeacherProblem, teacherModeProblem, type TeacherMode } from '../rl/coLabeling';
import type { RewardMethod } from '../rl/rewards';
import { isNaturalPreset, naturalPreset, naturalPresetSpecs } from '../cohort/naturalPresets';
import { COMPOSE_TASK_NAMES, composeTask } from './composeAxes';
import { customAgentProblems, customAgentSpecs, type CohortContext, type CustomAgent } from './customCohort';
import {
  FILE_TASK,
  fileTaskOf,
  settingsTaskFile,
  taskFileLoaded,
  taskFileProblem,
  taskFileRefProblem,
  type TaskFileRef,
} from './taskFileTask';
import type { TaskConfig } from '../tasks';
import { PROMPT_SOURCES, type PromptSource } from '../rl/configTypes';
import { unseenPromptsProblem } from '../rl/unseenPrompts';

/** The training worker's backend choices ('auto': WebGPU when available, else wasm SIMD, else the CPU backend). */
export const TRAIN_BACKENDS = ['auto', 'webgpu', 'wasm', 'cpu'] as const;
export type TrainBackend = (typeof TRAIN_BACKENDS)[number];

/** What the Train view lets a user choose. Plain data; round-trips through JSON. */
export interface RunSettings {
  /** Cohort preset (public/checkpoints/index.json). */
  preset: string;
  /** Methods compared side by side on copies of the same base agents. */
  methods: RewardMethod[];
  /** Training steps per method. */
  steps: number;
  /** Run seed (prompts, each agent's sampling, evaluation). */
  seed: number;
  batchPrompts: number;
  samples: number;
  temperature: number;
  lr: number;
  tau: number;
  scaleRewards: ScaleRewards;
  lossType: LossType;
  beta: number;
  innerEpochs: number;
  /** Evaluate every this many steps (0 = only at the start and the end). */
  evalEvery: number;
  /** Held-out problems per evaluation. */
  evalProblems: number;
  /** S: samples per agent and held-out problem at the rollout temperature for the live phase portrait (0 = off). */
  portraitSamples: number;
  /** Validation problems of the Regime panel's check (a run carries the panel's report at step 0 when it matches). */
  regimeProblems: number;
  /** Pretrain the preset's base agents in the browser instead of loading the shipped checkpoints. */
  pretrainHere: boolean;
  /** Compute backend of the training worker: 'auto' = WebGPU when available, else wasm SIMD, else the CPU reference. */
  backend: TrainBackend;
  /** Model workers of the lock step on the wasm and CPU engines (1..64; src/rl/pool): the same metrics for any number. */
  workers: number;
  /** co-rl's teacher: 'ring' (the paper) or a peer teacher for N >= 3 (extensions, not in the paper). */
  teacher: TeacherMode;
  /** Where the RL prompts come from: any train problem, or only those outside every agent's pretraining pool. */
  prompts: PromptSource;
  /** Train a preset's agents, or the agents composed one by one (customAgents). */
  cohortMode: 'preset' | 'custom';
  /** The composed cohort (used when cohortMode is 'custom'); see customCohort.ts. */
  customAgents: CustomAgent[];
  /** The task the composed cohort trains: add-d2 (the shipped checkpoints'), addw or muladdw (composeAxes.ts),
   * or "file": the task file customTaskFile names (taskFileTask.ts). */
  customTask: string;
  /** The task file of customTask "file" (its name, content hash and normalisation; its rows stay in the page). */
  customTaskFile: TaskFileRef | null;
}

/** The default pool size of the page: the cores but one (the page's own), at least 1. */
export function defaultPoolSize(cores = globalThis.navigator?.hardwareConcurrency): number {
  return Math.max(1, Math.min(64, (cores ?? 1) - 1));
}

export const DEFAULT_RUN_SETTINGS: Readonly<RunSettings> = {
  preset: 'paper-demo',
  methods: ['co-rl', 'ttrl', 'gt'],
  steps: 200,
  seed: 1,
  batchPrompts: DEFAULT_TRAIN.batchPrompts,
  samples: DEFAULT_TRAIN.samples,
  temperature: DEFAULT_TRAIN.temperature,
  lr: DEFAULT_TRAIN.lr,
  tau: DEFAULT_TRAIN.tau,
  scaleRewards: DEFAULT_TRAIN.scaleRewards,
  lossType: DEFAULT_TRAIN.lossType,
  beta: DEFAULT_TRAIN.beta,
  innerEpochs: DEFAULT_TRAIN.innerEpochs,
  evalEvery: DEFAULT_EVAL.every,
  evalProblems: DEFAULT_EVAL.problems,
  portraitSamples: 8, // the live portrait is on in the page (headless experiments default to 0: src/rl/config.ts)
  regimeProblems: 400, // a few seconds on wasm for the shipped presets (docs/method.md, "The regime")
  pretrainHere: false,
  backend: 'auto',
  workers: defaultPoolSize(), // the cores but one, at least 1
  teacher: DEFAULT_TRAIN.teacher,
  prompts: 'train',
  cohortMode: 'preset',
  customAgents: [],
  customTask: 'add-d2',
  customTaskFile: null,
};

/** The task a composed cohort trains: the settings' task file, else the named compose task. */
export function composedTask(s: Pick<RunSettings, 'customTask' | 'customTaskFile'>): TaskConfig {
  const f = settingsTaskFile(s);
  return f ? fileTaskOf(f) : composeTask(s.customTask);
}

/** The cohort and task of the settings: composed, a natural preset's (agents by axes), or a shipped preset. */
function cohortOf(s: RunSettings): Pick<ExperimentConfig, 'cohort' | 'task'> {
  if (s.cohortMode === 'custom') {
    const task = composedTask(s);
    return { cohort: { agents: customAgentSpecs(s.customAgents, task) }, task: { ...task } };
  }
  if (isNaturalPreset(s.preset))
    return { cohort: { agents: naturalPresetSpecs(s.preset) }, task: { ...naturalPreset(s.preset)!.task } };
  return { cohort: { preset: s.preset }, task: null };
}

/** The experiment config the settings describe (the preset's task; other fields at their defaults). */
export function toExperimentConfig(s: RunSettings): ExperimentConfig {
  return {
    name: s.cohortMode === 'custom' ? 'playground-custom' : `playground-${s.preset}`,
    seed: s.seed,
    steps: s.steps,
    methods: [...s.methods],
    // a composed cohort and a natural preset name their agents (by axes) and the task; a shipped preset brings both
    ...cohortOf(s),
    train: {
      ...DEFAULT_TRAIN,
      batchPrompts: s.batchPrompts,
      samples: s.samples,
      temperature: s.temperature,
      lr: s.lr,
      tau: s.tau,
      scaleRewards: s.scaleRewards,
      lossType: s.lossType,
      beta: s.beta,
      innerEpochs: s.innerEpochs,
      teacher: s.teacher,
      ...(s.prompts === 'unseen' ? { prompts: s.prompts } : {}), // absent: the configs before it keep their bytes
    },
    eval: {
      ...DEFAULT_EVAL,
      every: s.evalEvery,
      problems: s.evalProblems,
      portraitSamples: s.portraitSamples,
    },
  };
}

/** A setting that is one of `names`; the message names the setting ("backend must be one of ...; got ..."). */
const namedOneOf = (key: string, names: readonly string[]) =>
  v.picklist(names, (i) => `${key} must be one of ${names.join(', ')}; got ${JSON.stringify(i.input)}`);
const BACKEND = namedOneOf('backend', TRAIN_BACKENDS);
const COHORT_MODE = namedOneOf('cohortMode', ['preset', 'custom']);

const FIELD_OF: Record<string, keyof RunSettings> = {
  'eval.every': 'evalEvery',
  'eval.problems': 'evalProblems',
  'eval.portraitSamples': 'portraitSamples',
};

/**
 * Problems with the settings, keyed by settings field ('methods' also covers co-rl with one agent).
 * `agents` is the preset's agent count when known (a composed cohort counts its own); `ctx` tells the
 * composer's checks which checkpoints are shipped and which imported files are loaded. Empty when the
 * settings can run.
 */
export function settingsProblems(
  s: RunSettings,
  agents?: number,
  ctx?: CohortContext,
): Partial<Record<keyof RunSettings, string>> {
  const out: Partial<Record<keyof RunSettings, string>> = {};
  const c = toExperimentConfig(s);
  const custom = s.cohortMode === 'custom';
  const natural = !custom && isNaturalPreset(s.preset);
  const r = parseExperimentConfig({ ...c, task: custom || natural ? c.task : undefined });
  if (custom) {
    // the composer's own checks name the agent and cover the manifest and imported files
    const file = s.customTask === FILE_TASK;
    const ct = reasonWith(namedOneOf('customTask', [...COMPOSE_TASK_NAMES, FILE_TASK]), s.customTask);
    if (ct) out.customTask = ct;
    const fp = taskFileProblem(s, ctx?.taskFiles);
    if (fp) out.customTask = fp;
    // a task file that is not loaded here has no rows to check the agents against (its problem says so)
    const ref = settingsTaskFile(s);
    if (!file || (ref && taskFileLoaded(ref))) {
      const cp = customAgentProblems(s.customAgents, ctx, composedTask(s));
      if (cp.length) out.customAgents = cp.join('\n');
    }
    agents = s.customAgents.length;
  }
  if (natural) agents = naturalPreset(s.preset)!.agents.length;
  if (!r.ok)
    for (const e of r.errors) {
      const m = /^([\w.]+?)(?:\[\d+\])?: (.*)$/.exec(e);
      if (!m) continue;
      const path = m[1];
      if (custom && (path.startsWith('cohort') || path === 'task')) continue;
      const key = (FIELD_OF[path] ?? path.replace(/^(train|eval)\./, '')) as keyof RunSettings;
      out[key] ??= m[2];
    }
  if (s.methods.length === 0) out.methods = 'pick at least one method';
  else if (s.methods.includes('co-rl') && agents !== undefined && agents < 2)
    out.methods = `co-rl needs at least 2 agents (each is graded by its ring predecessor); this ${custom ? 'cohort' : 'preset'} has ${agents}`;
  else if (s.methods.includes('co-rl-frozen') && agents !== undefined && agents < 2)
    out.methods = `co-rl-frozen needs at least 2 agents (each is graded by its ring predecessor's frozen base copy); this ${custom ? 'cohort' : 'preset'} has ${agents}`;
  const tp = s.teacher === 'ring' || agents === undefined ? null : teacherModeProblem(s.teacher, agents);
  if (tp) out.teacher ??= tp;
  else if (s.methods.includes('co-rl-frozen') && s.teacher === 'self_plus_peers')
    out.teacher ??= frozenTeacherProblem(s.teacher, 2) ?? undefined;
  const refProblem = taskFileRefProblem(s.customTaskFile);
  if (refProblem) out.customTaskFile = refProblem;
  const be = reasonWith(BACKEND, s.backend);
  if (be) out.backend = be;
  const wp = poolSizeProblems(s.workers, 'workers');
  if (wp.length) out.workers = wp[0];
  const pp = reasonWith(namedOneOf('prompts', PROMPT_SOURCES), s.prompts);
  if (pp) out.prompts = pp;
  else if (s.prompts === 'unseen' && r.ok) {
    const up = unseenPromptsProblem(r.config);
    if (up) out.prompts ??= up;
  }
  const cm = reasonWith(COHORT_MODE, s.cohortMode);
  if (cm) out.cohortMode = cm;
  return out;
}
