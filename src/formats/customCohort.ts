// A cohort composed in the Train view: agents given one by one (family, size, seed, prompt view) with
// where each base checkpoint comes from (the shipped file, pretraining in the browser, or a file the
// user imported). Plain JSON (the URL and run files carry it); imported bytes live in the store keyed
// by importKey. Turns the list into experiment-config agent specs and names every problem with it (the
// start command's cohort fields: src/store/cohortStart.ts).
import * as v from 'valibot';
import type { AgentSpec } from '../cohort/agent';
import { FAMILIES } from '../cohort/families';
import { checkpointPath, DEFAULT_TASK, taskTag } from '../cohort/presets';
import type { TaskConfig, ViewName } from '../tasks';
import { isObj, reasonWith } from '../schema';
import { checkImportedCheckpoint } from '../cohort/importCheckpoint';
import { hashBytes } from '../cohort/manifest';
import { axesOf, axisProblems, hasAxes } from './composeAxes';
import { AGENT_RULES, AGENT_SOURCES, agentLabel, sizeRule } from './customAgentRules';

/** Where a composed agent's base checkpoint comes from. */
export type AgentSource = (typeof AGENT_SOURCES)[number];

/** One agent of a composed cohort. */
export interface CustomAgent {
  /** Unique within the cohort (its random streams derive from it). */
  id: string;
  family: string;
  size: string;
  seed: number;
  view: ViewName;
  source: AgentSource;
  /** For source 'imported': the key of its bytes in the store (importedCheckpoints). */
  importKey?: string;
  /** Axis overrides (src/cohort/axes.ts; composeAxes.ts): only with source 'pretrain'. */
  arch?: AgentSpec['arch'];
  tokenizer?: AgentSpec['tokenizer'];
  corpus?: AgentSpec['corpus'];
}

/** The task a composed cohort trains (that of every shipped preset). */
export const CUSTOM_TASK: TaskConfig = DEFAULT_TASK;

export { MAX_AGENT_SEED } from './customAgentRules';

/** What the composer's checks need to know beyond the list itself. */
export interface CohortContext {
  /** Checkpoint paths the manifest lists (undefined: not known yet; the shipped check is skipped). */
  shipped?: readonly string[];
  /** Import keys whose bytes are loaded in this page (undefined: skip that check). */
  imported?: readonly string[];
  /** Hashes of the task files loaded in this page (undefined: a link's or run file's reading; a missing file is not a problem yet). */
  taskFiles?: readonly string[];
}

/** Where an imported file's bytes are served to the worker from (never fetched). */
export const importedPath = (key: string): string => `imported/${key}.ckpt`;

/**
 * The checkpoint path of a composed agent: the shipped one (checkpointPath) in the family's default
 * view, the same name with the view added otherwise (only pretraining can make it), or the import's.
 */
export function customCheckpointPath(a: CustomAgent, task: TaskConfig = CUSTOM_TASK): string {
  if (a.source === 'imported') return importedPath(a.importKey ?? 'missing');
  const p = checkpointPath(task, a.family, a.size, a.seed);
  const fam = FAMILIES[a.family];
  return fam && fam.view === a.view ? p : p.replace(/\.ckpt$/, `.${a.view}.ckpt`);
}

/** The experiment config's agent specs of a composed cohort. */
export function customAgentSpecs(
  agents: readonly CustomAgent[],
  task: TaskConfig = CUSTOM_TASK,
): AgentSpec[] {
  // restored settings (a link, a run file) may hold anything: keep only objects, the checks name the rest
  const list = Array.isArray(agents)
    ? agents.filter((a): a is CustomAgent => typeof a === 'object' && a !== null)
    : [];
  // an agent pretrained here names no checkpoint: the worker builds it by its axes into the in-page
  // content-addressed cache (src/worker/axisBuilds.ts), or reads it from there
  return list.map((a) => ({
    id: a.id,
    family: a.family,
    size: a.size,
    seed: a.seed,
    view: a.view,
    ...(a.source === 'pretrain' ? axesOf(a) : { checkpoint: customCheckpointPath(a, task) }),
  }));
}

/** Every problem with a composed cohort, one line each naming the agent; [] when it can run. */
export function customAgentProblems(
  agents: readonly CustomAgent[],
  ctx: CohortContext = {},
  task: TaskConfig = CUSTOM_TASK,
): string[] {
  const out: string[] = [];
  const list = reasonWith(AGENT_RULES.list, agents);
  if (list) return [list];
  const bad = agents.findIndex((a) => !isObj(a));
  if (bad >= 0) return [`agent ${bad + 1}: ${reasonWith(AGENT_RULES.item, agents[bad])}`];
  const ids = agents.map((a) => a.id);
  agents.forEach((a, i) => {
    const who = agentLabel(a.id, i);
    const why = (rule: v.GenericSchema, x: unknown) => {
      const r = reasonWith(rule, x);
      if (r) out.push(`${who}: ${r}`);
      return r === null;
    };
    if (why(AGENT_RULES.id, a.id) && ids.indexOf(a.id) !== i)
      out.push(`${who}: id ${a.id} is used twice (ids must be unique)`);
    if (!why(AGENT_RULES.family, a.family)) return;
    const fam = FAMILIES[a.family];
    // a shipped checkpoint is looked for only by fields that fit (a bad one's problem is named already)
    const fit = [
      why(sizeRule(a.family, fam), a.size),
      why(AGENT_RULES.seed, a.seed),
      why(AGENT_RULES.view, a.view),
    ].every(Boolean);
    if (a.source === 'pretrain') out.push(...axisProblems(a, who, task));
    else if (hasAxes(a))
      out.push(
        `${who}: tokenizer, arch and corpus apply only to an agent pretrained here; choose "pretrain here"`,
      );
    if (a.source === 'shipped') {
      if (taskTag(task) !== taskTag(CUSTOM_TASK))
        out.push(`${who}: checkpoints are shipped only for ${taskTag(CUSTOM_TASK)}; choose "pretrain here"`);
      else if (!fit) return;
      else if (a.view !== fam.view)
        out.push(
          `${who}: no checkpoint is shipped in the ${a.view} view (family ${a.family} reads ${fam.view}); choose "pretrain here"`,
        );
      else if (ctx.shipped) {
        const path = customCheckpointPath(a, task);
        if (!ctx.shipped.includes(path)) {
          const prefix = `checkpoints/${taskTag(task)}/${a.family}.`;
          const have = ctx.shipped
            .filter((p) => p.startsWith(prefix))
            .map((p) => p.slice(prefix.length).replace(/\.ckpt$/, ''));
          out.push(
            `${who}: no shipped checkpoint for ${a.family} size ${a.size} seed ${a.seed}` +
              (have.length
                ? ` (shipped for ${a.family}: ${have.join(', ')})`
                : ` (none is shipped for ${a.family})`) +
              '; choose "pretrain here"',
          );
        }
      }
    } else if (a.source === 'imported') {
      if (!why(AGENT_RULES.importKey, a.importKey)) return;
      if (ctx.imported && !ctx.imported.includes(a.importKey!)) {
        out.push(
          `${who}: its imported checkpoint is not loaded in this page (files are not kept in links); import it again or choose another source`,
        );
      }
    } else why(AGENT_RULES.source, a.source);
  });
  return out;
}

/** The first id not used yet: A, B, ..., Z, then A2, B2, ... */
export function nextAgentId(agents: readonly CustomAgent[]): string {
  const used = new Set(agents.map((a) => a.id));
  for (let round = 1; ; round++) {
    for (let c = 65; c <= 90; c++) {
      const id = String.fromCharCode(c) + (round > 1 ? String(round) : '');
      if (!used.has(id)) return id;
    }
  }
}

/** The composer's context from the store: the manifest's checkpoint paths and the loaded imports. */
export function cohortContext(
  presets: readonly { agents: readonly { checkpoint?: string }[] }[],
  imported: Readonly<Record<string, unknown>>,
  taskFiles: Readonly<Record<string, unknown>> = {},
): CohortContext {
  const shipped = presets.flatMap((p) => p.agents.flatMap((a) => (a.checkpoint ? [a.checkpoint] : [])));
  return {
    shipped: presets.length ? [...new Set(shipped)] : undefined,
    imported: Object.keys(imported),
    taskFiles: Object.keys(taskFiles),
  };
}

/** Largest file the composer reads as a checkpoint (ours are tens of kilobytes). */
export const MAX_IMPORT_BYTES = 64 * 1024 * 1024;

/** An imported checkpoint as a composer agent, or why it is refused (nothing is changed either way). */
export type ImportResult =
  | { ok: true; agent: CustomAgent; key: string; summary: string }
  | { ok: false; error: string };

/**
 * Check `bytes` (a file named `fileName`) as a base checkpoint of ours for the composed cohort's task and
 * make it an agent with the next free id; refuses a file already imported as an agent of `agents`.
 */
export function agentFromImport(
  bytes: Uint8Array,
  fileName: string,
  agents: readonly CustomAgent[],
  task: TaskConfig = CUSTOM_TASK,
): ImportResult {
  if (bytes.length > MAX_IMPORT_BYTES) {
    return {
      ok: false,
      error: `${(bytes.length / 1048576).toFixed(0)} MB is far larger than any checkpoint of ours (at most ${MAX_IMPORT_BYTES / 1048576} MB)`,
    };
  }
  const r = checkImportedCheckpoint(bytes, task);
  if (!r.ok) return r;
  const stem =
    fileName
      .replace(/\.[^.]*$/, '')
      .replace(/[^A-Za-z0-9._-]/g, '_')
      .slice(0, 40) || 'checkpoint';
  const hash = hashBytes(bytes);
  const key = `${stem}-${hash}`;
  const twin = agents.find((a) => a.source === 'imported' && a.importKey?.endsWith(`-${hash}`));
  if (twin) return { ok: false, error: `this file is already agent ${twin.id}` };
  const m = r.meta;
  const agent: CustomAgent = {
    id: nextAgentId(agents),
    family: m.family,
    size: m.size,
    seed: m.seed,
    view: m.view,
    source: 'imported',
    importKey: key,
  };
  const summary =
    `${m.family}.${m.size} seed ${m.seed}, ${m.view} view, ${r.params.toLocaleString('en')} params, ` +
    `pretrained ${m.steps} steps to ${(100 * m.valAccuracy).toFixed(0)}% validation accuracy`;
  return { ok: true, agent, key, summary };
}
