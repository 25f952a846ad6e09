// The page grid's sweep report (issue 15): each finished cell of gridRunner.ts becomes a cell record
// (co-rl-sweep-cell/1, as `npm run sweep` writes DIR/cells/<id>.json) and the grid a sweep.json, and the
// report is built from them by the sweep's own builder (src/formats/sweep/report.ts via sweepFromCells.ts).
import { stable } from '../../rl/canonical';
import type { RewardMethod } from '../../rl/rewards';
import { summarize } from '../../rl/summary';
import { sha16 } from '../../util/sha256';
import { CELL_FORMAT, SWEEP_FORMAT, type CellRecord, type SweepManifest } from './records';
import type { LabRun } from '../labRuns';
import type { RunSettings } from '../runSettings';
import { reportFromCells } from './sweepFromCells';

/** One finished cell of the page grid. */
export interface PageCell {
  run: LabRun;
  /** The grid's values of this cell, by setting (e.g. { seed: 2 }). */
  assign: Record<string, number>;
  label: string;
  backend: string;
  startedAt: string;
  seconds: number;
}

/** The grid as a sweep: its hash is that of the base settings and the axes' values. */
export function gridManifest(
  base: RunSettings,
  axes: Record<string, number[]>,
  cells: readonly { id: string; label: string; assign: Record<string, unknown> }[],
): SweepManifest {
  const config = { page: true, settings: base, grid: axes };
  return {
    format: SWEEP_FORMAT,
    name: 'page grid',
    hash: sha16(stable(config)),
    config,
    axes: Object.keys(axes),
    cells: cells.map((c, index) => ({ index, id: c.id, label: c.label, assign: c.assign })),
  };
}

/** A finished page cell as the record the sweep writes for a cell (ids: the config's hash, as --backend cpu). */
export function pageCellRecord(sweep: string, index: number, c: PageCell): CellRecord {
  const { methods, steps: perStep, evals: perEval } = c.run.metrics;
  // the experiment's order (src/rl/experiment.ts): by step, then method, so the metric hashes agree
  const order = <T extends { step: number; method: RewardMethod }>(per: Partial<Record<RewardMethod, T[]>>) =>
    methods
      .flatMap((m) => per[m] ?? [])
      .sort((a, b) => a.step - b.step || methods.indexOf(a.method) - methods.indexOf(b.method));
  const steps = order(perStep);
  const evals = order(perEval);
  return {
    format: CELL_FORMAT,
    sweep,
    index,
    id: sha16(stable({ config: c.run.config, backend: c.backend })),
    label: c.label,
    assign: c.assign,
    status: 'done',
    error: null,
    host: 'this page',
    startedAt: c.startedAt,
    seconds: c.seconds,
    result: {
      config: c.run.config,
      backend: c.backend,
      startedAt: c.startedAt,
      seconds: c.seconds,
      completedSteps: c.run.step,
      steps,
      evals,
      summary: summarize(methods, steps, evals),
      error: null,
    },
  };
}

/** The report of the page grid's finished cells (the cells not run count as missing), or its problems. */
export function pageGridReport(
  base: RunSettings,
  axes: Record<string, number[]>,
  planned: readonly { label: string; assign: Record<string, number> }[],
  done: readonly PageCell[],
): ReturnType<typeof reportFromCells> & { records?: CellRecord[] } {
  const proto = gridManifest(base, axes, []);
  const records = done.map((c, i) => pageCellRecord(proto.hash, i, c));
  const ids = planned.map((_, i) => records[i]?.id ?? sha16(stable({ grid: proto.hash, missing: i })));
  const manifest = gridManifest(
    base,
    axes,
    planned.map((p, i) => ({ ...p, id: ids[i] })),
  );
  const r = reportFromCells(
    records.map((value, i) => ({ path: `cell ${i + 1}`, value })),
    { path: 'grid', value: manifest },
  );
  return r.ok ? { ...r, records } : r;
}
