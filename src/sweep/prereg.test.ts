// The pre-registration gate on a temporary git repository made here: each refusal (missing file,
// missing headings, not committed, unstaged and staged changes, not a git checkout), the stamp (the
// commit that last changed the file, not HEAD, and its blob), and a registered sweep's config checks
// (the test split needs a prereg, an endpoint, gates per preset), all listed together with the plan's.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { planSweep } from './grid';
import { checkPrereg, missingHeadings } from './prereg';
import { planAndGate } from './run';
import { SweepInputError } from './store';

const made: string[] = [];
afterAll(() => made.forEach((d) => rmSync(d, { recursive: true, force: true })));
const PATH = 'experiments/regime/PREREG.md';
const FULL = [
  '# Pre-registration',
  ...['Endpoint', 'Presets', 'Seeds', 'Steps', 'Recipe', 'Analysis', 'Thresholds'].map(
    (h) => `## ${h}\n\ntext\n`,
  ),
].join('\n');

function git(cwd: string, ...args: string[]): string {
  const r = spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], {
    cwd,
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout.trim();
}
/** A fresh git repository with one commit (README) and, when given, PATH written (not committed). */
function repo(prereg?: string): string {
  const d = mkdtempSync(join(tmpdir(), 'prereg-'));
  made.push(d);
  git(d, 'init', '-q');
  writeFileSync(join(d, 'README'), 'x\n');
  git(d, 'add', 'README');
  git(d, 'commit', '-qm', 'init');
  if (prereg !== undefined) {
    mkdirSync(join(d, 'experiments/regime'), { recursive: true });
    writeFileSync(join(d, PATH), prereg);
  }
  return d;
}
const errorsOf = (cwd: string): string[] => {
  const r = checkPrereg(PATH, cwd);
  return r.ok ? [] : r.errors;
};

describe('checkPrereg', () => {
  it('refuses a missing file', () => {
    expect(errorsOf(repo())).toEqual([
      expect.stringMatching(/^prereg experiments\/regime\/PREREG.md: no such file in the repository/),
    ]);
  });

  it('names every missing heading (exact "## Name" lines)', () => {
    expect(missingHeadings(FULL)).toEqual([]);
    const d = repo(FULL.replace('## Seeds', '## Seed list').replace('## Thresholds', '### Thresholds'));
    git(d, 'add', PATH);
    git(d, 'commit', '-qm', 'prereg');
    expect(errorsOf(d)).toEqual([
      'prereg experiments/regime/PREREG.md: missing the headings "## Seeds", "## Thresholds"',
    ]);
  });

  it('refuses a file not committed, also when only staged', () => {
    const d = repo(FULL);
    expect(errorsOf(d)).toEqual([
      expect.stringContaining('not committed (git add experiments/regime/PREREG.md && git commit)'),
    ]);
    git(d, 'add', PATH);
    expect(errorsOf(d)).toEqual([expect.stringContaining('not committed')]);
  });

  it('refuses uncommitted changes, unstaged or staged, and passes once committed', () => {
    const d = repo(FULL);
    git(d, 'add', PATH);
    git(d, 'commit', '-qm', 'prereg');
    expect(errorsOf(d)).toEqual([]);
    writeFileSync(join(d, PATH), `${FULL}\nchanged after the fact\n`);
    expect(errorsOf(d)).toEqual([expect.stringContaining('has uncommitted unstaged changes')]);
    git(d, 'add', PATH);
    expect(errorsOf(d)).toEqual([expect.stringContaining('has uncommitted staged changes')]);
    writeFileSync(join(d, PATH), `${FULL}\nand again\n`);
    expect(errorsOf(d)).toEqual([expect.stringContaining('has uncommitted staged and unstaged changes')]);
    git(d, 'commit', '-qam', 'amend the prereg');
    expect(errorsOf(d)).toEqual([]);
  });

  it('refuses a folder that is not a git checkout', () => {
    const d = mkdtempSync(join(tmpdir(), 'prereg-nogit-'));
    made.push(d);
    expect(errorsOf(d)).toEqual([expect.stringMatching(/is not in a git checkout/)]);
  });

  it('stamps the commit that last changed the file (not HEAD) and its blob, from a subfolder too', () => {
    const d = repo(FULL);
    git(d, 'add', PATH);
    git(d, 'commit', '-qm', 'prereg');
    const commit = git(d, 'rev-parse', 'HEAD');
    writeFileSync(join(d, 'README'), 'y\n');
    git(d, 'commit', '-qam', 'later');
    const r = checkPrereg(PATH, join(d, 'experiments'));
    expect(r).toEqual({
      ok: true,
      stamp: { path: PATH, commit, blob: git(d, 'hash-object', PATH) },
    });
    expect(commit).not.toBe(git(d, 'rev-parse', 'HEAD'));
  });
});

const BASE = {
  name: 'reg',
  steps: 2,
  methods: ['co-rl', 'gt'],
  cohort: { preset: 'paper-demo' },
  grid: { seed: [1, 2] },
};
const plan = (extra: Record<string, unknown>) => planSweep({ ...BASE, ...extra });
const errs = (extra: Record<string, unknown>): string[] => {
  const r = plan(extra);
  return r.ok ? [] : r.errors;
};
const GATES = { gates: { 'paper-demo': { pass: true } } };

describe('a registered sweep config', () => {
  it('on the test split (eval.split absent or "test") must name a prereg; on validation it need not', () => {
    const need = expect.stringMatching(
      /^prereg: a registered sweep whose cells evaluate on the test split .*every cell/,
    );
    expect(errs({ registered: true, endpoint: 'greedy', ...GATES })).toEqual([need]);
    expect(errs({ registered: true, endpoint: 'greedy', ...GATES, eval: { split: 'test' } })).toEqual([need]);
    expect(errs({ registered: true, endpoint: 'greedy', ...GATES, eval: { split: 'validation' } })).toEqual(
      [],
    );
    expect(errs({})).toEqual([]); // not registered: nothing asked
    const mixed = errs({
      registered: true,
      endpoint: 'greedy',
      grid: { 'eval.split': ['validation', 'test'] },
      gates: {
        'paper-demo, eval.split=validation': { pass: true },
        'paper-demo, eval.split=test': { pass: true },
      },
    });
    expect(mixed).toEqual([expect.stringContaining('cells 1) must name')]);
    const ok = plan({ registered: true, endpoint: 'sampled', ...GATES, prereg: PATH });
    expect(ok.ok && ok.plan.registration).toEqual({
      prereg: PATH,
      registered: true,
      endpoint: 'sampled',
      gates: { 'paper-demo': { pass: true } },
    });
  });

  it('must name its endpoint and the gates of exactly its presets; bad shapes are named', () => {
    expect(errs({ registered: true, prereg: PATH, ...GATES })).toEqual([
      expect.stringMatching(/^endpoint: a registered sweep must name its primary endpoint/),
    ]);
    expect(
      errs({ registered: true, prereg: PATH, endpoint: 'greedy', gates: { ring: { pass: false } } }),
    ).toEqual([
      expect.stringMatching(/^gates: .*missing "paper-demo"/),
      'gates.ring: no cell of the sweep is this preset (its presets: "paper-demo")',
    ]);
    expect(
      errs({ prereg: '/abs/PREREG.md', registered: 'yes', endpoint: 'best', gates: { x: true } }),
    ).toEqual([
      expect.stringMatching(
        /^prereg: must be the pre-registration file's path relative to the repository root/,
      ),
      'registered: must be true or false, got "yes"',
      expect.stringMatching(/^endpoint: must be one of greedy, sampled/),
      expect.stringMatching(/^gates.x: must be \{ "pass": true \| false/),
    ]);
    expect(errs({ prereg: '../elsewhere/PREREG.md' })).toEqual([expect.stringMatching(/^prereg: must be/)]);
  });
});

describe('experiments/regime/test.sweep.example.json', () => {
  it('plans as a registered sweep of 3 base seeds x 2 RL seeds on the test split (never run here)', () => {
    const raw = JSON.parse(readFileSync('experiments/regime/test.sweep.example.json', 'utf8'));
    const r = planSweep(raw);
    if (!r.ok) throw new Error(r.errors.join('\n'));
    expect(r.plan.cells[0].config.methods).toContain('co-rl-frozen');
    expect(r.plan.cells).toHaveLength(6);
    expect(r.plan.cells.every((c) => (c.config.eval.split ?? 'test') === 'test')).toBe(true);
    expect(r.plan.registration).toMatchObject({ registered: true, prereg: PATH, endpoint: 'sampled' });
  });
});

describe('planAndGate', () => {
  it("lists the gate's problems with the plan's, and gives the stamp when all is well", () => {
    const d = repo(FULL.replace('## Recipe', ''));
    const raw = { ...BASE, prereg: PATH, grid: { seed: [1, 1] } };
    let problems: string[] = [];
    try {
      planAndGate(raw, d);
    } catch (e) {
      problems = (e as SweepInputError).problems;
    }
    expect(problems).toEqual([
      'grid.seed: value 1 listed twice (duplicate cells)',
      'prereg experiments/regime/PREREG.md: missing the heading "## Recipe"',
      expect.stringContaining('not committed'),
    ]);
    writeFileSync(join(d, PATH), FULL);
    git(d, 'add', PATH);
    git(d, 'commit', '-qm', 'prereg');
    const r = planAndGate({ ...raw, grid: { seed: [1, 2] } }, d);
    expect(r.prereg).toEqual({
      path: PATH,
      commit: git(d, 'rev-parse', 'HEAD'),
      blob: git(d, 'hash-object', PATH),
    });
    expect(planAndGate({ ...BASE }, d).prereg).toBeUndefined();
  });
});
