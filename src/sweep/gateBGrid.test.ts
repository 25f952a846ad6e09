// The pre-registered recipe from gate B's grids (over every grid, else the first alone, else none) and the
// test's cost estimated from the grids' cell times.
import { describe, expect, it } from 'vitest';
import type { GateBReport, GateBRow } from './gateB';
import { readGateBGrid, recipeOf, registeredRecipe, testCostSeconds, type GateBGrid } from './gateBGrid';

const A = { 'train.lr': 1e-5 };
const B = { 'train.lr': 1e-4 };
const row = (assign: Record<string, unknown>, pass: boolean, gtGain: number): GateBRow => ({
  recipe: JSON.stringify(assign),
  assign,
  seeds: [1, 2],
  gtGain,
  randomGain: 0,
  randomKl: 0.01,
  gtZeroStd: null,
  pass,
  why: pass ? [] : ['x'],
});
const grid = (
  name: string,
  rows: GateBRow[],
  times: GateBGrid['times'] = [],
  have = 4,
  base: GateBGrid['base'] = {},
  task?: string,
): GateBGrid => {
  const report: GateBReport = { rows, chosen: rows.find((r) => r.pass) ?? null, missing: [] };
  return { dir: name, name, report, have, cells: 4, times, base, ...(task ? { task } : {}) };
};

describe('registeredRecipe', () => {
  it('takes the recipe that passes on every grid', () => {
    const r = registeredRecipe([
      grid('m', [row(A, true, 0.2), row(B, true, 0.3)]),
      grid('a', [row(A, true, 0.2), row(B, false, 0.3)]),
    ]);
    expect(r).toEqual({ recipe: A, assign: A, source: 'every grid', incomplete: [] });
  });

  it("carries the train fields every grid's own config shares, not the temperature or fields that differ", () => {
    // two grids whose recipe is their base config (only the seed varies): the test must train with B 256 and
    // K 16, not the preset's B 16 and K 8; the rollout temperature stays each preset's (gates A choose it)
    const base = (T: number, extra: Record<string, unknown> = {}) => ({
      'train.batchPrompts': 256,
      'train.samples': 16,
      'train.lr': 2e-4,
      'train.temperature': T,
      ...extra,
    });
    const m = grid('m', [row({}, true, 12.6)], [], 4, base(0.5, { 'train.rowsPerPass': 2048 }));
    const w = grid('w', [row({}, true, 11.0)], [], 4, base(1.0, { 'train.rowsPerPass': 1024 }));
    const r = registeredRecipe([m, w]);
    expect(r.recipe).toEqual({ 'train.batchPrompts': 256, 'train.samples': 16, 'train.lr': 2e-4 });
    expect(r.assign).toEqual({});
    // the assignment wins over a base field; one grid alone still leaves the temperature to the preset
    expect(recipeOf([m], { 'train.lr': 1e-4 })).toEqual({
      'train.batchPrompts': 256,
      'train.samples': 16,
      'train.lr': 1e-4,
      'train.rowsPerPass': 2048,
    });
  });

  it("falls back to the first grid's choice, then to none, and names incomplete grids", () => {
    const first = registeredRecipe([grid('m', [row(B, true, 0.3)]), grid('a', [row(B, false, 0.3)], [], 3)]);
    expect(first.recipe).toEqual(B);
    expect(first.source).toBe('m alone (no recipe passes on every grid)');
    expect(first.incomplete).toEqual(['a (3 of 4 cells)']);
    const none = registeredRecipe([grid('m', [row(B, false, 0.3)])]);
    expect(none.recipe).toBeNull();
    expect(none.source).toMatch(/^no recipe passes gate B on m: the test is not run/);
  });
});

describe('the committed B 256 grids', () => {
  it('give the recipe their configs ran, without either rollout temperature', () => {
    const grids = ['muladdw-s17', 'mulw-s18'].map((g) =>
      readGateBGrid(`experiments/regime/gate-b/B256-${g}`),
    );
    expect(grids.map((g) => g.base['train.temperature'])).toEqual([0.5, 1.0]);
    expect(grids.map((g) => g.task)).toEqual(['muladdw', 'mulw']);
    const r = registeredRecipe(grids);
    expect(r.source).toBe('every grid');
    expect(r.assign).toEqual({});
    expect(r.recipe).toEqual({
      'train.batchPrompts': 256,
      'train.samples': 16,
      'train.prompts': 'unseen',
      'train.innerEpochs': 1,
      'train.scaleRewards': 'group',
      'train.lr': 2e-4,
      'train.beta': 0.1,
      'train.rowsPerPass': 2048,
    });
  });
});

describe('testCostSeconds', () => {
  const times = (...s: number[]): GateBGrid['times'] => [
    ...s.map((seconds) => ({ assign: A, seconds })),
    { assign: B, seconds: 5000 },
  ];
  const m = grid('m', [], times(100, 300), 4, {}, 'muladdw');
  const a = grid('a', [], times(400), 4, {}, 'addw');

  it("costs each preset at its own task kind's gate B cells, x methods / 2, x its cells, over 2 cores", () => {
    // muladdw's cells of recipe A average 200 s; x 5/2 methods x 16 cells / 2 cores
    expect(testCostSeconds([m, a], A, ['muladdw'], 16, 5)).toBe(4000);
    // addw's: 400 s; both presets: (200 + 400) x 5/2 x 16 / 2
    expect(testCostSeconds([m, a], A, ['addw'], 16, 5)).toBe(8000);
    expect(testCostSeconds([m, a], A, ['muladdw', 'addw'], 16, 5)).toBe(12000);
    // a cell per method: x 1/2
    expect(testCostSeconds([m, a], A, ['muladdw'], 80, 1)).toBe(4000);
  });

  it("takes every grid's mean for a task kind no grid ran, and is unknown without a timed cell", () => {
    // (200 + 400) / 2 = 300 s
    expect(testCostSeconds([m, a], A, ['mulw'], 16, 5)).toBe(6000);
    expect(testCostSeconds([m, grid('x', [])], A, ['mulw'], 16, 5)).toBeNull();
    expect(testCostSeconds([m, a], { 'train.lr': 3e-5 }, ['muladdw'], 16, 5)).toBeNull();
  });
});
