// `npm run regime-test-config` from the command line, on copies of gate B's committed muladdw cells: a grid
// with cells still to run is refused (exit 1, nothing written; --dry prints the provisional sweep and says
// it would refuse), the same cells as a complete grid write a sweep that plans with the chosen recipe, and
// bad input exits 2 naming what is wrong.
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { check, resolveConfig } from 'prettier';
import { afterAll, describe, expect, it } from 'vitest';
import { planSweep } from '../sweep/grid';

const CLI = fileURLToPath(new URL('./regimeTest.ts', import.meta.url));
const GRID = 'experiments/regime/gate-b/muladdw';
const root = mkdtempSync(join(tmpdir(), 'regime-test-cli-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const run = (args: string[]) =>
  spawnSync(process.execPath, ['--import', 'tsx', CLI, ...args], { encoding: 'utf8' });

/**
 * A grid of the committed cells whose manifest lists exactly those cells (complete), or (`missing` > 0) the
 * same manifest with the last `missing` cells' records left out (incomplete by that many).
 */
function grid(name: string, missing: number): string {
  const dir = join(root, name);
  mkdirSync(join(dir, 'cells'), { recursive: true });
  const files = readdirSync(join(GRID, 'cells')).sort();
  files
    .slice(0, files.length - missing)
    .forEach((f) => copyFileSync(join(GRID, 'cells', f), join(dir, 'cells', f)));
  const manifest = JSON.parse(readFileSync(join(GRID, 'sweep.json'), 'utf8'));
  const have = new Set(files.map((f) => f.replace(/\.json$/, '')));
  manifest.cells = manifest.cells.filter((c: { id: string }) => have.has(c.id));
  writeFileSync(join(dir, 'sweep.json'), JSON.stringify(manifest));
  return dir;
}

describe('npm run regime-test-config', () => {
  it('refuses an incomplete grid, and --dry shows the provisional sweep without writing it', () => {
    const dir = grid('partial', 2);
    const out = join(root, 'partial.sweep.json');
    const r = run(['--gate-b', dir, '--out', out]);
    const n = JSON.parse(readFileSync(join(dir, 'sweep.json'), 'utf8')).cells.length as number;
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(
      `refused: gate B is not complete: regime-optimizer-muladdw (${n - 2} of ${n} cells)`,
    );
    expect(existsSync(out)).toBe(false);
    const d = run(['--gate-b', dir, '--dry']);
    expect(d.status).toBe(0);
    expect(d.stderr).toMatch(/provisional/);
    expect(d.stderr).toMatch(/would refuse to write it/);
    expect(planSweep(JSON.parse(d.stdout)).ok).toBe(true);
  });

  it('writes the registered sweep from a complete grid, with the recipe it names, formatted', async () => {
    const dir = grid('whole', 0);
    const out = join(root, 'test.sweep.json');
    const r = run(['--gate-b', dir, '--out', out]);
    expect(r.stderr).not.toMatch(/provisional/);
    expect(r.status).toBe(0);
    const recipe = JSON.parse(/recipe \([^)]*\): (\{.*\})/.exec(r.stderr)![1]) as Record<string, unknown>;
    const raw = JSON.parse(readFileSync(out, 'utf8'));
    const p = planSweep(raw);
    if (!p.ok) throw new Error(p.errors.join('\n'));
    expect(p.plan.cells).toHaveLength(16);
    for (const [path, value] of Object.entries(recipe))
      expect(raw.train[path.replace(/^train\./, '')]).toEqual(value);
    expect(Object.values(p.plan.registration.gates).map((g) => g.pass)).toEqual([false, false]);
    // Written as `npm run lint` checks experiments/: in the repository's prettier formatting.
    const repoFile = fileURLToPath(new URL('../../experiments/regime/test.sweep.json', import.meta.url));
    const options = { ...(await resolveConfig(repoFile)), filepath: repoFile };
    expect(await check(readFileSync(out, 'utf8'), options)).toBe(true);
  });

  it('bad input exits 2 naming it', () => {
    const a = run(['--gate-b', join(root, 'nowhere')]);
    expect(a.status).toBe(2);
    expect(a.stderr).toMatch(/nowhere: no cells\/ folder there/);
    const b = run(['--grid', 'x']);
    expect(b.status).toBe(2);
    expect(b.stderr).toMatch(
      /unknown argument --grid \(allowed: --gate-b, --out, --prereg, --name, --candidates, --base-seeds, --gates\)/,
    );
    const c = run([]);
    expect(c.status).toBe(2);
    expect(c.stderr).toMatch(/missing --gate-b/);
  });

  it('a later pre-registration: its own file, name and base seeds, the preset passing only if every seed passes', () => {
    const dir = grid('later', 0);
    // any committed file stands in for a later pre-registration (the sweep wants a repository path)
    const prereg = 'docs/method.md';
    const row = (baseSeed: number, inRegime: boolean) => ({
      name: 'nearest-muladdw-different-family',
      baseSeed,
      report: {
        split: 'validation',
        problems: 2000,
        verdict: {
          inRegime,
          gates: [{ id: 'A5', status: inRegime ? 'pass' : 'fail', detail: `kappa of seed ${baseSeed}` }],
        },
      },
    });
    const gates = join(root, 'gates.json');
    writeFileSync(
      gates,
      JSON.stringify([row(16, false), row(17, true), row(18, true), row(19, true), row(20, true)]),
    );
    const args = (seeds: string) => [
      '--gate-b',
      dir,
      '--dry',
      '--prereg',
      prereg,
      '--name',
      'regime-test-x',
      '--candidates',
      'nearest-muladdw-different-family',
      '--base-seeds',
      seeds,
      '--gates',
      gates,
    ];
    const ok = run(args('17,18,19,20'));
    expect(ok.status).toBe(0);
    const raw = JSON.parse(ok.stdout);
    expect(raw).toMatchObject({ name: 'regime-test-x', prereg });
    const p = planSweep(raw);
    if (!p.ok) throw new Error(p.errors.join('\n'));
    expect(p.plan.cells).toHaveLength(8);
    const [g] = Object.values(p.plan.registration.gates);
    expect(g.pass).toBe(true);
    expect(g.note).toMatch(/seed 17: A5 pass \| seed 18: A5 pass \| seed 19: A5 pass/);
    // one failing seed fails the preset
    const bad = JSON.parse(run(args('16,17,18,19')).stdout);
    expect(Object.values(bad.gates as Record<string, { pass: boolean; note: string }>)[0]).toMatchObject({
      pass: false,
      note: expect.stringMatching(
        /seed 16: no gate passes; A5 fail \(kappa of seed 16\) \| seed 17: A5 pass/,
      ),
    });
    // a base seed with no read, too few seeds, a missing pre-registration
    const none = run(args('17,18,19,21'));
    expect(none.status).toBe(2);
    expect(none.stderr).toMatch(/no regime report of nearest-muladdw-different-family on base seed 21/);
    const few = run(args('17,18,19'));
    expect(few.status).toBe(2);
    expect(few.stderr).toMatch(/at least 4 distinct positive whole base seeds/);
    const word = run(args('17,x,18,19'));
    expect(word.status).toBe(2);
    expect(word.stderr).toMatch(/"x" is not a whole number/);
    const gone = run([...args('17,18,19,20').slice(0, 4), join(root, 'nowhere.md')]);
    expect(gone.status).toBe(2);
    expect(gone.stderr).toMatch(/--prereg .*nowhere\.md: no such file/);
  });
});
