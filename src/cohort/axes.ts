// Agents by orthogonal axes (docs/method.md ("Natural diversity"); docs/cohorts.md): a spec names a family (a bundle of
// architecture, tokenizer, corpus, view and recipe) and may override any axis on its own: `size`, `seed`,
// `view`, `arch` (depth, width, heads, positions, MLP ratio, context), `tokenizer`, `corpus`, `recipe`. This file
// validates such specs (every problem listed, before any work) and gives each build its content address.
import {
  isTokenizerName,
  isViewName,
  makeTask,
  renderCompletion,
  renderPrompt,
  resolveTaskConfig,
  TOKENIZER_NAMES,
  VIEW_NAMES,
  validateTaskConfig,
  type TaskConfig,
} from '../tasks';
import * as v from 'valibot';
import { eachField, int, isObj, nonEmpty, problemsWith, show, text, unknownFields } from '../schema';
import { hashString, deriveRng } from '../util/rng';
import type { AgentSpec } from './agent';
import { corpusErrors } from './corpus';
import { FAMILY_NAMES, FAMILIES, familyArch } from './families';
import { familyTokenizer } from './pretrain';
import type { PretrainSpec } from './pretrainSpec';
import { recipeErrors } from './recipeAxis';
import { fileAgentErrors } from '../tasks/file/axes';
import { workPathTaskErrors } from './workPathMix';

/** Fields an agent spec may have. */
export const AXIS_FIELDS = [
  'id',
  'family',
  'size',
  'seed',
  'view',
  'arch',
  'tokenizer',
  'corpus',
  'recipe',
  'checkpoint',
] as const;
/** Fields of an `arch` override. */
export const ARCH_FIELDS = ['nLayer', 'nHead', 'nEmbd', 'mlpRatio', 'pos', 'blockSize'] as const;

const archInt = (lo: number, hi: number) => v.optional(int(lo, hi));
/** An `arch` override's rules (schema layer): each field optional, in range. */
const ARCH = {
  nLayer: archInt(1, 12),
  nHead: archInt(1, 16),
  nEmbd: archInt(4, 512),
  mlpRatio: archInt(1, 8),
  blockSize: archInt(2, 4096),
  pos: v.optional(
    v.picklist(['learned', 'rope'], (i) => `must be 'learned' or 'rope', got ${show(i.input)}`),
  ),
};

function archErrors(raw: unknown, at: string): string[] {
  if (!isObj(raw))
    return [`${at}: must be an object with any of ${ARCH_FIELDS.join(', ')}, got ${show(raw)}`];
  return [...unknownFields(raw, at, ARCH_FIELDS), ...eachField(raw, at, ARCH)];
}

/** A section's problems ("field: why", or "must be ..." of the whole value) under the section's path. */
const under = (at: string, errs: string[]): string[] =>
  errs.map((e) => (e.startsWith('must be ') ? `${at}: ${e}` : `${at}.${e}`));

/** The fields of an agent spec checked alone (the family, size and view are checked against each other). */
const SEED = int(0, 0xffffffff);
const ID = nonEmpty();
const CHECKPOINT = text('a path string');

/**
 * Validate one raw agent spec (parsed JSON) and fill its defaults (size 's', seed 1, the family's view).
 * Returns the spec or every problem, each naming the field and the valid values.
 */
export function parseAxisAgent(raw: unknown, at: string): { spec: AgentSpec } | { errors: string[] } {
  if (!isObj(raw)) return { errors: [`${at}: must be an object with "id" and "family", got ${show(raw)}`] };
  const a = raw;
  const errs = unknownFields(a, at, AXIS_FIELDS);
  errs.push(...problemsWith(ID, a.id, `${at}.id`));
  const fam = typeof a.family === 'string' ? FAMILIES[a.family] : undefined;
  if (!fam)
    errs.push(
      `${at}.family: unknown family ${JSON.stringify(a.family)}; valid families: ${FAMILY_NAMES.join(', ')}`,
    );
  const size = a.size ?? 's';
  if (fam && (typeof size !== 'string' || !fam.sizes[size]))
    errs.push(
      `${at}.size: unknown size ${JSON.stringify(size)} of family '${fam.name}'; valid sizes: ${Object.keys(fam.sizes).join(', ')}`,
    );
  const seed = a.seed ?? 1;
  errs.push(...problemsWith(SEED, seed, `${at}.seed`));
  const view = a.view ?? fam?.view ?? 'plain';
  if (!isViewName(view))
    errs.push(`${at}.view: unknown view ${JSON.stringify(view)}; valid views: ${VIEW_NAMES.join(', ')}`);
  if (a.tokenizer !== undefined && !isTokenizerName(a.tokenizer))
    errs.push(
      `${at}.tokenizer: unknown tokenizer ${JSON.stringify(a.tokenizer)}; valid tokenizers: ${TOKENIZER_NAMES.join(', ')}`,
    );
  if (a.arch !== undefined) errs.push(...archErrors(a.arch, `${at}.arch`));
  if (a.corpus !== undefined) errs.push(...under(`${at}.corpus`, corpusErrors(a.corpus)));
  if (a.recipe !== undefined) errs.push(...under(`${at}.recipe`, recipeErrors(a.recipe)));
  if (a.checkpoint !== undefined) errs.push(...problemsWith(CHECKPOINT, a.checkpoint, `${at}.checkpoint`));
  if (errs.length) return { errors: errs };
  return {
    spec: {
      ...(a as unknown as AgentSpec),
      size: size as string,
      seed: seed as number,
      view: view as AgentSpec['view'],
    },
  };
}

/** The axes of an agent (view, tokenizer, recipe regions) that a file task refuses, with the reasons; [] otherwise. */
export function fileTaskAxisErrors(spec: AgentSpec, task: TaskConfig): string[] {
  if (task.kind !== 'file') return [];
  const fam = FAMILIES[spec.family];
  return fileAgentErrors({
    id: spec.id,
    view: spec.view,
    tokenizer: spec.tokenizer ?? fam.tokenizer ?? 'digit',
    regions: fam.recipe.mix.map((m) => m.region),
  });
}

/** Context check before any pretraining: the context must hold the prompt plus the longest completion with EOS. */
export function contextErrors(spec: AgentSpec, task: TaskConfig): string[] {
  const ctx = spec.arch?.blockSize;
  if (ctx === undefined) return [];
  const fam = FAMILIES[spec.family];
  const tok = familyTokenizer(fam, task, spec.view, spec.tokenizer);
  const t = makeTask(task);
  const probe = [
    t.problem(t.evalSet(1)[0].values.map(() => 0)),
    ...t.sampleSplit('train', deriveRng(0, 'context-probe'), Math.min(2000, Math.floor(t.sizes.train / 2))),
  ];
  const prompt = tok.encode(renderPrompt(probe[0], spec.view)).length;
  const longest = Math.max(...probe.map((p) => tok.encode(renderCompletion(p, spec.view)).length)) + 1;
  return ctx < prompt + longest - 1
    ? [
        `agent ${spec.id}: arch.blockSize ${ctx} cannot hold the prompt (${prompt} tokens) plus the longest completion with EOS (${longest} tokens) of ${t.name} in the ${spec.view} view: needs at least ${prompt + longest - 1}`,
      ]
    : [];
}

/**
 * What a build depends on, as canonical JSON: the resolved family (recipe included, with the spec's
 * `recipe` override and then the call's `recipe` on top), every axis and the task.
 */
export function buildIdentity(spec: AgentSpec, task: TaskConfig, recipe?: object): string {
  const fam = FAMILIES[spec.family];
  const arch = { ...familyArch(fam, spec.size), ...(spec.arch ?? {}) };
  const ident = {
    format: 'co-rl-build/1',
    family: fam.name,
    size: spec.size,
    seed: spec.seed,
    view: spec.view,
    arch,
    tokenizer: spec.tokenizer ?? fam.tokenizer ?? 'digit',
    corpus: spec.corpus ?? fam.corpus ?? null,
    recipe: { ...fam.recipe, ...(spec.recipe ?? {}), ...(recipe ?? {}) },
    task: resolveTaskConfig(task),
  };
  return JSON.stringify(ident, Object.keys(flatKeys(ident)).sort());
}

/** Every key name in a nested object (for a canonical key order in JSON.stringify). */
function flatKeys(x: unknown, out: Record<string, true> = {}): Record<string, true> {
  if (x && typeof x === 'object') {
    for (const [k, v] of Object.entries(x)) {
      out[k] = true;
      flatKeys(v, out);
    }
  }
  return out;
}

/** The content address of a build: 64 bits (two salted 32-bit hashes) of its identity, as 16 hex digits. */
export function buildKey(spec: AgentSpec, task: TaskConfig, recipe?: object): string {
  const id = buildIdentity(spec, task, recipe);
  return [hashString(`a|${id}`), hashString(`b|${id}`)].map((h) => h.toString(16).padStart(8, '0')).join('');
}

/** The pretraining spec of an agent spec. */
export function pretrainSpecOf(spec: AgentSpec): PretrainSpec {
  return {
    id: spec.id,
    family: spec.family,
    size: spec.size,
    seed: spec.seed,
    view: spec.view,
    arch: spec.arch,
    tokenizer: spec.tokenizer,
    corpus: spec.corpus,
    ...(spec.recipe ? { recipe: spec.recipe } : {}),
  };
}

/** A validated cohort of agents by axes and its task. */
export interface AxisCohort {
  task: TaskConfig;
  specs: AgentSpec[];
}

/**
 * Problems of a raw config's `task` and `cohort.agents` (each agent's named by `label`), or the cohort.
 * Shared by the Node CLIs and the page's builds (src/worker/axisBuilds.ts).
 */
export function parseAxisCohort(
  raw: unknown,
  label: (agent: unknown, i: number) => string = (_a, i) => `cohort.agents[${i}]`,
): { cohort: AxisCohort } | { errors: string[] } {
  const r = raw as { task?: unknown; cohort?: { agents?: unknown } } | null;
  if (!r || typeof r !== 'object')
    return { errors: ['config must be a JSON object with "task" and "cohort": { "agents": [...] }'] };
  const errors: string[] = [];
  if (r.task === undefined) errors.push('task: missing (e.g. { "kind": "addw", "digits": 3 })');
  else errors.push(...validateTaskConfig(r.task).map((e) => `task: ${e}`));
  const agents = r.cohort?.agents;
  if (!Array.isArray(agents) || agents.length === 0)
    errors.push('cohort.agents: must be a non-empty array of agent specs ({ "id", "family", ... })');
  const specs: AgentSpec[] = [];
  (Array.isArray(agents) ? agents : []).forEach((a, i) => {
    const p = parseAxisAgent(a, label(a, i));
    if ('errors' in p) errors.push(...p.errors);
    else specs.push(p.spec);
  });
  const ids = specs.map((s) => s.id);
  const dup = ids.filter((id, i) => ids.indexOf(id) !== i);
  if (dup.length) errors.push(`cohort.agents: ids must be unique; duplicated: ${dup.join(', ')}`);
  const task = r.task as TaskConfig;
  const taskOk = r.task !== undefined && validateTaskConfig(r.task).length === 0;
  if (taskOk)
    for (const s of specs) {
      const fe = fileTaskAxisErrors(s, task); // axes a file task refuses; the context check needs them to apply
      errors.push(...(fe.length ? fe : contextErrors(s, task))); // of every agent that parsed
    }
  if (taskOk)
    for (const s of specs)
      errors.push(...workPathTaskErrors(s.recipe?.paths, task).map((e) => `agent ${s.id}: recipe.${e}`));
  return errors.length ? { errors } : { cohort: { task, specs } };
}
