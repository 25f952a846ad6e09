// The Compose panel's axes (issue 12; docs/natural-cohorts.md "In the page"): the task a composed cohort
// trains (add-d2, or a task with working) and each agent's tokenizer, architecture overrides and corpus,
// checked by the same functions as a Node config (src/cohort/axes.ts parseAxisAgent, contextErrors), so a
// bad value is refused before any work with the same message. Plain data: links and run files carry it.
import type { AgentSpec } from '../cohort/agent';
import { contextErrors, fileTaskAxisErrors, parseAxisAgent } from '../cohort/axes';
import { NATURAL_TASKS } from '../cohort/naturalPresets';
import { DEFAULT_TASK } from '../cohort/presets';
import type { TaskConfig } from '../tasks';

/** The tasks a composed cohort can train, by name: the shipped checkpoints' task first. */
export const COMPOSE_TASKS: Readonly<Record<string, TaskConfig>> = {
  'add-d2': DEFAULT_TASK,
  addw: NATURAL_TASKS.addw,
  muladdw: NATURAL_TASKS.muladdw,
  addw5: { kind: 'addw', digits: 5 },
};
export const COMPOSE_TASK_NAMES = Object.keys(COMPOSE_TASKS);

/** What each compose task is, in words. */
export const COMPOSE_TASK_HELP: Readonly<Record<string, string>> = {
  'add-d2': '2-digit addition, answer only (the shipped checkpoints)',
  addw: '3-digit addition with the carry chain written out',
  muladdw: 'a*b+c (2-digit a and c) with the column products written out',
  addw5: '5-digit addition with the carry chain written out (the nearest addw cohort to the regime)',
};

/** The compose task name of a task config (null when the composer has none for it). */
export const composeTaskName = (task: TaskConfig): string | null =>
  COMPOSE_TASK_NAMES.find((n) => JSON.stringify(COMPOSE_TASKS[n]) === JSON.stringify(task)) ?? null;

/**
 * The task config of a compose task name (the default for an unknown one, "toString" too: settingsProblems
 * names it).
 */
export const composeTask = (name: string): TaskConfig =>
  (COMPOSE_TASK_NAMES.includes(name) ? COMPOSE_TASKS[name] : undefined) ?? DEFAULT_TASK;

/** The axis fields of an agent (only those it sets), as an agent spec carries them. */
export type AgentAxes = Pick<AgentSpec, 'arch' | 'tokenizer' | 'corpus'>;

/** Whether an agent sets any axis beyond family, size, seed and view (then nothing of it is shipped). */
export const hasAxes = (a: AgentAxes): boolean =>
  a.arch !== undefined || a.tokenizer !== undefined || a.corpus !== undefined;

/** The agent's axis fields, copied (absent ones left out). */
export function axesOf(a: AgentAxes): AgentAxes {
  return {
    ...(a.arch !== undefined ? { arch: a.arch } : {}),
    ...(a.tokenizer !== undefined ? { tokenizer: a.tokenizer } : {}),
    ...(a.corpus !== undefined ? { corpus: a.corpus } : {}),
  };
}

/**
 * Problems with an agent's axes as Node states them (parseAxisAgent's arch, tokenizer and corpus lines,
 * then contextErrors for `task` when they parse), each starting with `who`; [] when they can be built.
 */
export function axisProblems(
  a: Pick<AgentSpec, 'id' | 'family' | 'size' | 'seed' | 'view'> & AgentAxes,
  who: string,
  task: TaskConfig,
): string[] {
  const raw = { id: a.id || '?', family: a.family, size: a.size, seed: a.seed, view: a.view, ...axesOf(a) };
  const r = parseAxisAgent(raw, who);
  if ('errors' in r)
    return r.errors.filter((e) => ['.arch', '.tokenizer', '.corpus'].some((f) => e.startsWith(who + f)));
  // a file task refuses some axes (the reasons); the context check needs them to apply
  const fe = fileTaskAxisErrors(r.spec, task);
  return (fe.length ? fe : contextErrors(r.spec, task)).map((e) => e.replace(/^agent [^:]*:/, `${who}:`));
}
