// The Sweep view's file work (issue 15): open report.json with (or without) its cell results, the sweep
// folder itself, or cell results alone (the report is then built here: src/formats/sweep/sweepFromCells.ts);
// every file is checked before anything changes. A cell's curves go to the compare view.
import { labRunFromFile, type LabRun } from '../formats/labRuns';
import { useStore } from './store';
import { checkCellRecord, reportFromCells, type JsonFile } from '../formats/sweep/sweepFromCells';
import { cellAsRun, validateSweepReport, type SweepReportView } from '../formats/sweep/sweepReport';

const MAX_BYTES = 200 * 1024 * 1024;

async function readJson(f: File): Promise<{ ok: true; value: unknown } | { ok: false; error: string }> {
  if (f.size > MAX_BYTES)
    return {
      ok: false,
      error: `the file is ${(f.size / 1048576).toFixed(0)} MB, more than a sweep file can be`,
    };
  try {
    const text = await f.text();
    return { ok: true, value: JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text) };
  } catch (e) {
    return { ok: false, error: `not JSON (${e instanceof Error ? e.message : String(e)})` };
  }
}

const pathOf = (f: File): string =>
  (f as File & { webkitRelativePath?: string }).webkitRelativePath || f.name;

/** The chosen folder's name (files of a folder pick carry it in their path), or null. */
const folderName = (files: readonly File[]): string | null =>
  files.length && pathOf(files[0]).includes('/') ? pathOf(files[0]).split('/')[0] : null;

/** The report of the opened cell results (and sweep.json), built as --merge builds it; or the problems. */
async function buildFromCells(
  files: readonly File[],
  cellFiles: JsonFile[],
): Promise<{ ok: true; report: SweepReportView } | { ok: false; errors: string[] }> {
  const mf = files.find((f) => /(^|\/)sweep\.json$/.test(pathOf(f)) && !pathOf(f).includes('/running/'));
  let manifest: JsonFile | null = null;
  if (mf) {
    const m = await readJson(mf);
    if (!m.ok) return { ok: false, errors: [`${pathOf(mf)}:`, `  ${m.error}`] };
    manifest = { path: pathOf(mf), value: m.value };
  }
  const r = reportFromCells(cellFiles, manifest, folderName(files) ?? 'sweep');
  return r.ok ? { ok: true, report: r.report as unknown as SweepReportView } : r;
}

/**
 * Open the chosen files: one report.json (co-rl-sweep-report/1) and any cell results (co-rl-sweep-cell/1;
 * other files of a sweep folder such as logs are skipped). Without a report.json the report is built here
 * from the cell results and the folder's sweep.json, as `npm run sweep -- --merge` builds it. On any
 * problem the notice lists them all, per file, and the view keeps what it showed.
 */
export async function openSweepFiles(files: readonly File[]): Promise<boolean> {
  const st = useStore.getState();
  const errors: string[] = [];
  let report: SweepReportView | null = null;
  let reportFile = '';
  const cells: Record<string, LabRun> = {};
  const cellFiles: JsonFile[] = [];
  let built = ''; // where the cell results came from, when the report is built here
  const json = files.filter(
    (f) =>
      f.name.endsWith('.json') && !/(^|\/)sweep\.json$/.test(pathOf(f)) && !pathOf(f).includes('/running/'),
  );
  for (const f of json) {
    const r = await readJson(f);
    if (!r.ok) {
      errors.push(`${pathOf(f)}:`, `  ${r.error}`);
      continue;
    }
    const fmt = (r.value as { format?: unknown } | null)?.format;
    if (typeof fmt === 'string' && fmt.startsWith('co-rl-sweep-cell/')) {
      // every check of a cell record (the run-file checks of its curves among them), whatever else is open
      if (!checkCellRecord(errors, pathOf(f), r.value)) continue;
      const c = cellAsRun(r.value);
      cellFiles.push({ path: pathOf(f), value: r.value });
      if (c.ok) cells[c.id] = labRunFromFile(c.run, `cell:${c.id}`, 'imported');
      continue;
    }
    const v = validateSweepReport(r.value);
    if (!v.ok) errors.push(`${pathOf(f)}:`, ...v.errors.map((e) => `  ${e}`));
    else if (report)
      errors.push(
        `${pathOf(f)}:`,
        `  a second sweep report (the first was ${reportFile}); open one sweep at a time`,
      );
    else [report, reportFile] = [v.report, pathOf(f)];
  }
  if (!report && errors.length === 0 && cellFiles.length === 0)
    errors.push(
      `no report.json and no cell results among the ${files.length} file(s): open a sweep folder (npm run sweep -- --out DIR), its report.json or its cells/*.json`,
    );
  if (!report && errors.length === 0) {
    const b = await buildFromCells(files, cellFiles);
    if (b.ok)
      [report, reportFile, built] = [
        b.report,
        'cell results; report built here',
        folderName(files) ?? 'the chosen files',
      ];
    else errors.push(...b.errors);
  }
  if (errors.length || !report) {
    st.setLabNotice({ kind: 'error', title: 'Refused: nothing was opened', lines: errors });
    return false;
  }
  st.setSweep({ file: reportFile, report, cells });
  const n = Object.keys(cells).length;
  st.setLabNotice({
    kind: 'ok',
    title: built
      ? `Opened ${n} cell result${n === 1 ? '' : 's'} of ${built}; the report was built here, as --merge builds it`
      : `Opened ${reportFile} with ${n} cell result${n === 1 ? '' : 's'}`,
    lines: [],
  });
  return true;
}

/** Show a cell's curves in the compare view (added to its runs, shown) and open that view. */
export function showCellInCompare(cellId: string): boolean {
  const st = useStore.getState();
  const run = st.sweep?.cells[cellId];
  if (!run) return false;
  st.addLabRuns([run], true);
  st.setLabShown(run.id, true);
  if (typeof location !== 'undefined') location.hash = '#compare';
  return true;
}
