// Slurm: one job-array script for a sweep's cells (one array task per cell, `sweep --cell
// $SLURM_ARRAY_TASK_ID`, output per task in DIR/logs), submitted with sbatch, followed with squeue (and
// sacct or scontrol for how a task ended), cells whose task failed resubmitted once. docs/sweeps-schedulers.md.
import { spawnSync } from 'node:child_process';
import { accessSync, chmodSync, constants, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join, resolve } from 'node:path';
import type { SweepPlan } from './grid';
import { SWEEP_CLI } from './pool';
import type { SweepProgress } from './progress';
import { cellFile, cellRecord, listRecords, readRecord, writeAtomic, writeRecord } from './store';

export interface SlurmOptions {
  partition?: string;
  /** Extra sbatch arguments, split on spaces (e.g. "--time=01:00:00 --mem=2G"). */
  sbatchArgs?: string;
  /** Seconds between squeue polls (default 5; SWEEP_SLURM_POLL_S). */
  pollS?: number;
}

/** An executable `cmd` on PATH, or null. */
export function which(cmd: string, path = process.env.PATH ?? ''): string | null {
  for (const d of path.split(delimiter).filter(Boolean)) {
    try {
      accessSync(join(d, cmd), constants.X_OK);
      return join(d, cmd);
    } catch {
      // not here
    }
  }
  return null;
}

/** Indices as a Slurm --array list: ranges compressed, e.g. [0,1,2,5,7,8] -> "0-2,5,7-8". */
export function arraySpec(indices: readonly number[]): string {
  const s = [...new Set(indices)].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < s.length; ) {
    let j = i;
    while (j + 1 < s.length && s[j + 1] === s[j] + 1) j++;
    parts.push(i === j ? `${s[i]}` : `${s[i]}-${s[j]}`);
    i = j + 1;
  }
  return parts.join(',');
}

/** The job-array script for cells `indices` of the sweep in `dir` (absolute paths). */
export function arrayScript(dir: string, plan: SweepPlan, indices: readonly number[]): string {
  const repo = resolve(dirname(SWEEP_CLI), '../..');
  return [
    '#!/bin/bash',
    `#SBATCH --job-name=sweep-${plan.name.replace(/[^A-Za-z0-9_.-]/g, '_')}`,
    `#SBATCH --array=${arraySpec(indices)}`,
    `#SBATCH --output=${dir}/logs/slurm-%A_%a.log`,
    '#SBATCH --cpus-per-task=1',
    `# sweep ${plan.hash}: ${plan.cells.length} cells; written by npm run sweep -- --slurm`,
    'set -euo pipefail',
    `cd ${JSON.stringify(repo)}`,
    `exec "\${SWEEP_NODE:-node}" --import tsx src/cli/sweep.ts --out ${JSON.stringify(dir)} --cell "$SLURM_ARRAY_TASK_ID"`,
    '',
  ].join('\n');
}

/** Submit the array script; returns the job id, or throws naming what Slurm said and what to fix. */
export function submitArray(
  dir: string,
  plan: SweepPlan,
  indices: readonly number[],
  o: SlurmOptions,
): string {
  if (!which('sbatch')) {
    throw new Error(
      `sbatch is not on the PATH (${process.env.PATH}): --slurm needs Slurm's client commands (sbatch, squeue) on this machine, e.g. a login node of the cluster (Debian: apt-get install slurm-client); elsewhere run the cells with --cell I (docs/sweeps.md)`,
    );
  }
  mkdirSync(join(dir, 'slurm'), { recursive: true });
  const script = join(dir, 'slurm', `array-${Date.now()}.sh`);
  writeFileSync(script, arrayScript(dir, plan, indices));
  chmodSync(script, 0o755);
  const args = [
    '--parsable',
    ...(o.partition ? [`--partition=${o.partition}`] : []),
    ...(o.sbatchArgs ?? '').split(/\s+/).filter(Boolean),
    script,
  ];
  const r = spawnSync('sbatch', args, { encoding: 'utf8' });
  if (r.status !== 0) {
    const said =
      `${r.stderr ?? ''}${r.stdout ?? ''}`.trim() || (r.error?.message ?? `exit status ${r.status}`);
    const hint = /partition/i.test(said)
      ? `check --partition ${o.partition ?? '(none given: the cluster has no default partition?)'}; sinfo -s lists the partitions`
      : /node configuration|memory|cpus|time limit|qos|account/i.test(said)
        ? `check --sbatch-args "${o.sbatchArgs ?? ''}" against what the partition offers (sinfo -o "%P %c %m %l")`
        : 'fix the sbatch arguments or the script';
    const kept = listRecords(dir).filter((x) => x.status === 'done').length;
    throw new Error(
      `sbatch rejected the job array (${script}): ${said}\n  fix: ${hint}; ${kept} cell results already in ${dir} are kept (a rerun skips them)`,
    );
  }
  const id = r.stdout.trim().split(';')[0];
  writeAtomic(
    join(dir, 'slurm', `job-${id}.json`),
    `${JSON.stringify({ jobId: id, indices, script, submittedAt: new Date().toISOString(), partition: o.partition ?? null })}\n`,
  );
  return id;
}

/** The job's tasks still in the queue: running and pending counts (an unknown job id: none). */
export function queued(jobId: string): { running: number; pending: number } {
  const r = spawnSync('squeue', ['-h', '-r', '-j', jobId, '-o', '%i %T'], { encoding: 'utf8' });
  if (r.status !== 0) {
    if (/invalid job id/i.test(r.stderr ?? '')) return { running: 0, pending: 0 };
    throw new Error(`squeue -j ${jobId} failed: ${(r.stderr ?? r.error?.message ?? '').trim()}`);
  }
  const lines = r.stdout.split('\n').filter((l) => l.trim());
  const running = lines.filter((l) => /\b(RUNNING|COMPLETING|CONFIGURING)\b/.test(l)).length;
  return { running, pending: lines.length - running };
}

/** How Slurm says an array task ended: sacct if accounting is on, else scontrol (while it remembers). */
export function taskState(jobId: string, index: number): string {
  const a = spawnSync('sacct', ['-n', '-P', '-X', '-j', `${jobId}_${index}`, '-o', 'State,ExitCode'], {
    encoding: 'utf8',
  });
  if (a.status === 0 && a.stdout.trim()) return `sacct: ${a.stdout.trim().split('\n')[0]}`;
  const s = spawnSync('scontrol', ['show', 'job', '-o', `${jobId}_${index}`], { encoding: 'utf8' });
  const m = /JobState=(\S+).*?ExitCode=(\S+)/.exec(s.stdout ?? '');
  return m
    ? `scontrol: ${m[1]} exit ${m[2]}`
    : 'unknown (no accounting and the controller has forgotten the task)';
}

const sleep = (s: number): Promise<void> => new Promise((r) => setTimeout(r, s * 1000));

/** Follow job `jobId` (cells `indices`) until no task of it is queued; the bar counts DIR's records. */
export async function followArray(
  dir: string,
  plan: SweepPlan,
  jobId: string,
  indices: readonly number[],
  skipped: number,
  o: SlurmOptions,
  update: (p: SweepProgress) => void,
): Promise<void> {
  const poll = o.pollS ?? Number(process.env.SWEEP_SLURM_POLL_S ?? 5);
  const t0 = performance.now();
  while (true) {
    const q = queued(jobId);
    const recs = indices.map((i) => readRecord(dir, plan.cells[i].id));
    const done = recs.filter((r) => r?.status === 'done').length;
    const failed = recs.filter((r) => r?.status === 'failed').length;
    const el = (performance.now() - t0) / 1000;
    const left = indices.length - done - failed;
    update({
      total: plan.cells.length,
      done: done + skipped,
      running: q.running,
      failed,
      skipped,
      etaS: done + failed > 0 ? (el / (done + failed)) * left : null,
    });
    if (q.running + q.pending === 0) return;
    await sleep(poll);
  }
}

/** Record every cell of `indices` without a record as failed, with Slurm's word on its task. */
export function recordLostTasks(
  dir: string,
  plan: SweepPlan,
  jobId: string,
  indices: readonly number[],
): number[] {
  const lost = indices.filter((i) => !readRecord(dir, plan.cells[i].id));
  for (const i of lost) {
    writeRecord(
      dir,
      cellRecord(plan, i, {
        status: 'failed',
        error: `Slurm array task ${jobId}_${i} ended without writing a result (${taskState(jobId, i)}; log ${dir}/logs/slurm-${jobId}_${i}.log)`,
        startedAt: new Date().toISOString(),
        seconds: 0,
        result: null,
      }),
    );
  }
  return lost;
}

/** Forget the failed records of cells about to run again (done records are never touched). */
export function clearFailed(dir: string, plan: SweepPlan, indices: readonly number[]): void {
  for (const i of indices)
    if (readRecord(dir, plan.cells[i].id)?.status === 'failed')
      rmSync(cellFile(dir, plan.cells[i].id), { force: true });
}
