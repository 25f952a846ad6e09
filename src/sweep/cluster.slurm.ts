// The sweep on a REAL one-node Slurm cluster brought up on this machine (testCluster.ts): a 4-cell sweep
// as a job array gives the same report.json metrics as the local pool, also when one array task is
// cancelled mid-cell (resubmitted once); --no-wait then --merge; a partition that does not exist and a
// job Slurm rejects fail with a clear error and keep the results collected. npm run test:slurm.
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweepCommand } from './pool';

const [node, ...sweepArgs] = sweepCommand([]);
import type { SweepReport } from '../formats/sweep/report';
import { startCluster, type TestCluster } from './testCluster';

const root = mkdtempSync(join(tmpdir(), 'sweep-slurm-'));
const SWEEP = {
  name: 'slurm4',
  steps: 16,
  methods: ['co-rl', 'ttrl'],
  cohort: { preset: 'paper-demo' },
  train: { batchPrompts: 4, samples: 2 },
  eval: { every: 8, problems: 20, ensembleSamples: 1 },
  grid: { 'cohort.preset': ['paper-demo', 'same-family'], seed: [1, 2] },
  // the CPU reference engine: its cells last long enough for scancel to catch a task mid-cell (on the
  // default wasm engine a 16-step cell can end before the cancel lands)
  backend: 'cpu',
};
const cfg = join(root, 'sweep.json');
let cluster: TestCluster;
const args = (out: string, ...more: string[]): string[] => [
  ...sweepArgs,
  '--config',
  cfg,
  '--out',
  out,
  '--no-png',
  ...more,
];
const run = (out: string, ...more: string[]) =>
  spawnSync(node, args(out, ...more), {
    encoding: 'utf8',
    env: { ...cluster.env, SWEEP_SLURM_POLL_S: '0.5' },
  });
const metricsOf = (dir: string): Omit<SweepReport, 'timing'> => {
  const { timing: _t, ...rest } = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as SweepReport;
  return rest;
};
const cellFiles = (dir: string): string[] =>
  readdirSync(join(dir, 'cells'))
    .filter((f) => /^[0-9a-f]{16}\.json$/.test(f))
    .sort();

beforeAll(async () => {
  writeFileSync(cfg, JSON.stringify(SWEEP));
  cluster = await startCluster();
  process.stderr.write(`one-node Slurm cluster up in ${cluster.startS.toFixed(1)} s\n`);
}, 60_000);
afterAll(() => {
  cluster?.stop();
  rmSync(root, { recursive: true, force: true });
});

describe('sweep --slurm on a real one-node cluster', () => {
  const local = join(root, 'local');
  const slurm = join(root, 'slurm');

  it('a 4-cell job array gives the same report.json metrics as the local pool, with a cancelled task resubmitted once', async () => {
    const l = run(local, '--workers', '2');
    expect(l.status, l.stderr).toBe(0);
    const child = spawn(node, args(slurm, '--slurm'), {
      env: { ...cluster.env, SWEEP_SLURM_POLL_S: '0.5' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    // cancel the first array task seen running: Slurm kills it mid-cell, so it leaves no result
    let cancelled = '';
    for (let i = 0; i < 600 && !cancelled; i++) {
      await new Promise((r) => setTimeout(r, 100));
      const q = spawnSync('squeue', ['-h', '-r', '-t', 'RUNNING', '-o', '%i'], {
        env: cluster.env,
        encoding: 'utf8',
      });
      cancelled = q.stdout.split('\n').filter(Boolean)[0] ?? '';
    }
    expect(cancelled, err).toMatch(/^\d+_\d$/);
    await new Promise((r) => setTimeout(r, 800)); // let it train a few steps
    expect(spawnSync('scancel', [cancelled], { env: cluster.env }).status).toBe(0);
    const code = await new Promise<number | null>((r) => child.on('close', r));
    expect(code, err).toBe(0);
    expect(err).toMatch(/submitted Slurm job array \d+ \(4 tasks\)/);
    expect(err).toMatch(/1 cell failed \(\d\); resubmitting once/);
    expect(metricsOf(slurm)).toEqual(metricsOf(local));
    expect(metricsOf(slurm).counts).toEqual({ done: 4, failed: 0, missing: 0 });
    expect(cellFiles(slurm)).toEqual(cellFiles(local));
    const logs = readdirSync(join(slurm, 'logs')).filter((f) => f.startsWith('slurm-'));
    expect(logs.length).toBe(5); // 4 tasks + the resubmitted one, one output file each
    const script = readdirSync(join(slurm, 'slurm')).find((f) => f.endsWith('.sh'))!;
    expect(readFileSync(join(slurm, 'slurm', script), 'utf8')).toMatch(
      /#SBATCH --array=0-3\n[^]*--cell "\$SLURM_ARRAY_TASK_ID"/,
    );
  }, 240_000);

  it('--no-wait submits and returns; a later --merge collects the results', async () => {
    const dir = join(root, 'nowait');
    const r = run(dir, '--slurm', '--no-wait');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/not waiting \(--no-wait\); collect with: npm run sweep -- --out .* --merge/);
    for (let i = 0; i < 600; i++) {
      const q = spawnSync('squeue', ['-h', '-o', '%i'], { env: cluster.env, encoding: 'utf8' });
      if (q.status === 0 && q.stdout.trim() === '') break;
      await new Promise((res) => setTimeout(res, 250));
    }
    const m = spawnSync(node, [...sweepArgs, '--out', dir, '--merge', '--no-png'], {
      encoding: 'utf8',
      env: cluster.env,
    });
    expect(m.status, m.stderr).toBe(0);
    expect(metricsOf(dir)).toEqual(metricsOf(local));
  }, 240_000);

  it('a partition that does not exist: a clear error, and the results already collected are kept', () => {
    const dir = join(root, 'badpart');
    cpSync(local, dir, { recursive: true });
    const first = cellFiles(dir)[0];
    rmSync(join(dir, 'cells', first));
    const r = run(dir, '--slurm', '--partition', 'nope');
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/sbatch rejected the job array .*invalid partition specified: nope/s);
    expect(r.stderr).toMatch(
      /fix: check --partition nope; sinfo -s lists the partitions; 3 cell results already in .* are kept/,
    );
    expect(cellFiles(dir)).toHaveLength(3);
    expect(existsSync(join(dir, 'cells', first))).toBe(false);
  });

  it('a job Slurm rejects (more memory than the node has): a clear error naming what to fix', () => {
    const dir = join(root, 'rejected');
    const r = run(dir, '--slurm', '--sbatch-args', '--mem=999999');
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(
      /sbatch rejected the job array .*Requested node configuration is not available/s,
    );
    expect(r.stderr).toMatch(/fix: check --sbatch-args "--mem=999999" against what the partition offers/);
  });
});
