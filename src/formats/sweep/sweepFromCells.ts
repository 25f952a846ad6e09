// A sweep report built in the page (issue 15) from cell results (DIR/cells/<id>.json, co-rl-sweep-cell/1)
// and, when given, the folder's sweep.json: the same builder as `npm run sweep -- --merge`
// (src/formats/sweep/report.ts), after every record is checked; any problem refuses the lot, each one listed.
import { buildReport, type SweepReport } from './report';
import { sha16 } from '../../util/sha256';
import { CELL_FORMAT, SWEEP_FORMAT, type CellRecord, type SweepManifest } from './records';
import { cellAsRun } from './sweepReport';

const isObj = (x: unknown): x is Record<string, unknown> =>
  typeof x === 'object' && x !== null && !Array.isArray(x);
const shown = (x: unknown): string => {
  const s = x === undefined ? 'nothing (missing)' : (JSON.stringify(x) ?? String(x));
  return s.length > 60 ? `${s.slice(0, 57)}...` : s;
};
const isInt = (v: unknown): boolean => typeof v === 'number' && Number.isInteger(v) && v >= 0;
const isNum = (v: unknown): boolean => typeof v === 'number' && Number.isFinite(v);
const numOrNull = (v: unknown): boolean => v === null || isNum(v);

function need(errs: string[], at: string, ok: boolean, what: string, v: unknown): void {
  if (!ok) errs.push(`${at}: must be ${what}, got ${shown(v)}`);
}

/** The fields of one method summary that the report reads (src/rl/summary.ts). */
function checkSummary(errs: string[], at: string, s: unknown): void {
  if (!isObj(s)) return void errs.push(`${at}: must be an object, got ${shown(s)}`);
  need(errs, `${at}.method`, typeof s.method === 'string', 'a method name', s.method);
  for (const k of ['meanGreedy', 'ensemble'] as const) {
    const c = s[k] as Record<string, unknown> | undefined;
    need(errs, `${at}.${k}.base`, isNum(c?.base), 'a finite number', c?.base);
    need(errs, `${at}.${k}.final`, isNum(c?.final), 'a finite number', c?.final);
  }
  if (!Array.isArray(s.agents))
    return void errs.push(`${at}.agents: must be an array, got ${shown(s.agents)}`);
  s.agents.forEach((a: unknown, i) => {
    const aat = `${at}.agents[${i}]`;
    if (!isObj(a)) return void errs.push(`${aat}: must be an object, got ${shown(a)}`);
    need(errs, `${aat}.agent`, typeof a.agent === 'string', 'a string', a.agent);
    const g = a.greedy as Record<string, unknown> | undefined;
    need(errs, `${aat}.greedy.base`, isNum(g?.base), 'a finite number', g?.base);
    need(errs, `${aat}.greedy.final`, isNum(g?.final), 'a finite number', g?.final);
    for (const k of ['rewardGroupStdNormEnd', 'trainedLabelEnd'])
      need(errs, `${aat}.${k}`, numOrNull(a[k]), 'a number or null', a[k]);
  });
}

/** Check one cell record; its problems go to `errs` (each prefixed with `at`). */
export function checkCellRecord(errs: string[], at: string, raw: unknown): raw is CellRecord {
  const n = errs.length;
  if (!isObj(raw)) return (errs.push(`${at}: not a sweep cell result, the file holds ${shown(raw)}`), false);
  if (raw.format !== CELL_FORMAT)
    return (
      errs.push(`${at}: a ${shown(raw.format)} file; a cell result is ${CELL_FORMAT} (DIR/cells/<id>.json)`),
      false
    );
  need(errs, `${at}.index`, isInt(raw.index), 'an integer >= 0', raw.index);
  for (const k of ['id', 'label', 'sweep'])
    need(errs, `${at}.${k}`, typeof raw[k] === 'string', 'a string', raw[k]);
  need(errs, `${at}.assign`, isObj(raw.assign), 'an object', raw.assign);
  need(errs, `${at}.status`, raw.status === 'done' || raw.status === 'failed', 'done or failed', raw.status);
  need(errs, `${at}.seconds`, isNum(raw.seconds), 'a finite number', raw.seconds);
  need(
    errs,
    `${at}.error`,
    raw.error === null || typeof raw.error === 'string',
    'a string or null',
    raw.error,
  );
  const r = raw.result;
  if (r === null && raw.status === 'done') errs.push(`${at}.result: a done cell must have its result`);
  if (r !== null) {
    const run = cellAsRun(raw); // the records and config, by the run-file checks
    if (!run.ok) errs.push(...run.errors.map((e) => `${at}: ${e}`));
    const res = r as Record<string, unknown>;
    need(
      errs,
      `${at}.result.completedSteps`,
      isInt(res?.completedSteps),
      'an integer >= 0',
      res?.completedSteps,
    );
    if (!Array.isArray(res?.summary))
      errs.push(`${at}.result.summary: must be an array, got ${shown(res?.summary)}`);
    else res.summary.forEach((s, i) => checkSummary(errs, `${at}.result.summary[${i}]`, s));
  }
  return errs.length === n;
}

/** Check a sweep.json (co-rl-sweep/1): the cells and names the report reads. */
function checkManifest(errs: string[], at: string, raw: unknown): raw is SweepManifest {
  const n = errs.length;
  if (!isObj(raw) || raw.format !== SWEEP_FORMAT)
    return (
      errs.push(
        `${at}: not a sweep manifest (format ${shown(isObj(raw) ? raw.format : raw)}, expected ${SWEEP_FORMAT})`,
      ),
      false
    );
  need(errs, `${at}.name`, typeof raw.name === 'string', 'a string', raw.name);
  need(errs, `${at}.hash`, typeof raw.hash === 'string', 'a string', raw.hash);
  need(
    errs,
    `${at}.axes`,
    Array.isArray(raw.axes) && raw.axes.every((a) => typeof a === 'string'),
    'a list of paths',
    raw.axes,
  );
  if (!Array.isArray(raw.cells)) errs.push(`${at}.cells: must be an array, got ${shown(raw.cells)}`);
  else
    raw.cells.forEach((c: unknown, i) => {
      const ok =
        isObj(c) &&
        isInt(c.index) &&
        typeof c.id === 'string' &&
        typeof c.label === 'string' &&
        isObj(c.assign);
      need(errs, `${at}.cells[${i}]`, ok, '{ index, id, label, assign }', c);
    });
  return errs.length === n;
}

/** A manifest for cell records without their sweep.json: the cells they name, in index order. */
export function manifestOfRecords(records: readonly CellRecord[], name: string): SweepManifest {
  const cells = [...records]
    .sort((a, b) => a.index - b.index)
    .map(({ index, id, label, assign }) => ({ index, id, label, assign }));
  const axes = [...new Set(cells.flatMap((c) => Object.keys(c.assign)))];
  return {
    format: SWEEP_FORMAT,
    name,
    hash: records[0]?.sweep ?? sha16(''),
    config: null,
    axes,
    cells,
  };
}

export interface JsonFile {
  path: string;
  value: unknown;
}

/**
 * The report of cell records (and their sweep.json, when one is given), built as `npm run sweep -- --merge`
 * builds it; refused with every problem when a record or the manifest is damaged or of another version,
 * when records of two sweeps are mixed without a manifest, or when two records claim one cell.
 */
export function reportFromCells(
  cells: readonly JsonFile[],
  manifestFile: JsonFile | null,
  name = 'sweep',
): { ok: true; report: SweepReport } | { ok: false; errors: string[] } {
  const errs: string[] = [];
  const records: CellRecord[] = [];
  const paths: string[] = [];
  for (const f of cells) {
    if (!checkCellRecord(errs, f.path, f.value)) continue;
    records.push(f.value as CellRecord);
    paths.push(f.path);
  }
  let manifest: SweepManifest | null = null;
  if (manifestFile && checkManifest(errs, manifestFile.path, manifestFile.value))
    manifest = manifestFile.value as SweepManifest;
  if (!records.length && !errs.length) errs.push('no cell results (DIR/cells/<id>.json) among the files');
  const seen = new Map<string, string>();
  records.forEach((r, i) => {
    const keys = manifest ? [r.id] : [r.id, `#${r.index}`]; // a manifest says which id each index has
    const twin = keys.map((k) => seen.get(k)).find(Boolean);
    if (twin)
      errs.push(`${paths[i]}: cell ${r.index} (${r.id}) is also in ${twin}; open one result per cell`);
    for (const k of keys) seen.set(k, paths[i]);
  });
  const sweeps = [...new Set(records.map((r) => r.sweep))];
  if (!manifest && sweeps.length > 1)
    errs.push(
      `the cell results belong to ${sweeps.length} sweeps (${sweeps.join(', ')}); open one sweep's cells, or its folder with sweep.json`,
    );
  if (errs.length) return { ok: false, errors: errs };
  try {
    return { ok: true, report: buildReport(manifest ?? manifestOfRecords(records, name), records) };
  } catch (e) {
    return {
      ok: false,
      errors: [`the report could not be built: ${e instanceof Error ? e.message : String(e)}`],
    };
  }
}
