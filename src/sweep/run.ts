// A whole sweep from a config: plan and validate every cell (nothing runs when one is invalid), build
// the missing base checkpoints once, then run the cells not done yet in the local pool or as a Slurm job
// array, and merge the report. Also the report step alone (--merge). docs/sweeps.md.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TaskFileError } from '../tasks/file/load';
import { withTaskFile } from '../tasks/file/node';
import { prepareCheckpoints, type CheckpointBuilder } from './checkpoints';
import { writeReportPngs } from './figures';
import { planSweep, type SweepPlan } from './grid';
import { checkPrereg, type PreregStamp } from './prereg';
import { parseRegistration } from '../formats/sweep/registration';
import { runPool } from './pool';
import { progressBar } from './progress';
import { buildReport, type SweepReport } from '../formats/sweep/report';
import { reportMarkdown } from './reportMd';
import { clearFailed, followArray, recordLostTasks, submitArray, type SlurmOptions } from './slurm';
import {
  claimDir,
  listRecords,
  readManifest,
  readRecord,
  SweepInputError,
  sweepTemporaries,
  writeAtomic,
} from './store';
import { type SweepManifest } from '../formats/sweep/records';

export { SweepInputError };

/**
 * The raw sweep config: from `config`, or else the copy in DIR/sweep.json. A file task (docs/tasks.md
 * "Bring your own task") is read, checked and hashed, its path made absolute so every cell finds it.
 */
export function loadConfig(config: string | undefined, dir: string): unknown {
  if (config) {
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(config, 'utf8'));
    } catch (e) {
      throw new SweepInputError([`cannot read sweep config ${config}: ${(e as Error).message}`]);
    }
    return withSweepTaskFile(raw, config);
  }
  const m = readManifest(dir);
  if (!m)
    throw new SweepInputError([`no --config given and ${dir} holds no sweep.json; give --config SWEEP.json`]);
  return withSweepTaskFile(m.config, join(dir, 'sweep.json'));
}

/** A sweep config with its file task loaded (see loadConfig); a bad file's problems as a SweepInputError. */
function withSweepTaskFile(raw: unknown, file: string): unknown {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return raw;
  try {
    return withTaskFile(raw as Record<string, unknown>, file, { absolutePath: true });
  } catch (e) {
    if (e instanceof TaskFileError) throw new SweepInputError(e.messages.map((m) => `task file: ${m}`));
    throw e;
  }
}

/** Plan the sweep or throw every problem. */
export function planOrThrow(raw: unknown): SweepPlan {
  const r = planSweep(raw);
  if (!r.ok) throw new SweepInputError(r.errors);
  return r.plan;
}

/**
 * Plan the sweep and, when it names a pre-registration, check it in git (prereg.ts) from `cwd`: throw
 * every problem of both at once, or return the plan and the stamp its cell records carry.
 */
export function planAndGate(
  raw: unknown,
  cwd: string = process.cwd(),
): { plan: SweepPlan; prereg: PreregStamp | undefined } {
  const r = planSweep(raw);
  // the prereg path as the plan reads it (shape problems are the plan's): checked even when a cell is invalid
  const reg =
    typeof raw === 'object' && raw !== null ? parseRegistration(raw as Record<string, unknown>, []) : null;
  const gate = reg?.prereg ? checkPrereg(reg.prereg, cwd) : null;
  const errors = [...(r.ok ? [] : r.errors), ...(gate && !gate.ok ? gate.errors : [])];
  if (errors.length || !r.ok) throw new SweepInputError(errors);
  return { plan: r.plan, prereg: gate?.ok ? gate.stamp : undefined };
}

/** Write report.json, report.md and (with `png`) the PNGs into `dir` from the records there. */
export async function writeReport(dir: string, manifest: SweepManifest, png: boolean): Promise<SweepReport> {
  const records = listRecords(dir);
  const report = buildReport(manifest, records);
  const pngs = png
    ? await writeReportPngs(
        dir,
        report,
        records.filter((r) => manifest.cells.some((c) => c.id === r.id)),
      )
    : [];
  writeAtomic(join(dir, 'report.json'), `${JSON.stringify(report, null, 1)}\n`);
  writeAtomic(join(dir, 'report.md'), reportMarkdown(report, pngs));
  return report;
}

export interface RunOptions {
  dir: string;
  workers: number;
  force: boolean;
  png: boolean;
  slurm?: SlurmOptions & { noWait: boolean };
  builder?: CheckpointBuilder;
  log?: (s: string) => void;
}

/** Claim DIR, check and build checkpoints, and return the indices of the cells not done yet. */
async function prepare(raw: unknown, plan: SweepPlan, o: RunOptions): Promise<number[]> {
  claimDir(o.dir, plan, raw, o.force);
  sweepTemporaries(o.dir);
  const errs = await prepareCheckpoints(plan.cells, {
    builder: o.builder,
    log: o.log,
    backend: plan.backend,
    workers: o.slurm ? 1 : o.workers, // on Slurm the pre-pass runs where the job is submitted
  });
  if (errs.length) throw new SweepInputError(errs);
  return plan.cells.filter((c) => readRecord(o.dir, c.id)?.status !== 'done').map((c) => c.index);
}

/** Run the sweep's cells that are not done (locally, or on Slurm) and write the report. */
export async function runSweep(raw: unknown, plan: SweepPlan, o: RunOptions): Promise<SweepReport | null> {
  const log = o.log ?? ((s: string) => void process.stderr.write(`${s}\n`));
  const todo = await prepare(raw, plan, o);
  const skipped = plan.cells.length - todo.length;
  log(
    `sweep ${plan.name} (${plan.hash}): ${plan.cells.length} cells, ${skipped} already done, ${todo.length} to run${o.slurm ? ' on Slurm' : ` with ${Math.min(o.workers, Math.max(1, todo.length))} workers`}`,
  );
  const bar = progressBar();
  if (!o.slurm) {
    if (todo.length) await runPool(o.dir, plan, todo, o.workers, skipped, bar.update);
  } else if (todo.length) {
    clearFailed(o.dir, plan, todo);
    const job = submitArray(o.dir, plan, todo, o.slurm);
    log(`submitted Slurm job array ${job} (${todo.length} tasks); script and job file in ${o.dir}/slurm`);
    if (o.slurm.noWait) {
      log(`not waiting (--no-wait); collect with: npm run sweep -- --out ${o.dir} --merge`);
      return null;
    }
    await followArray(o.dir, plan, job, todo, skipped, o.slurm, bar.update);
    const failed = todo.filter((i) => readRecord(o.dir, plan.cells[i].id)?.status !== 'done');
    recordLostTasks(o.dir, plan, job, failed);
    if (failed.length) {
      log(
        `\n${failed.length} cell${failed.length > 1 ? 's' : ''} failed (${failed.join(', ')}); resubmitting once`,
      );
      clearFailed(o.dir, plan, failed);
      const again = submitArray(o.dir, plan, failed, o.slurm);
      await followArray(o.dir, plan, again, failed, plan.cells.length - failed.length, o.slurm, bar.update);
      recordLostTasks(o.dir, plan, again, failed);
    }
  }
  bar.end();
  return writeReport(o.dir, readManifest(o.dir)!, o.png);
}
