// The sweep CLI end to end on tiny cells (child processes, real experiments on the CPU backend): a cell
// run alone equals the same cell run in the pool; a worker killed with SIGKILL mid-cell is recorded,
// the others go on, and the rerun completes with every result once and identical to an uninterrupted
// run; a folder of another sweep is refused unless --force; --merge of results copied together; no
// sbatch on the PATH; an invalid cell runs nothing.
import { spawn, spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canonicalMetricsJson } from '../rl/canonical';
import { sweepCommand } from './pool';

const [node, ...sweepArgs] = sweepCommand([]);
import { buildReport, type SweepReport } from '../formats/sweep/report';
import { methodGain, methodMaxKl } from './gateB';
import { STEP_EVERY } from '../formats/sweep/compact';
import type { CellRecord, SweepManifest } from '../formats/sweep/records';
import { sha16 } from '../util/sha256';

const root = mkdtempSync(join(tmpdir(), 'sweep-test-'));
const BASE = {
  name: 'tiny',
  steps: 8,
  methods: ['co-rl', 'ttrl'],
  cohort: { preset: 'paper-demo' },
  train: { batchPrompts: 4, samples: 2 },
  eval: { every: 4, problems: 20, ensembleSamples: 1 },
};
// the CPU reference engine: its cells last long enough for the kill tests to catch one mid-cell (on the
// default wasm engine an 8-step cell can end between two 50 ms polls)
const SWEEP = { ...BASE, backend: 'cpu', grid: { seed: [1, 2, 3] } };
const config = (name: string, c: unknown): string => {
  const f = join(root, `${name}.json`);
  writeFileSync(f, JSON.stringify(c));
  return f;
};
const cli = (args: string[], env: NodeJS.ProcessEnv = process.env) =>
  spawnSync(node, [...sweepArgs, ...args], { encoding: 'utf8', env });
const records = (dir: string): CellRecord[] =>
  readdirSync(join(dir, 'cells'))
    .filter((f) => f.endsWith('.json'))
    .map((f) => JSON.parse(readFileSync(join(dir, 'cells', f), 'utf8')));
const metrics = (r: CellRecord): string => canonicalMetricsJson(r.result!.steps, r.result!.evals);
const byIndex = (dir: string): Map<number, CellRecord> => new Map(records(dir).map((r) => [r.index, r]));
/** The report without its wall-clock part. */
const reportMetrics = (dir: string): Omit<SweepReport, 'timing'> => {
  const { timing: _t, ...rest } = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as SweepReport;
  return rest;
};

let pooled: string;
beforeAll(() => {
  pooled = join(root, 'pooled');
  const r = cli(['--config', config('sweep', SWEEP), '--out', pooled, '--workers', '2']);
  expect(r.stderr).toContain('3 to run with 2 workers');
  expect(r.status, r.stderr).toBe(0);
}, 180_000);
afterAll(() => spawnSync('rm', ['-rf', root]));

describe('sweep CLI', () => {
  it('runs every cell once in the pool and writes the report, its claims and PNGs', () => {
    const recs = records(pooled);
    expect(recs.map((r) => r.index).sort()).toEqual([0, 1, 2]);
    expect(recs.every((r) => r.status === 'done' && r.result!.completedSteps === 8)).toBe(true);
    const rep = reportMetrics(pooled);
    expect(rep.counts).toEqual({ done: 3, failed: 0, missing: 0 });
    expect(rep.groups).toHaveLength(1);
    expect(rep.groups[0].seeds).toEqual([1, 2, 3]);
    expect(rep.groups[0].methods['co-rl'].gain!.n).toBe(3);
    expect(rep.claims.map((c) => c.n)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(rep.claims[2].status).toBe('not tested'); // one cohort: no same-family one to compare with
    for (const f of ['report.md', 'gains.png', 'kappa.png', 'ensembles.png', 'reward-std.png'])
      expect(existsSync(join(pooled, f)), f).toBe(true);
    expect(readFileSync(join(pooled, 'report.md'), 'utf8')).toContain("## The paper's claims");
    // a rerun finds every cell done and runs none
    const again = cli(['--config', config('sweep', SWEEP), '--out', pooled, '--no-png']);
    expect(again.status).toBe(0);
    expect(again.stderr).toContain('3 cells, 3 already done, 0 to run');
  });

  it('commits compact records: the report and gate B read the same from them as from the full ones', () => {
    // 30 steps, so the thinning keeps step 1, step 25 and the last of each method and drops the rest
    const dir = join(root, 'compact');
    const c = { ...BASE, backend: 'wasm', steps: 30, eval: { every: 0, problems: 20, ensembleSamples: 1 } };
    const r = cli(['--config', config('compact', { ...c, grid: { seed: [1] } }), '--out', dir, '--no-png']);
    expect(r.status, r.stderr).toBe(0);
    const [small] = records(dir);
    const full = JSON.parse(readFileSync(join(dir, 'full', `${small.id}.json`), 'utf8')) as CellRecord;
    expect(full.compact).toBeUndefined();
    expect(full.result!.steps).toHaveLength(60);
    expect(STEP_EVERY).toBe(25);
    expect(small.result!.steps.map((s) => `${s.method}:${s.step}`).sort()).toEqual(
      ['co-rl', 'ttrl'].flatMap((m) => [1, 25, 30].map((k) => `${m}:${k}`)),
    );
    expect(small.compact!.metricsHash).toBe(sha16(metrics(full)));
    for (const m of ['co-rl', 'ttrl']) {
      expect(methodGain(small, m)).toBe(methodGain(full, m));
      expect(methodMaxKl(small, m)).toBe(methodMaxKl(full, m));
      expect(methodMaxKl(small, m)).not.toBeNull();
    }
    const manifest = JSON.parse(readFileSync(join(dir, 'sweep.json'), 'utf8')) as SweepManifest;
    const noCharts = (x: SweepReport) => ({ ...x, timing: null });
    expect(noCharts(buildReport(manifest, [small]))).toEqual(noCharts(buildReport(manifest, [full])));
    expect(statSync(join(dir, 'cells', `${small.id}.json`)).size).toBeLessThan(
      statSync(join(dir, 'full', `${small.id}.json`)).size / 3,
    );
    expect(readFileSync(join(dir, '.gitignore'), 'utf8')).toMatch(/^full\/$/m);
  });

  it('a cell run alone gives the same canonical metric JSON as in the pool', () => {
    const alone = join(root, 'alone');
    const r = cli(['--config', config('sweep', SWEEP), '--out', alone, '--cell', '1']);
    expect(r.status, r.stderr).toBe(0);
    const [rec] = records(alone);
    expect(rec.index).toBe(1);
    expect(metrics(rec)).toBe(metrics(byIndex(pooled).get(1)!));
    // --list shows it done there and the others to do
    const l = cli(['--config', config('sweep', SWEEP), '--out', alone, '--list']);
    expect(l.stdout).toMatch(new RegExp(`\\n +1  ${rec.id}  done +seed=2\\n`));
    expect(l.stdout).toMatch(/\n +0 {2}[0-9a-f]{16} {2}todo +seed=1\n/);
  });

  it('after a worker is killed with SIGKILL mid-cell, the rerun completes every cell exactly once, identical to an uninterrupted run', async () => {
    const dir = join(root, 'killed');
    const child = spawn(
      node,
      [...sweepArgs, '--config', config('sweep', SWEEP), '--out', dir, '--workers', '2', '--no-png'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    // wait for a cell that is running and has trained some steps, then kill its process
    let victim: { id: string; pid: number } | null = null;
    for (let t = 0; t < 600 && !victim; t++) {
      await new Promise((r) => setTimeout(r, 50));
      const run = existsSync(join(dir, 'running'))
        ? readdirSync(join(dir, 'running')).filter((f) => /^[0-9a-f]{16}\.json$/.test(f))
        : [];
      for (const f of run) {
        const id = f.slice(0, 16);
        const log = join(dir, 'logs', `${id}.log`);
        if (existsSync(log) && /cell \d: ([4-9]|\d\d)\/\d+/.test(readFileSync(log, 'utf8')))
          victim = { id, pid: JSON.parse(readFileSync(join(dir, 'running', f), 'utf8')).pid };
      }
    }
    expect(victim, `no running cell found; sweep stderr: ${err}`).not.toBeNull();
    process.kill(victim!.pid, 'SIGKILL');
    const code = await new Promise<number | null>((r) => child.on('close', r));
    expect(code, err).toBe(1);
    const first = records(dir);
    const killed = first.find((r) => r.id === victim!.id)!;
    expect(killed.status).toBe('failed');
    expect(killed.error).toMatch(/was killed by SIGKILL before writing its result/);
    expect(first.filter((r) => r.status === 'done')).toHaveLength(2); // the others went on
    const rerun = cli(['--config', config('sweep', SWEEP), '--out', dir, '--workers', '2', '--no-png']);
    expect(rerun.status, rerun.stderr).toBe(0);
    expect(rerun.stderr).toContain('3 cells, 2 already done, 1 to run');
    const after = records(dir);
    expect(after.map((r) => r.index).sort()).toEqual([0, 1, 2]);
    expect(readdirSync(join(dir, 'cells')).filter((f) => f.includes('.tmp-'))).toEqual([]);
    const ref = byIndex(pooled);
    for (const r of after) expect(metrics(r), `cell ${r.index}`).toBe(metrics(ref.get(r.index)!));
    expect(reportMetrics(dir).cells).toEqual(reportMetrics(pooled).cells);
  });

  it('a sweep stopped with SIGTERM stops its running cells too, and a rerun completes them', async () => {
    const dir = join(root, 'stopped');
    const child = spawn(
      node,
      [...sweepArgs, '--config', config('sweep', SWEEP), '--out', dir, '--workers', '2', '--no-png'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    let pid = 0;
    for (let t = 0; t < 600 && !pid; t++) {
      await new Promise((r) => setTimeout(r, 50));
      const run = existsSync(join(dir, 'running'))
        ? readdirSync(join(dir, 'running')).filter((f) => /^[0-9a-f]{16}\.json$/.test(f))
        : [];
      if (run.length) pid = JSON.parse(readFileSync(join(dir, 'running', run[0]), 'utf8')).pid;
    }
    expect(pid, err).toBeGreaterThan(0);
    child.kill('SIGTERM');
    expect(await new Promise<number | null>((r) => child.on('close', r))).toBe(143);
    expect(err).toMatch(/sweep stopped by SIGTERM; \d running cell\(s\) stopped/);
    const alive = (): boolean => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    for (let t = 0; t < 100 && alive(); t++) await new Promise((r) => setTimeout(r, 50));
    expect(alive()).toBe(false);
    const rerun = cli(['--config', config('sweep', SWEEP), '--out', dir, '--no-png']);
    expect(rerun.status, rerun.stderr).toBe(0);
    for (const r of records(dir)) expect(metrics(r)).toBe(metrics(byIndex(pooled).get(r.index)!));
  });

  it('refuses a folder holding another sweep unless --force, running nothing', () => {
    const other = config('other', { ...BASE, steps: 2, grid: { seed: [7] } });
    const r = cli(['--config', other, '--out', pooled, '--no-png']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(
      /holds another sweep \("tiny", hash [0-9a-f]{16}, 3 cells, 3 cell results\).*Use another --out folder, or --force/,
    );
    expect(records(pooled)).toHaveLength(3);
    const dir = join(root, 'forced');
    cpSync(pooled, dir, { recursive: true });
    const f = cli(['--config', other, '--out', dir, '--no-png', '--force']);
    expect(f.status, f.stderr).toBe(0);
    expect(records(dir)).toHaveLength(4); // the old results stay on disk
    expect(reportMetrics(dir).cells.map((c) => c.label)).toEqual(['seed=7']);
  });

  it('--merge builds the report from cell results copied together from several machines', () => {
    const dir = join(root, 'merged');
    mkdirSync(join(dir, 'cells'), { recursive: true });
    const ref = byIndex(pooled);
    for (const i of [0, 2])
      cpSync(join(pooled, 'cells', `${ref.get(i)!.id}.json`), join(dir, 'cells', `${ref.get(i)!.id}.json`));
    const r = cli(['--config', config('sweep', SWEEP), '--out', dir, '--merge', '--no-png']);
    expect(r.status).toBe(1); // one cell is missing
    expect(r.stdout).toContain('report of 2 done, 0 failed, 1 missing cells');
    const rep = reportMetrics(dir);
    expect(rep.cells.map((c) => c.status)).toEqual(['done', 'missing', 'done']);
    expect(rep.cells[0]).toEqual(reportMetrics(pooled).cells[0]);
  });

  it('refuses an invalid cell before running anything, naming the cell and the field', () => {
    const dir = join(root, 'invalid');
    const r = cli([
      '--config',
      config('bad', { ...BASE, grid: { 'train.samples': [2, 1], 'train.lrr': [1] } }),
      '--out',
      dir,
    ]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(
      /nothing was run:\n {2}- grid\.train\.lrr: unknown path \(valid paths: .*train\.lr,/,
    );
    const r2 = cli([
      '--config',
      config('bad2', { ...BASE, grid: { 'train.samples': [2, 1] } }),
      '--out',
      dir,
    ]);
    expect(r2.status).toBe(2);
    expect(r2.stderr).toContain('cell 1 (train.samples=1): train.samples: must be >= 2');
    expect(existsSync(dir)).toBe(false);
    const r3 = cli(['--config', config('sweep', SWEEP), '--out', dir, '--cell', '3']);
    expect(r3.status).toBe(2);
    expect(r3.stderr).toContain('--cell 3: the sweep has 3 cells, indices 0 to 2');
  });

  it('--slurm without sbatch on the PATH says so and runs nothing', () => {
    const bin = join(root, 'bin');
    mkdirSync(bin, { recursive: true });
    symlinkSync(process.execPath, join(bin, 'node'));
    const dir = join(root, 'noslurm');
    const r = cli(['--config', config('sweep', SWEEP), '--out', dir, '--slurm'], {
      ...process.env,
      PATH: bin,
    });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/sbatch is not on the PATH .*--slurm needs Slurm's client commands/);
    expect(readdirSync(join(dir, 'cells'))).toEqual([]);
    expect(dirname(bin)).toBe(root);
  });
});
