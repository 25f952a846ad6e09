// The sweep's pre-pass over agents by axes: entries shipped with the app (public/checkpoints/cache) are
// read from there, said so, and never rebuilt.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SHIPPED_DIR } from '../cohort/cache';
import { prepareCheckpoints } from './checkpoints';
import { planSweep } from './grid';

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
