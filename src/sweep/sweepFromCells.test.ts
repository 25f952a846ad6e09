// The page's sweep report from cell results (sweepFromCells.ts) against `npm run sweep -- --merge`'s
// (src/sweep/run.ts writeReport) on the same real cells (two tiny experiments on the CPU engine): the same
// report JSON but for the wall-clock `timing`, with the folder's sweep.json and without it; damaged cells,
// cells of another version and mixed sweeps are refused with every problem named.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCell } from './cell';
import { planSweep, type SweepPlan } from './grid';
import type { SweepReport } from '../formats/sweep/report';
import type { CellRecord } from '../formats/sweep/records';
import { writeReport } from './run';
import { claimDir, readManifest } from './store';
import { pageGridReport, pageCellRecord } from '../formats/sweep/gridReport';
import { labRunFromFile } from '../formats/labRuns';
import { DEFAULT_RUN_SETTINGS } from '../formats/runSettings';
import { reportFromCells, type JsonFile } from '../formats/sweep/sweepFromCells';
import { cellAsRun } from '../formats/sweep/sweepReport';

const SWEEP = {
  name: 'tiny-page',
  backend: 'cpu',
  steps: 2,
  methods: ['co-rl', 'ttrl'],
  cohort: { preset: 'paper-demo' },
  train: { batchPrompts: 2, samples: 2 },
  eval: { every: 1, problems: 8, ensembleSamples: 1 },
  grid: { seed: [1, 2] },
};
const dir = mkdtempSync(join(tmpdir(), 'sweep-page-'));
let nodeReport: SweepReport;
let cells: JsonFile[];
const json = (f: string): unknown => JSON.parse(readFileSync(f, 'utf8'));
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a record edited to damage it
type Rec = Record<string, any>;
const noTiming = ({ timing: _t, ...rest }: SweepReport) => rest;

beforeAll(async () => {
  const r = planSweep(SWEEP);
  if (!r.ok) throw new Error(r.errors.join('\n'));
  const plan: SweepPlan = r.plan;
  claimDir(dir, plan, SWEEP, false);
  for (const c of plan.cells) expect((await runCell(dir, plan, c.index)).status).toBe('done');
  nodeReport = await writeReport(dir, readManifest(dir)!, false);
  cells = readdirSync(join(dir, 'cells')).map((f) => ({
    path: `cells/${f}`,
    value: json(join(dir, 'cells', f)),
  }));
}, 120_000);

describe('the page report from cell results', () => {
  it('equals the Node merge report (timing aside), with and without sweep.json', () => {
    const fromDisk = json(join(dir, 'report.json')) as SweepReport;
    expect(noTiming(nodeReport)).toEqual(noTiming(fromDisk));
    const withManifest = reportFromCells(cells, { path: 'sweep.json', value: json(join(dir, 'sweep.json')) });
    if (!withManifest.ok) throw new Error(withManifest.errors.join('\n'));
    expect(JSON.stringify(noTiming(withManifest.report))).toBe(JSON.stringify(noTiming(fromDisk)));
    const bare = reportFromCells([...cells].reverse(), null, 'tiny-page');
    if (!bare.ok) throw new Error(bare.errors.join('\n'));
    expect(JSON.stringify(noTiming(bare.report))).toBe(JSON.stringify(noTiming(fromDisk)));
    expect(fromDisk.counts.done).toBe(2);
    expect(fromDisk.groups).toHaveLength(1);
    expect(fromDisk.groups[0].overlap).not.toBeNull();
    expect(fromDisk.cells.every((c) => /^[0-9a-f]{16}$/.test(c.metricsHash!))).toBe(true);
  });

  it('refuses damaged cells and cells of another version, listing each problem', () => {
    const [a, b] = cells.map((c) => structuredClone(c.value) as Rec);
    a.status = 'maybe';
    a.result.summary[0].meanGreedy.final = 'high';
    b.format = 'co-rl-sweep-cell/2';
    const r = reportFromCells(
      [
        { path: 'cells/a.json', value: a },
        { path: 'cells/b.json', value: b },
      ],
      null,
    );
    expect(r.ok).toBe(false);
    const errs = r.ok ? [] : r.errors;
    expect(errs).toContain('cells/a.json.status: must be done or failed, got "maybe"');
    expect(errs).toContain(
      'cells/a.json.result.summary[0].meanGreedy.final: must be a finite number, got "high"',
    );
    expect(errs.some((e) => e.startsWith('cells/b.json: a "co-rl-sweep-cell/2" file'))).toBe(true);
    const broken = structuredClone(cells[0].value) as Rec;
    broken.result.evals[0].agents[0].greedyCorrect = '10x';
    const r2 = reportFromCells([{ path: 'c.json', value: broken }], null);
    expect(r2.ok ? [] : r2.errors.join('\n')).toMatch(
      /^c\.json: .*greedyCorrect: must be a string of 0s and 1s/,
    );
  });

  it('refuses cells of two sweeps without their sweep.json, and two results of one cell', () => {
    const other = { ...(cells[1].value as object), sweep: 'ffffffffffffffff' };
    const r = reportFromCells([cells[0], { path: 'x.json', value: other }], null);
    expect(r.ok ? [] : r.errors).toEqual([expect.stringMatching(/belong to 2 sweeps/)]);
    const twice = reportFromCells([cells[0], { path: 'copy.json', value: cells[0].value }], null);
    expect(twice.ok ? [] : twice.errors).toEqual([
      expect.stringMatching(/^copy\.json: cell \d .* is also in cells\//),
    ]);
    expect(reportFromCells([], null)).toEqual({
      ok: false,
      errors: [expect.stringMatching(/no cell results/)],
    });
  });
});

describe('the page grid report', () => {
  it('gives the Node report for the same runs (ids, hash and timing aside)', () => {
    // the page runs in full: its runs are the full records (DIR/full), the Node report reads the compact ones
    const recs = readdirSync(join(dir, 'full'))
      .map((f) => json(join(dir, 'full', f)) as CellRecord)
      .sort((a, b) => a.index - b.index);
    const done = recs.map((rec) => {
      const f = cellAsRun(rec);
      if (!f.ok) throw new Error(f.errors.join('\n'));
      const run = labRunFromFile(f.run, rec.id, 'kept');
      const seed = rec.result!.config.seed;
      return {
        run,
        assign: { seed },
        label: `seed=${seed}`,
        backend: 'cpu',
        startedAt: rec.startedAt,
        seconds: 1,
      };
    });
    // each page record holds the Node record's result: config, records in its order, summary
    done.forEach((c, i) => {
      const { seconds: _s, startedAt: _t, backend: _b, ...page } = pageCellRecord('h', i, c).result!;
      const { seconds: _s2, startedAt: _t2, backend: _b2, ...node } = recs[i].result!;
      expect(page).toEqual(node);
    });
    const planned = done.map(({ label, assign }) => ({ label, assign }));
    const r = pageGridReport(DEFAULT_RUN_SETTINGS, { seed: [1, 2] }, planned, done);
    if (!r.ok) throw new Error(r.errors.join('\n'));
    const strip = (x: SweepReport) => ({
      ...noTiming(x),
      sweep: { axes: x.sweep.axes, cells: x.sweep.cells },
      cells: x.cells.map(({ id: _id, ...rest }) => rest),
    });
    expect(JSON.stringify(strip(r.report))).toBe(JSON.stringify(strip(nodeReport)));
    expect(r.report.claims.length).toBeGreaterThan(0);
    expect(r.report.sweep.name).toBe('page grid');
  });

  it('counts cells that did not run as missing', () => {
    const rec = cells[0].value as CellRecord;
    const f = cellAsRun(rec);
    if (!f.ok) throw new Error(f.errors.join('\n'));
    const one = {
      run: labRunFromFile(f.run, 'x', 'kept'),
      assign: { seed: 1 },
      label: 'seed=1',
      backend: 'cpu',
      startedAt: rec.startedAt,
      seconds: 1,
    };
    const r = pageGridReport(
      DEFAULT_RUN_SETTINGS,
      { seed: [1, 2] },
      [one, { label: 'seed=2', assign: { seed: 2 } }],
      [one],
    );
    if (!r.ok) throw new Error(r.errors.join('\n'));
    expect(r.report.counts).toEqual({ done: 1, failed: 0, missing: 1 });
  });
});
