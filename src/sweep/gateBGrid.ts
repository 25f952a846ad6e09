// Gate B's grids as they lie on disk (a sweep's --out folder each) and the recipe the pre-registration
// takes from them (experiments/regime/PREREG.md, "Recipe"): the one chosen over every complete grid, else
// the one chosen on the first grid alone (the preset nearest to the regime), else none.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { combineGateB, gateB, type GateBReport } from './gateB';
import { listRecords, readManifest } from './store';

/** One grid's gate B and how many of its cells have results. */
export interface GateBGrid {
  dir: string;
  name: string;
  report: GateBReport;
  have: number;
  cells: number;
  /** The done cells' recipes (assignment without the seed) and wall seconds, for cost estimates. */
  times: { assign: Record<string, unknown>; seconds: number }[];
  /** The sweep's own train section (the manifest's config) as `train.<field>` paths: what every cell shares. */
  base: Record<string, unknown>;
  /** The grid's task kind (its config's task.kind), for cost estimates per task kind; undefined if unknown. */
  task?: string;
}

/** An input error (exit code 2 in the CLIs). */
export const gateBInputError = (message: string): Error => Object.assign(new Error(message), { code: 2 });

/** Read one grid from a sweep's --out folder; refuses a folder without cells or with other methods. */
export function readGateBGrid(dir: string): GateBGrid {
  if (!existsSync(join(dir, 'cells')))
    throw gateBInputError(`${dir}: no cells/ folder there; give the --out folder of a gate B sweep`);
  const records = listRecords(dir);
  const bad = records.filter(
    (r) => r.result && !r.result.config.methods.every((m) => m === 'gt' || m === 'random'),
  );
  if (bad.length)
    throw gateBInputError(
      `${dir}: gate B is chosen with gt and random only; these cells train other methods: ${bad.map((r) => r.label).join(', ')}`,
    );
  const manifest = readManifest(dir);
  const ids = new Set(records.filter((r) => r.status === 'done').map((r) => r.id));
  const cells = manifest ? manifest.cells.length : records.length;
  const have = manifest ? manifest.cells.filter((c) => ids.has(c.id)).length : ids.size;
  const times = records
    .filter((r) => r.status === 'done')
    .map((r) => ({
      assign: Object.fromEntries(Object.entries(r.assign).filter(([k]) => k !== 'seed')),
      seconds: r.seconds,
    }));
  const train = (manifest?.config as { train?: Record<string, unknown> } | undefined)?.train ?? {};
  const base = Object.fromEntries(Object.entries(train).map(([k, v]) => [`train.${k}`, v]));
  const kind = (manifest?.config as { task?: { kind?: unknown } } | undefined)?.task?.kind;
  const task = typeof kind === 'string' ? kind : undefined;
  return { dir, name: manifest?.name ?? dir, report: gateB(records), have, cells, times, base, task };
}

/** The pre-registered recipe from the grids, with where it came from; null recipe when none passes. */
export interface RegisteredRecipe {
  /** The chosen assignment over the train fields every grid shares (see recipeOf); null when none passes. */
  recipe: Record<string, unknown> | null;
  /** The chosen assignment alone (the grid axes' values), as the cells' times record it; null with recipe. */
  assign: Record<string, unknown> | null;
  /** "every grid", "<first grid> alone (no recipe passes on every grid)", or why there is none. */
  source: string;
  /** Grids with cells still to run (the choice is then provisional). */
  incomplete: string[];
}

/**
 * The rollout temperature is not the optimizer's: gates A choose it per preset (on validation), so a recipe
 * never carries it, whatever the grids ran at.
 */
const PRESET_FIELDS = new Set(['train.temperature']);

/**
 * The recipe a test takes: the train fields that every grid's own train section sets to one value (a grid
 * whose recipe lives in its base config, with only the seed as an axis, fixes lr, B, K and the rest there),
 * then the chosen assignment over them. A field the grids set differently, and the rollout temperature, stay
 * the preset's own.
 */
export function recipeOf(
  grids: readonly GateBGrid[],
  assign: Record<string, unknown>,
): Record<string, unknown> {
  const shared = Object.entries(grids[0]?.base ?? {}).filter(
    ([k, v]) =>
      !PRESET_FIELDS.has(k) &&
      grids.every((g) => k in g.base && JSON.stringify(g.base[k]) === JSON.stringify(v)),
  );
  return { ...Object.fromEntries(shared), ...assign };
}

export function registeredRecipe(grids: readonly GateBGrid[]): RegisteredRecipe {
  if (!grids.length) throw gateBInputError('no gate B grid given');
  const incomplete = grids
    .filter((g) => g.have < g.cells)
    .map((g) => `${g.name} (${g.have} of ${g.cells} cells)`);
  const combined = grids.length > 1 ? combineGateB(grids) : null;
  if (combined?.chosen)
    return {
      recipe: recipeOf(grids, combined.chosen.assign),
      assign: combined.chosen.assign,
      source: 'every grid',
      incomplete,
    };
  const first = grids[0].report.chosen;
  if (first)
    return {
      recipe: recipeOf(grids, first.assign),
      assign: first.assign,
      source:
        grids.length > 1 ? `${grids[0].name} alone (no recipe passes on every grid)` : `${grids[0].name}`,
      incomplete,
    };
  return {
    recipe: null,
    assign: null,
    source: `no recipe passes gate B on ${grids[0].name}: the test is not run (gate B's failure is the finding)`,
    incomplete,
  };
}

const sameRecipe = (a: Record<string, unknown>, b: Record<string, unknown>): boolean =>
  Object.keys(a).length === Object.keys(b).length &&
  Object.entries(a).every(([k, v]) => JSON.stringify(b[k]) === JSON.stringify(v));

/**
 * Wall seconds of the test grid on `parallel` cores, estimated from gate B's cells of the chosen assignment
 * `assign` (RegisteredRecipe.assign, the axes' values the cells' times record). Each test preset, named by
 * its task kind in `presetTasks`, costs the mean seconds of the cells of the grids of its own task kind (a
 * kind no grid ran takes every grid's mean, the grids' means averaged), times `methods` / 2 (a gate B cell
 * trains gt and random), times the preset's `cellsPerPreset`; null when a grid it reads has no timed cell of
 * the recipe.
 */
export function testCostSeconds(
  grids: readonly GateBGrid[],
  assign: Record<string, unknown>,
  presetTasks: readonly string[],
  cellsPerPreset: number,
  methods: number,
  parallel = 2,
): number | null {
  const meanOf = (gs: readonly GateBGrid[]): number | null => {
    const means: number[] = [];
    for (const g of gs) {
      const t = g.times.filter((x) => sameRecipe(x.assign, assign)).map((x) => x.seconds);
      if (!t.length) return null;
      means.push(t.reduce((a, b) => a + b, 0) / t.length);
    }
    return means.reduce((a, b) => a + b, 0) / means.length;
  };
  let total = 0;
  for (const kind of presetTasks) {
    const own = grids.filter((g) => g.task === kind);
    const perCell = meanOf(own.length ? own : grids);
    if (perCell === null) return null;
    total += perCell * (methods / 2) * cellsPerPreset;
  }
  return total / parallel;
}
