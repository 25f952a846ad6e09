// A small grid run in the page (issue 15): up to 8 cells, each the Train view's settings with one or two
// numeric settings set from lists (e.g. seed x lr), run one after another in the training worker; every
// finished cell is kept as a run in the Compare view (seeds of one setting draw one band), and the grid's
// sweep report (the one npm run sweep writes; gridReport.ts) opens in the Sweep view. Nothing runs
// unless every cell's settings pass the Start button's checks.
import { pageGridReport, type PageCell } from '../formats/sweep/gridReport';
import { keepRunAs } from './labBridge';
import { currentLabRun } from '../formats/labRuns';
import { settingsProblems, type RunSettings } from '../formats/runSettings';
import { cohortContext } from '../formats/customCohort';
import { useStore } from './store';
import type { SweepReportView } from '../formats/sweep/sweepReport';
import { startTraining } from './trainBridge';

/** The Sweep view's source line of the grid's report. */
export const PAGE_GRID_FILE = 'run here in the Compare view';

/** The most cells a grid may have in the page (larger grids: npm run sweep). */
export const MAX_PAGE_CELLS = 8;

/** Settings a grid axis may vary: the numeric ones. */
export type GridKey = {
  [K in keyof RunSettings]: RunSettings[K] extends number ? K : never;
}[keyof RunSettings];
export const GRID_KEYS: readonly GridKey[] = [
  'seed',
  'lr',
  'temperature',
  'tau',
  'beta',
  'batchPrompts',
  'samples',
  'steps',
  'evalEvery',
  'innerEpochs',
];

export interface GridAxis {
  key: GridKey;
  /** Comma-separated values as typed. */
  values: string;
}

/** The cells of a grid (cartesian product, first axis slowest), or every problem with it. */
export function gridCells(
  base: RunSettings,
  axes: readonly GridAxis[],
  presetAgents?: number,
): { ok: true; cells: RunSettings[] } | { ok: false; errors: string[] } {
  const errors: string[] = [];
  const lists = axes.map((a) => {
    const parts = a.values
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean);
    const nums = parts.map(Number);
    parts.forEach((p, i) => Number.isFinite(nums[i]) || errors.push(`${a.key}: "${p}" is not a number`));
    if (!parts.length) errors.push(`${a.key}: give at least one value (comma-separated)`);
    if (new Set(nums).size !== nums.length) errors.push(`${a.key}: a value is listed twice`);
    return nums;
  });
  if (new Set(axes.map((a) => a.key)).size !== axes.length) errors.push('the two axes set the same setting');
  const count = lists.reduce((n, l) => n * Math.max(1, l.length), 1);
  if (count > MAX_PAGE_CELLS)
    errors.push(
      `${count} cells: the page runs at most ${MAX_PAGE_CELLS} (use npm run sweep for larger grids)`,
    );
  if (errors.length) return { ok: false, errors };
  let cells: RunSettings[] = [{ ...base }];
  axes.forEach((a, i) => (cells = cells.flatMap((c) => lists[i].map((v) => ({ ...c, [a.key]: v })))));
  const st = useStore.getState();
  cells.forEach((c, i) => {
    const p = settingsProblems(
      c,
      presetAgents,
      cohortContext(st.presets, st.importedCheckpoints, st.taskFiles),
    );
    for (const [k, why] of Object.entries(p)) errors.push(`cell ${i + 1} (${label(c, axes)}): ${k}: ${why}`);
  });
  return errors.length ? { ok: false, errors } : { ok: true, cells };
}

/** "seed=1, lr=0.0003" for a cell. */
export const label = (c: RunSettings, axes: readonly GridAxis[]): string =>
  axes.map((a) => `${a.key}=${c[a.key]}`).join(', ');

let cancelled = false;

/** Stop after the cell that is running (which is paused now). */
export function cancelGrid(): void {
  cancelled = true;
  const s = useStore.getState();
  s.setGrid(s.grid && { ...s.grid, message: 'Stopped; the finished cells are kept.', running: false });
}

/** Resolves when the run started last ends ('done' or 'error'); false if the grid was cancelled first. */
function runEnded(): Promise<boolean> {
  return new Promise((resolve) => {
    const check = (phase: string) => {
      if (phase === 'done' || phase === 'error' || cancelled) {
        unsub();
        resolve(!cancelled && phase === 'done');
      }
    };
    const unsub = useStore.subscribe((s) => check(s.runStatus.phase));
    check(useStore.getState().runStatus.phase);
  });
}

/** Run the cells one after another in the worker, keeping each finished one for the Compare view. */
export async function runGrid(cells: readonly RunSettings[], axes: readonly GridAxis[]): Promise<number> {
  cancelled = false;
  const st = useStore.getState();
  const base = st.runSettings;
  st.setLabShown('current', false); // the current run is each cell in turn; the kept copies are shown
  let done = 0;
  const finished: PageCell[] = [];
  for (const [i, c] of cells.entries()) {
    if (cancelled) break;
    st.setGrid({
      total: cells.length,
      done,
      running: true,
      message: `Cell ${i + 1} of ${cells.length}: ${label(c, axes)}…`,
    });
    useStore.getState().setRunSettings(c);
    const [startedAt, t0] = [new Date().toISOString(), performance.now()];
    const problems = startTraining();
    if (Object.keys(problems).length || !(await runEnded())) break;
    keepRunAs(`grid ${i + 1}/${cells.length}: ${label(c, axes)}`);
    finished.push(finishedCell(c, axes, startedAt, (performance.now() - t0) / 1000));
    done++;
  }
  useStore.getState().setRunSettings(base);
  const s = useStore.getState();
  s.setGrid({
    total: cells.length,
    done,
    running: false,
    message: `Grid: ${done} of ${cells.length} cells finished and kept in Compare${reportGrid(base, cells, axes, finished)}.`,
  });
  return done;
}

/** The cell that just finished (the store's current run), for the grid's report. */
function finishedCell(
  c: RunSettings,
  axes: readonly GridAxis[],
  startedAt: string,
  seconds: number,
): PageCell {
  const st = useStore.getState();
  const assign = Object.fromEntries(axes.map((a) => [a.key, c[a.key]]));
  return { run: currentLabRun(st), assign, label: label(c, axes), backend: st.backend, startedAt, seconds };
}

/** Build the grid's sweep report and show it in the Sweep view; the message's tail says how it went. */
function reportGrid(
  base: RunSettings,
  cells: readonly RunSettings[],
  axes: readonly GridAxis[],
  finished: PageCell[],
): string {
  if (!finished.length) return '';
  const values = Object.fromEntries(axes.map((a) => [a.key, [...new Set(cells.map((c) => c[a.key]))]]));
  const planned = cells.map((c) => ({
    label: label(c, axes),
    assign: Object.fromEntries(axes.map((a) => [a.key, c[a.key]])),
  }));
  const r = pageGridReport(base, values, planned, finished);
  const st = useStore.getState();
  if (!r.ok) {
    st.setLabNotice({ kind: 'error', title: 'The grid report could not be built', lines: r.errors });
    return '; no report (see the notice)';
  }
  const runs = Object.fromEntries(
    finished.map((f, i) => [r.records![i].id, { ...f.run, id: `cell:${r.records![i].id}` }]),
  );
  st.setSweep({ file: PAGE_GRID_FILE, report: r.report as unknown as SweepReportView, cells: runs });
  return '; its sweep report is in the Sweep view';
}
