// The pre-registration gate through the sweep CLI, from a temporary git checkout made here: a sweep and
// a scheduler's `--cell I` refuse to start (exit 2, nothing written) under a PREREG with missing headings
// or uncommitted changes, and once it is committed a cell's record carries its commit and blob and the
// merged report cites them with the verdict table.
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sweepCommand } from './pool';
import type { SweepReport } from '../formats/sweep/report';
import type { CellRecord } from '../formats/sweep/records';

const [node, ...sweepArgs] = sweepCommand([]);
const PATH = 'experiments/regime/PREREG.md';
const FULL = ['Endpoint', 'Presets', 'Seeds', 'Steps', 'Recipe', 'Analysis', 'Thresholds']
  .map((h) => `## ${h}\n\ntext\n`)
  .join('\n');
const d = mkdtempSync(join(tmpdir(), 'prereg-cli-'));
afterAll(() => rmSync(d, { recursive: true, force: true }));

function git(...args: string[]): string {
  const r = spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], {
    cwd: d,
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout.trim();
}
const cli = (...args: string[]) => spawnSync(node, [...sweepArgs, ...args], { cwd: d, encoding: 'utf8' });
const SWEEP = {
  name: 'registered-tiny',
  steps: 2,
  methods: ['co-rl', 'gt'],
  cohort: { preset: 'paper-demo' },
  train: { batchPrompts: 2, samples: 2 },
  eval: { every: 0, problems: 10, ensembleSamples: 1 },
  grid: { seed: [1, 2] },
  registered: true,
  endpoint: 'greedy',
  gates: { 'paper-demo': { pass: true } },
  prereg: PATH,
};

describe('a registered sweep from the CLI', () => {
  it('refuses to start, and --cell refuses to run, under an unfit PREREG; a committed one stamps the record', () => {
    git('init', '-q');
    writeFileSync(join(d, '.gitignore'), 'node_modules\nout*\nsweep.json\n');
    symlinkSync(resolve('node_modules'), join(d, 'node_modules')); // tsx for the CLI started in d
    writeFileSync(join(d, 'sweep.json'), JSON.stringify(SWEEP));
    mkdirSync(join(d, 'experiments/regime'), { recursive: true });
    writeFileSync(join(d, PATH), FULL.replace('## Analysis', '## Analyses'));
    git('add', '.gitignore', PATH);
    git('commit', '-qm', 'a prereg without its analysis');

    const run = cli('--config', 'sweep.json', '--out', 'out-pool', '--workers', '1', '--no-png');
    expect(run.status, run.stderr).toBe(2);
    expect(run.stderr).toContain('sweep: 1 problem; nothing was run:');
    expect(run.stderr).toContain(`prereg ${PATH}: missing the heading "## Analysis"`);
    expect(existsSync(join(d, 'out-pool'))).toBe(false);

    writeFileSync(join(d, PATH), FULL);
    const cell = cli('--config', 'sweep.json', '--out', 'out', '--cell', '0');
    expect(cell.status, cell.stderr).toBe(2);
    expect(cell.stderr).toContain(`prereg ${PATH}: has uncommitted unstaged changes`);
    expect(existsSync(join(d, 'out'))).toBe(false);

    git('commit', '-qam', 'the whole prereg');
    const ok = cli('--config', 'sweep.json', '--out', 'out', '--cell', '0');
    expect(ok.status, ok.stderr).toBe(0);
    const files = readdirSync(join(d, 'out', 'cells')).filter((f) => f.endsWith('.json'));
    expect(files).toHaveLength(1);
    const rec = JSON.parse(readFileSync(join(d, 'out', 'cells', files[0]), 'utf8')) as CellRecord;
    expect(rec.status).toBe('done');
    const stamp = { path: PATH, commit: git('rev-parse', 'HEAD'), blob: git('hash-object', PATH) };
    expect(rec.prereg).toEqual(stamp);
    // the merged report cites it (cell 1 is missing: exit status 1)
    const merge = cli('--out', 'out', '--merge', '--no-png');
    expect(merge.status, merge.stderr).toBe(1);
    const rep = JSON.parse(readFileSync(join(d, 'out', 'report.json'), 'utf8')) as SweepReport;
    expect(rep.prereg).toEqual({ ...stamp, cells: 1, others: [] });
    expect(rep.registered!.verdicts.map((v) => v.preset)).toEqual(['paper-demo']);
    expect(readFileSync(join(d, 'out', 'report.md'), 'utf8')).toContain(`at commit \`${stamp.commit}\``);
  }, 120_000);
});
