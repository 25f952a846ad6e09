// A sweep config (a base experiment config plus `grid`, `include`, `exclude`) expanded into cells: the
// cartesian product of the grid's axes (first axis slowest), minus the excluded, plus the included
// ones. Every cell is checked by the experiment validator itself (src/rl/config.ts), so any field an
// experiment accepts is a valid axis and every problem names its cell and field. docs/sweeps.md.
import type { AgentSpec } from '../cohort/agent';
import { stable } from '../rl/canonical';
import { resolveCohortRef } from '../rl/cohortEnv';
import { parseExperimentConfig, type ExperimentConfig } from '../rl/config';
import { resolveAxisAgents } from './axisAgents';
import type { SweepBackend } from './backends';
import { isObj, parseInput, problemsWith, show } from '../schema';
import { ASSIGNMENTS, AXIS_VALUES, BACKEND, GRID } from './sweepSchema';
import { formatPath, listPaths, parsePath, setAt, type PathStep } from './paths';
import {
  checkRegistration,
  parseRegistration,
  REGISTRATION_KEYS,
  type Registration,
} from '../formats/sweep/registration';
import { sha16 } from '../util/sha256';
import { valueLabel } from '../formats/sweep/records';

/** The keys of a sweep config that are not experiment fields. */
export const SWEEP_KEYS = ['grid', 'include', 'exclude', 'backend', ...REGISTRATION_KEYS];

/** One cell: one experiment. `assign` maps each grid path to the cell's value (include cells: their own). */
export interface Cell {
  index: number;
  /** First 16 hex digits of the SHA-256 of the cell's resolved config (defaults filled): the resume key. */
  id: string;
  label: string;
  assign: Record<string, unknown>;
  /** The raw experiment config of the cell (base + assignments). */
  raw: Record<string, unknown>;
  config: ExperimentConfig;
  specs: AgentSpec[];
}

export interface SweepPlan {
  name: string;
  /** SHA-256 (16 hex) of the sweep config: a DIR belongs to one sweep. */
  hash: string;
  /** The engine every cell runs on; part of each cell's id (engines agree within rounding, not bit for bit). */
  backend: SweepBackend;
  axes: string[];
  cells: Cell[];
  /** The pre-registration, primary endpoint and regime gates (registration.ts); inert when none named. */
  registration: Registration;
}

const sha = sha16;

/** The base with `path` set to `value`; `cohort.preset` and `cohort.agents` replace each other. */
function assignOne(
  base: Record<string, unknown>,
  steps: PathStep[],
  value: unknown,
): Record<string, unknown> | null {
  if (steps[0] === 'cohort' && steps.length === 2 && (steps[1] === 'preset' || steps[1] === 'agents')) {
    return { ...structuredClone(base), cohort: { [steps[1]]: structuredClone(value) } };
  }
  const top = steps[0] as string;
  if (steps.length > 1 && (base[top] === undefined || base[top] === null)) {
    // a field inside a section the base leaves to its default (e.g. task.digits of the preset's task)
    const r = parseExperimentConfig(base, { resolveCohort: resolveCohortRef });
    const c = isObj(base.cohort) ? resolveCohortRef(base.cohort as never) : null;
    const filled = r.ok
      ? (r.config as unknown as Record<string, unknown>)[top]
      : top === 'task' && c && 'task' in c
        ? c.task
        : undefined;
    if (isObj(filled)) return setAt({ ...base, [top]: filled }, steps, value);
    if (filled !== undefined && filled !== null) return null; // e.g. seed.x: the default seed is a number
  }
  return setAt(base, steps, value);
}

/** Does a validator message say that `path` (or a field above it) is unknown? */
function namesUnknown(err: string, path: string): boolean {
  const m = /^(\S+?): unknown field(?: "([^"]+)")?/.exec(err);
  if (!m) return false;
  const f = m[2] ? `${m[1]}.${m[2]}` : m[1];
  return path === f || path.startsWith(`${f}.`) || path.startsWith(`${f}[`);
}

/** The paths of an experiment config a grid may vary: the base's resolved fields (defaults filled). */
export function validPaths(base: Record<string, unknown>): string[] {
  const r = parseExperimentConfig(base, { resolveCohort: resolveCohortRef });
  const resolved = r.ok ? r.config : base;
  return [...new Set(['cohort.preset', 'cohort.agents', 'task', ...listPaths(resolved)])].sort();
}

interface Axis {
  path: string;
  steps: PathStep[];
  values: unknown[];
}

/** Check the grid's shape and paths; push errors. */
function parseAxes(raw: Record<string, unknown>, base: Record<string, unknown>, errs: string[]): Axis[] {
  const grid = raw.grid;
  const bad = problemsWith(GRID, grid, 'grid');
  if (!isObj(grid) || bad.length) {
    errs.push(...bad);
    return [];
  }
  const axes: Axis[] = [];
  for (const [path, values] of Object.entries(grid)) {
    let steps: PathStep[];
    try {
      steps = parsePath(path);
    } catch (e) {
      errs.push(`grid.${path}: ${(e as Error).message}`);
      continue;
    }
    const badValues = problemsWith(AXIS_VALUES, values, `grid.${path}`);
    if (!Array.isArray(values) || badValues.length) {
      errs.push(...badValues);
      continue;
    }
    const canon = formatPath(steps);
    const probe = assignOne(base, steps, values[0]);
    const unknown =
      probe === null ||
      (parseExperimentConfig(probe, {}) as { errors?: string[] }).errors?.some((e) => namesUnknown(e, canon));
    if (unknown) {
      errs.push(`grid.${path}: unknown path (valid paths: ${validPaths(base).join(', ')})`);
      continue;
    }
    const seen = values.map((v) => stable(v));
    const dup = values.filter((_, i) => seen.indexOf(seen[i]) !== i);
    if (dup.length)
      errs.push(
        `grid.${path}: value${dup.length > 1 ? 's' : ''} ${dup.map(show).join(', ')} listed twice (duplicate cells)`,
      );
    axes.push({ path: canon, steps, values });
  }
  return axes;
}

/** Check an include/exclude list of assignments ({ path: value, ... }). */
function parseAssignments(
  raw: unknown,
  name: string,
  axes: Axis[],
  base: Record<string, unknown>,
  errs: string[],
): Record<string, unknown>[] {
  if (raw === undefined) return [];
  const bad = problemsWith(ASSIGNMENTS, raw, name);
  if (!Array.isArray(raw) || bad.length) {
    errs.push(...bad);
    return [];
  }
  const out: Record<string, unknown>[] = [];
  raw.forEach((a, i) => {
    const norm: Record<string, unknown> = {};
    for (const [p, v] of Object.entries(a)) {
      let canon: string;
      try {
        canon = formatPath(parsePath(p));
      } catch (e) {
        errs.push(`${name}[${i}].${p}: ${(e as Error).message}`);
        continue;
      }
      if (name === 'exclude' && !axes.some((x) => x.path === canon))
        errs.push(`${name}[${i}].${p}: not a grid axis (axes: ${axes.map((x) => x.path).join(', ')})`);
      else if (name === 'include' && !validPaths(base).includes(canon) && !axes.some((x) => x.path === canon))
        errs.push(`${name}[${i}].${p}: unknown path (valid paths: ${validPaths(base).join(', ')})`);
      norm[canon] = v;
    }
    out.push(norm);
  });
  return out;
}

/** The assignments of every cell: the product of the axes, minus excluded, plus included. */
function expand(
  axes: Axis[],
  exclude: Record<string, unknown>[],
  include: Record<string, unknown>[],
): Record<string, unknown>[] {
  let cells: Record<string, unknown>[] = [{}];
  for (const ax of axes) cells = cells.flatMap((c) => ax.values.map((v) => ({ ...c, [ax.path]: v })));
  const matches = (c: Record<string, unknown>, ex: Record<string, unknown>): boolean =>
    Object.entries(ex).every(([p, v]) => p in c && stable(c[p]) === stable(v));
  return [...cells.filter((c) => !exclude.some((ex) => matches(c, ex))), ...include];
}

/**
 * Parse, expand and validate a sweep config (without checking checkpoint files: see checkpoints.ts);
 * a cell's agents by axes get their cache entries' paths (axisAgents.ts).
 * Returns the plan or every problem, each naming the cell (index and label) and the field.
 */
export function planSweep(raw: unknown): { ok: true; plan: SweepPlan } | { ok: false; errors: string[] } {
  if (!isObj(raw))
    return {
      ok: false,
      errors: [`a sweep config must be a JSON object (an experiment config plus "grid"), got ${show(raw)}`],
    };
  const errs: string[] = [];
  const b = parseInput(BACKEND, raw.backend, 'backend');
  if (!b.ok) errs.push(...b.errors);
  const backend = (b.ok ? b.value : raw.backend) as SweepBackend;
  const registration = parseRegistration(raw, errs);
  const base = Object.fromEntries(Object.entries(raw).filter(([k]) => !SWEEP_KEYS.includes(k)));
  const axes = parseAxes(raw, base, errs);
  const exclude = parseAssignments(raw.exclude, 'exclude', axes, base, errs);
  const include = parseAssignments(raw.include, 'include', axes, base, errs);
  if (errs.length) return { ok: false, errors: errs };
  const assigns = expand(axes, exclude, include);
  if (assigns.length === 0)
    return { ok: false, errors: ['grid: the sweep has no cells (every cell is excluded)'] };
  const cells: Cell[] = [];
  const byId = new Map<string, number>();
  assigns.forEach((assign, index) => {
    let cellRaw: Record<string, unknown> | null = base;
    for (const [p, v] of Object.entries(assign)) cellRaw = cellRaw && assignOne(cellRaw, parsePath(p), v);
    const label =
      Object.entries(assign)
        .map(([p, v]) => `${p}=${valueLabel(v)}`)
        .join(', ') || '(base)';
    const at = `cell ${index} (${label})`;
    // agents by axes (no checkpoint): validated as such and pointed at their cache entries (axisAgents.ts)
    const axis = cellRaw && resolveAxisAgents(cellRaw, backend);
    if (axis && 'errors' in axis) {
      for (const e of axis.errors) errs.push(`${at}: ${e}`);
      return;
    }
    if (axis) cellRaw = axis.raw;
    const r = cellRaw
      ? parseExperimentConfig(cellRaw, { resolveCohort: resolveCohortRef })
      : { ok: false as const, errors: ['a path runs through a value that is not an object'] };
    if (!r.ok) {
      for (const e of r.errors) errs.push(`${at}: ${e}`);
      return;
    }
    const id = sha(stable(backend !== 'cpu' ? { config: r.config, backend } : r.config)); // the engine (and its kernel variant) is part of every id but the CPU reference's
    const twin = byId.get(id);
    if (twin !== undefined)
      errs.push(
        `${at}: the same experiment as cell ${twin} (${cells.find((c) => c.index === twin)!.label}); duplicate cells (check include and the axis values)`,
      );
    byId.set(id, index);
    cells.push({ index, id, label, assign, raw: cellRaw!, config: r.config, specs: r.specs! });
  });
  if (!errs.length) checkRegistration(registration, cells, errs);
  if (errs.length) return { ok: false, errors: errs };
  const name = typeof raw.name === 'string' ? raw.name : 'sweep';
  return {
    ok: true,
    plan: { name, hash: sha(stable(raw)), backend, axes: axes.map((a) => a.path), cells, registration },
  };
}
