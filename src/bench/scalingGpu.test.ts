// The scaling rows (src/bench/scalingGpu.ts) on the CPU reference: the smallest row runs and is sized as
// named, rows past the caps and the time budget are listed as skipped with the reason.
import { describe, expect, it } from 'vitest';
import { CpuBackend } from '../engine/cpu/cpuBackend';
import { SCALING_BK, SCALING_SIZES, scalingRows } from './scalingGpu';

describe('scaling rows', () => {
  it('runs the rows under the caps and names why the others are skipped', async () => {
    const rows = await scalingRows(new CpuBackend(), {
      maxParams: 20_000,
      maxBk: 16,
      budgetMs: 60_000,
      steps: 1,
    });
    expect(rows).toHaveLength(SCALING_SIZES.length * SCALING_BK.length);
    const ran = rows.filter((r) => r.skipped === null);
    expect(ran.map((r) => `${r.size}@${r.bk}`)).toEqual(['15k@16']);
    expect(ran[0].params).toBeGreaterThan(13_000);
    expect(ran[0].params).toBeLessThan(17_000);
    expect(ran[0].stepMs).toBeGreaterThan(0);
    expect(ran[0].engineBytes).toBeGreaterThan(0);
    expect(rows.find((r) => r.size === '15k' && r.bk === 128)?.skipped).toMatch(
      /B x K cap: 128 > --scaling-max-bk 16/,
    );
    expect(rows.find((r) => r.size === '1M' && r.bk === 16)?.skipped).toMatch(/size cap/);
  }, 60_000);

  it('skips every row once the time budget is spent', async () => {
    const rows = await scalingRows(new CpuBackend(), { maxParams: 1e9, maxBk: 1e9, budgetMs: -1, steps: 1 });
    expect(rows.every((r) => r.skipped?.includes('time budget'))).toBe(true);
  });
});
