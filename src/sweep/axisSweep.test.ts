// The sweep CLI on agents by axes (docs/sweeps.md "Agents by axes in a sweep"), end to end in child
// processes with the cache in a temporary folder (CORL_CACHE_DIR): a two-cell sweep builds its one
// distinct agent once on the sweep's engine before the cells run, runs both cells from the cache, and a
// second sweep on the same cache builds nothing; a bad axis is refused (exit 2) naming the cell and field.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sweepCommand } from './pool';
import type { CellRecord } from '../formats/sweep/records';

const [node, ...sweepArgs] = sweepCommand([]);
const root = mkdtempSync(join(tmpdir(), 'axis-sweep-test-'));
const cacheDir = join(root, 'cache');
const env = { ...process.env, CORL_CACHE_DIR: cacheDir };
// a tiny agent (one block, 16 wide, 300 problems); A and B are the same build, so the sweep has one entry
const agent = (id: string) => ({
  id,
  family: 'nat-rope',
  arch: { nLayer: 1, nEmbd: 16 },
  corpus: { draw: 'random', size: 300 },
});
const SWEEP = {
  name: 'axes',
  steps: 4,
  methods: ['co-rl'],
  task: { kind: 'addw', digits: 2 },
  cohort: { agents: [agent('A'), agent('B')] },
  train: { batchPrompts: 4, samples: 2 },
  eval: { every: 4, problems: 20, ensembleSamples: 1 },
  grid: { seed: [1, 2] },
};
const config = (name: string, c: unknown): string => {
  const f = join(root, `${name}.json`);
  writeFileSync(f, JSON.stringify(c));
  return f;
};
const cli = (args: string[]) => spawnSync(node, [...sweepArgs, ...args], { encoding: 'utf8', env });
const records = (dir: string): CellRecord[] =>
  readdirSync(join(dir, 'cells'))
    .filter((f) => f.endsWith('.json'))
    .map((f) => JSON.parse(readFileSync(join(dir, 'cells', f), 'utf8')));
afterAll(() => spawnSync('rm', ['-rf', root]));

describe('sweep CLI with agents by axes', () => {
  it('builds each distinct agent once before the cells run, runs both cells, and a rerun builds nothing', () => {
    const first = join(root, 'first');
    const r = cli(['--config', config('axes', SWEEP), '--out', first, '--workers', '2', '--no-png']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      `1 cache entry of agents by axes in ${cacheDir}: 0 there, 1 to build once on wasm`,
    );
    const built = r.stderr.match(
      /^built @cache\/([0-9a-f]{16}-wasm)\.ckpt \(A: nat-rope\.s seed 1\) on wasm in [\d.]+ s, for cells 0, 1$/gm,
    );
    expect(built, r.stderr).toHaveLength(1);
    const key = /@cache\/(\S+)\.ckpt/.exec(built![0])![1];
    expect(readdirSync(cacheDir).sort()).toEqual([`${key}.ckpt`, `${key}.sum`]);
    // the build comes before any cell starts
    expect(r.stderr.indexOf('built @cache/')).toBeLessThan(
      r.stderr.indexOf('2 cells, 0 already done, 2 to run'),
    );
    const recs = records(first);
    expect(recs.map((x) => x.index).sort()).toEqual([0, 1]);
    expect(recs.every((x) => x.status === 'done' && x.result!.completedSteps === 4)).toBe(true);
    // each cell (--cell I, as a scheduler runs it) found the entry in the cache
    for (const x of recs) {
      const log = readFileSync(join(first, 'logs', `${x.id}.log`), 'utf8');
      expect(log).toContain('1 cache entry of agents by axes');
      expect(log).toContain('1 there, 0 to build');
      expect(log).not.toContain('built @cache/');
    }
    // another sweep folder on the same cache runs both cells again and builds nothing
    const again = join(root, 'again');
    const r2 = cli(['--config', config('axes', SWEEP), '--out', again, '--no-png']);
    expect(r2.status, r2.stderr).toBe(0);
    expect(r2.stderr).toContain('1 there, 0 to build once on wasm');
    expect(r2.stderr).not.toContain('built @cache/');
    expect(r2.stderr).toContain('2 cells, 0 already done, 2 to run');
    expect(records(again).map((x) => x.status)).toEqual(['done', 'done']);
    expect(readdirSync(cacheDir)).toHaveLength(2);
  }, 300_000);

  it('refuses a bad axis before anything runs (exit 2), naming the cell and the field', () => {
    const dir = join(root, 'bad');
    const bad = { ...SWEEP, grid: { 'cohort.agents[1].family': ['nat-rope', 'gpt5'] } };
    const r = cli(['--config', config('bad', bad), '--out', dir]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(
      /nothing was run:\n {2}- cell 1 \(cohort\.agents\[1\]\.family=gpt5\): cohort\.agents\[1\]\.family: unknown family "gpt5"; valid families: .*nat-rope/,
    );
    expect(r.stderr).not.toMatch(/cell 0/);
    expect(existsSync(dir)).toBe(false);
  });
});
