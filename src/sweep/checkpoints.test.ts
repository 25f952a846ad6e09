// The sweep's pre-pass over agents by axes: entries shipped with the app (public/checkpoints/cache) are
// read from there, said so, and never rebuilt; missing entries are built side by side on the sweep's
// workers with the bytes of one build after the other; a damaged entry is rebuilt with a notice.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cachedCheckpoint, SHIPPED_DIR } from '../cohort/cache';
import { makeNodeBackend } from '../engine/wasm/nodeBackend';
import { prepareCheckpoints } from './checkpoints';
import { planSweep } from './grid';
import { tinyBuildCells } from './tinyBuilds.fixture';

const cacheDir = mkdtempSync(join(tmpdir(), 'corl-ckpt-'));
afterAll(() => rmSync(cacheDir, { recursive: true, force: true }));

describe('prepareCheckpoints with shipped cache entries', () => {
  it('counts the entries shipped with the app apart from those to build, and builds none of them', async () => {
    // the B 256 test's first base seed: two agents by axes, both shipped (docs/regime.md)
    const raw = JSON.parse(readFileSync('experiments/regime/test-B256.sweep.json', 'utf8'));
    const r = planSweep(raw);
    if (!r.ok) throw new Error(r.errors.join('; '));
    const cells = r.plan.cells.filter((c) => c.specs.every((s) => s.seed === 17));
    expect(cells).toHaveLength(10);
    const log: string[] = [];
    expect(await prepareCheckpoints(cells, { cacheDir, log: (s) => log.push(s) })).toEqual([]);
    expect(log[0]).toBe(
      `2 cache entries of agents by axes in ${cacheDir}: 0 there, 2 shipped with the app (${SHIPPED_DIR}), 0 to build once on wasm`,
    );
    expect(log.filter((s) => s.startsWith('fetched @cache/'))).toHaveLength(2);
    expect(log.some((s) => s.startsWith('built '))).toBe(false);
    expect(readdirSync(cacheDir)).toEqual([]); // read from the app's builds, not copied
  }, 60_000);
});

const entries = (dir: string) =>
  Object.fromEntries(readdirSync(dir).map((f) => [f, readFileSync(join(dir, f)).toString('base64')]));

describe('prepareCheckpoints building missing cache entries', () => {
  const serial = join(cacheDir, 'serial');
  const sideBySide = join(cacheDir, 'side-by-side');

  it('builds them side by side on the sweep workers, storing the bytes one build after the other gives', async () => {
    const cells = tinyBuildCells();
    const one: string[] = [];
    expect(await prepareCheckpoints(cells, { cacheDir: serial, log: (s) => one.push(s) })).toEqual([]);
    expect(one[0]).toBe(`2 cache entries of agents by axes in ${serial}: 0 there, 2 to build once on wasm`);
    expect(one[1]).toBe('building 2 entries (2 rungs) on this thread');
    const two: string[] = [];
    const o = { cacheDir: sideBySide, workers: 2, log: (s: string) => two.push(s) };
    expect(await prepareCheckpoints(cells, o)).toEqual([]);
    expect(two[1]).toBe('building 2 entries (2 rungs) on 2 builders: this thread and 1 model worker');
    const built = two.filter((s) => s.startsWith('built @cache/'));
    expect(built).toHaveLength(2);
    // one build on each builder, each line naming where it ran and the cells that need it
    expect(built.map((s) => /\((built in [^)]+)\), for cells 0$/.exec(s)?.[1]).sort()).toEqual([
      'built in model worker 0',
      'built in this thread',
    ]);
    expect(Object.keys(entries(sideBySide))).toHaveLength(4); // two checkpoints and their sums
    expect(entries(sideBySide)).toEqual(entries(serial));
    // and they are the bytes the cache's own build (pretrainAgent, as `--cell` builds one) gives
    const be = await makeNodeBackend('wasm');
    const own = join(cacheDir, 'own');
    const { specs, config } = cells[0];
    for (const spec of specs) await cachedCheckpoint(be, spec, config.task!, { dir: own, shippedDir: own });
    be.destroy();
    expect(entries(own)).toEqual(entries(serial));
  }, 120_000);

  it('rebuilds a damaged entry with a notice, to the same bytes, and builds nothing else', async () => {
    const before = entries(serial);
    const ckpt = readdirSync(serial).find((f) => f.endsWith('.ckpt'))!;
    const bytes = readFileSync(join(serial, ckpt));
    bytes[bytes.length - 1] ^= 0xff;
    writeFileSync(join(serial, ckpt), bytes);
    const log: string[] = [];
    const o = { cacheDir: serial, workers: 2, log: (s: string) => log.push(s) };
    expect(await prepareCheckpoints(tinyBuildCells(), o)).toEqual([]);
    expect(log[0]).toBe(`2 cache entries of agents by axes in ${serial}: 1 there, 1 to build once on wasm`);
    expect(log[1]).toMatch(
      new RegExp(
        `^notice: cache entry ${ckpt.replace('.ckpt', '')} \\(\\w: nat-rope\\.s seed \\d\\) is damaged: .+; rebuilding it$`,
      ),
    );
    expect(log[2]).toBe('building 1 entry (1 rung) on this thread'); // one rung: no pool to start
    expect(log.filter((s) => s.startsWith('built @cache/'))).toHaveLength(1);
    expect(entries(serial)).toEqual(before);
  }, 120_000);
});
