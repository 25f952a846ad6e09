// The local pool: each cell one child process (`sweep --out DIR --cell I`, the same entry point a
// scheduler calls), N at a time, with the progress bar. A child that dies without writing its record
// (killed, out of memory) gets a failed record naming how it ended; the other cells go on.
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { MODEL_WORKERS_ENV, PROGRESS_TAG } from './cell';
import { defaultWorkers } from '../rl/pool/nodePool';
import type { SweepPlan } from './grid';
import type { SweepProgress } from './progress';
import { cellRecord, logFile, readRecord, writeRecord } from './store';
import { type CellRecord } from '../formats/sweep/records';

/** The sweep CLI the children run. */
export const SWEEP_CLI = fileURLToPath(new URL('../cli/sweep.ts', import.meta.url));

/** The command line of the sweep CLI with `args` (this Node, tsx). */
export function sweepCommand(args: string[]): string[] {
  return [process.execPath, '--import', 'tsx', SWEEP_CLI, ...args];
}

/** The command line of a child that runs cell `index` of the sweep in `dir`. */
export function cellCommand(dir: string, index: number): string[] {
  return sweepCommand(['--out', dir, '--cell', String(index)]);
}

interface Running {
  index: number;
  started: number;
  frac: number;
}

/** Run one cell in a child process; resolves with its record (a failed one if the child wrote none). */
function runChild(
  dir: string,
  plan: SweepPlan,
  index: number,
  onFrac: (f: number) => void,
  children: Set<ChildProcess>,
  modelWorkers: number,
): Promise<CellRecord> {
  const cell = plan.cells[index];
  const log = openSync(logFile(dir, cell.id), 'w');
  const t0 = performance.now();
  const startedAt = new Date().toISOString();
  const [cmd, ...args] = cellCommand(dir, index);
  const child = spawn(cmd, args, {
    stdio: ['ignore', 'pipe', log],
    env: { ...process.env, SWEEP_PROGRESS: '1', [MODEL_WORKERS_ENV]: String(modelWorkers) },
  });
  children.add(child);
  let buf = '';
  child.stdout!.on('data', (d: Buffer) => {
    buf += d.toString();
    const lines = buf.split('\n');
    buf = lines.pop()!;
    for (const l of lines) {
      if (!l.startsWith(PROGRESS_TAG)) continue;
      const [done, total] = JSON.parse(l.slice(PROGRESS_TAG.length)) as [number, number];
      if (total > 0) onFrac(done / total);
    }
  });
  return new Promise((resolve) => {
    child.on('close', (code, signal) => {
      children.delete(child);
      closeSync(log);
      const rec = readRecord(dir, cell.id);
      if (rec && rec.startedAt >= startedAt) return resolve(rec);
      const how = signal ? `was killed by ${signal}` : `exited with status ${code}`;
      const failed = cellRecord(plan, index, {
        status: 'failed',
        error: `the cell's process ${how} before writing its result (log: ${logFile(dir, cell.id)}); a rerun runs it again`,
        startedAt,
        seconds: (performance.now() - t0) / 1000,
        result: null,
      });

      writeRecord(dir, failed);
      resolve(failed);
    });
  });
}

/**
 * Run the cells `todo` of `plan` in `dir`, `workers` at a time. `update` gets the counts after every
 * change (and about once a second); resolves with the records of the cells run.
 */
export async function runPool(
  dir: string,
  plan: SweepPlan,
  todo: number[],
  workers: number,
  skipped: number,
  update: (p: SweepProgress) => void,
): Promise<CellRecord[]> {
  const queue = [...todo];
  // the cores divided between the cells that run side by side: each cell's models get its share (src/rl/pool)
  const modelWorkers = defaultWorkers(Math.min(workers, todo.length));
  const running = new Map<number, Running>();
  const records: CellRecord[] = [];
  const durations: number[] = [];
  const counts = (): SweepProgress => {
    const done = records.filter((r) => r.status === 'done').length + skipped;
    const failed = records.filter((r) => r.status === 'failed').length;
    const now = performance.now();
    const est = durations.length
      ? durations.reduce((a, b) => a + b, 0) / durations.length
      : ([...running.values()]
          .filter((r) => r.frac > 0.05)
          .map((r) => (now - r.started) / 1000 / r.frac)[0] ?? null);
    const left = queue.length + [...running.values()].reduce((a, r) => a + 1 - r.frac, 0);
    return {
      total: plan.cells.length,
      done,
      running: running.size,
      failed,
      skipped,
      etaS: est === null ? null : (left * est) / Math.min(workers, Math.max(1, queue.length + running.size)),
    };
  };
  const timer = setInterval(() => update(counts()), 1000);
  // interrupted (Ctrl-C, kill): stop the running cells too; they wrote no record, so a rerun runs them
  const children = new Set<ChildProcess>();
  const stop = (sig: NodeJS.Signals): void => {
    for (const c of children) c.kill('SIGTERM');
    process.stderr.write(
      `\nsweep stopped by ${sig}; ${children.size} running cell(s) stopped, a rerun runs them again\n`,
    );
    process.exit(sig === 'SIGINT' ? 130 : 143);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  const worker = async (): Promise<void> => {
    while (queue.length) {
      const index = queue.shift()!;
      const r: Running = { index, started: performance.now(), frac: 0 };
      running.set(index, r);
      update(counts());
      const rec = await runChild(dir, plan, index, (f) => (r.frac = f), children, modelWorkers);
      running.delete(index);
      records.push(rec);
      if (rec.status === 'done') durations.push((performance.now() - r.started) / 1000);
      update(counts());
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.max(1, Math.min(workers, todo.length)) }, worker));
  } finally {
    clearInterval(timer);
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
  update(counts());
  return records;
}
