// A sweep's folder: DIR/sweep.json (the sweep config and its cells), DIR/cells/<id>.json (one compact
// record per cell, keyed by the hash of its full config, written atomically: temporary file, then rename;
// small enough to commit), DIR/full/<id>.json (the same record with every step), DIR/logs/<id>.log (the
// cell's stderr) and DIR/running/<id>.json (a cell in progress); DIR/.gitignore leaves out all but the
// manifest and the compact records (their formats: src/formats/sweep/records.ts). docs/sweeps.md.
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { InputError } from '../schema';
import type { SweepPlan } from './grid';
import { compactResult } from '../formats/sweep/compact';
import { CELL_FORMAT, SWEEP_FORMAT, type CellRecord, type SweepManifest } from '../formats/sweep/records';

/** A bad sweep config or folder: the CLI prints the problems and exits with status 2, nothing run. */
export class SweepInputError extends InputError {
  constructor(problems: string[]) {
    super(problems, 'sweep config');
    this.message = problems.join('\n  - '); // the CLI prints it after "  - "
    this.name = 'SweepInputError';
  }
}

/** A record of cell `index` of `plan` (this host). */
export function cellRecord(
  plan: SweepPlan,
  index: number,
  r: Pick<CellRecord, 'status' | 'error' | 'startedAt' | 'seconds' | 'result' | 'prereg'>,
): CellRecord {
  const c = plan.cells[index];
  return {
    format: CELL_FORMAT,
    sweep: plan.hash,
    index,
    id: c.id,
    label: c.label,
    assign: c.assign,
    host: hostname(),
    ...r,
  };
}

/** Write `text` to `file` atomically: a temporary file in the same folder, then rename. */
export function writeAtomic(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.tmp-${process.pid}-${Math.random().toString(36).slice(2)}`;
  writeFileSync(tmp, text);
  renameSync(tmp, file);
}

export const cellFile = (dir: string, id: string): string => join(dir, 'cells', `${id}.json`);
export const fullFile = (dir: string, id: string): string => join(dir, 'full', `${id}.json`);
export const logFile = (dir: string, id: string): string => join(dir, 'logs', `${id}.log`);
export const runningFile = (dir: string, id: string): string => join(dir, 'running', `${id}.json`);

export function manifestOf(plan: SweepPlan, config: unknown): SweepManifest {
  return {
    format: SWEEP_FORMAT,
    name: plan.name,
    hash: plan.hash,
    config,
    axes: plan.axes,
    cells: plan.cells.map(({ index, id, label, assign }) => ({ index, id, label, assign })),
  };
}

/** DIR/sweep.json, or null when DIR holds none. Throws on a damaged file. */
export function readManifest(dir: string): SweepManifest | null {
  const f = join(dir, 'sweep.json');
  if (!existsSync(f)) return null;
  let m: SweepManifest;
  try {
    m = JSON.parse(readFileSync(f, 'utf8'));
  } catch (e) {
    throw new Error(
      `${f} cannot be read (${(e as Error).message}); it is not a sweep folder, or the file was damaged`,
      { cause: e },
    );
  }
  if (m.format !== SWEEP_FORMAT)
    throw new Error(
      `${f} is not a sweep manifest (format ${JSON.stringify(m.format)}, expected ${SWEEP_FORMAT})`,
    );
  return m;
}

/**
 * Claim DIR for the sweep: refuse (unless `force`) a DIR holding results of another sweep, then write
 * sweep.json. Cell results already in DIR stay; those of cells with the same config hash are reused.
 */
export function claimDir(dir: string, plan: SweepPlan, config: unknown, force: boolean): void {
  const have = readManifest(dir);
  if (have && have.hash !== plan.hash && !force) {
    const done = listRecords(dir).length;
    throw new SweepInputError([
      `${dir} holds another sweep ("${have.name}", hash ${have.hash}, ${have.cells.length} cells, ${done} cell results); this one is "${plan.name}" (hash ${plan.hash}). ` +
        'Use another --out folder, or --force to take it over (results of cells with the same config are reused, the others are kept on disk but left out of the report).',
    ]);
  }
  if (!have || have.hash !== plan.hash)
    writeAtomic(join(dir, 'sweep.json'), `${JSON.stringify(manifestOf(plan, config), null, 1)}\n`);
  for (const sub of ['cells', 'full', 'logs', 'running']) mkdirSync(join(dir, sub), { recursive: true });
  writeAtomic(join(dir, '.gitignore'), GITIGNORE);
}

/** The record in `file` if it is a whole cell record of cell `id`, else null (damaged, partial, other). */
function parseRecord(file: string, id: string): CellRecord | null {
  try {
    const r = JSON.parse(readFileSync(file, 'utf8')) as CellRecord;
    return r.format === CELL_FORMAT && r.id === id ? r : null;
  } catch {
    // a record is renamed into place whole, so an unreadable one was damaged outside the sweep: rerun it
    return null;
  }
}

/** Every readable cell record in DIR/cells (temporary files and damaged records are skipped). */
export function listRecords(dir: string): CellRecord[] {
  const d = join(dir, 'cells');
  if (!existsSync(d)) return [];
  const names = readdirSync(d)
    .filter((n) => /^[0-9a-f]{16}\.json$/.test(n))
    .sort();
  return names.map((n) => parseRecord(join(d, n), n.slice(0, 16))).filter((r): r is CellRecord => r !== null);
}

/** The record of cell `id`, or null. */
export function readRecord(dir: string, id: string): CellRecord | null {
  const f = cellFile(dir, id);
  return existsSync(f) ? parseRecord(f, id) : null;
}

/** What git leaves out of a sweep folder: all but sweep.json and the compact records. */
const GITIGNORE =
  '# written by npm run sweep: commit sweep.json and cells/ (compact records) to resume from the repository\nfull/\nlogs/\nrunning/\n';

/**
 * Write a cell's record atomically and clear its running marker: the full record into DIR/full, then its
 * compact form into DIR/cells (the one resuming and every report read; compact.ts).
 */
export function writeRecord(dir: string, rec: CellRecord): void {
  if (rec.result && !rec.compact) {
    writeAtomic(fullFile(dir, rec.id), `${JSON.stringify(rec)}\n`);
    const c = compactResult(rec.result);
    rec = { ...rec, result: c.result, compact: c.compact };
  }
  writeAtomic(cellFile(dir, rec.id), `${JSON.stringify(rec)}\n`);
  rmSync(runningFile(dir, rec.id), { force: true });
}

/** Mark cell `id` as running in process `pid`. */
export function markRunning(dir: string, id: string, pid: number): void {
  writeAtomic(
    runningFile(dir, id),
    `${JSON.stringify({ pid, host: hostname(), startedAt: new Date().toISOString() })}\n`,
  );
}

/** Remove temporary files left by killed writers. */
export function sweepTemporaries(dir: string): void {
  for (const sub of ['cells', 'running']) {
    const d = join(dir, sub);
    if (existsSync(d))
      for (const f of readdirSync(d)) if (f.includes('.tmp-')) rmSync(join(d, f), { force: true });
  }
}
