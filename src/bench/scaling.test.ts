// The scaling table (src/bench/scaling.ts): its cells cover the sizes and B x K, the rows run on the
// CPU reference with a fresh or a shared backend, rows past the caps or the time budget are listed as
// skipped with the reason, and the summary puts the engines side by side.
import { describe, expect, it } from 'vitest';
import type { Backend } from '../engine/backend';
import { CpuBackend } from '../engine/cpu/cpuBackend';
import { presetShapedAgents } from '../rl/leanFigures';
import { SCALING_SIZES, scalingCells, scalingRows, scalingTable } from './scaling';

const fresh = {
  name: 'cpu',
  make: async (): Promise<Backend> => new CpuBackend(),
  release: (be: Backend) => be.destroy(),
};

describe('scaling table', () => {
  it('covers about 15k, 50k, 200k and 1M parameters and B x K 16, 128, 512', () => {
    const cells = scalingCells();
    expect(cells.map((c) => `${c.size.label}@${c.B * c.K}`)).toEqual([
      '15k@128',
      '50k@128',
      '200k@128',
      '1M@128',
      '15k@16',
      '15k@512',
    ]);
    const be = new CpuBackend();
    const want = [15e3, 50e3, 200e3, 1e6];
    SCALING_SIZES.forEach((size, i) => {
      const { agents } = presetShapedAgents(be, 'paper-demo', {
        nLayer: size.nLayer,
        nEmbd: size.nEmbd,
        nHead: size.nHead,
      });
      for (const a of agents) {
        expect(a.model.layout.count / want[i]).toBeGreaterThan(0.85);
        expect(a.model.layout.count / want[i]).toBeLessThan(1.15);
        a.model.free();
      }
    });
  });

  it('runs the cells under the caps and names why the others are skipped', async () => {
    const rows = await scalingRows(fresh, scalingCells(), { maxParams: 20_000, maxBk: 16, budgetMs: 60_000 });
    expect(rows).toHaveLength(scalingCells().length);
    const ran = rows.filter((r) => r.skipped === null);
    expect(ran.map((r) => `${r.size}@${r.B * r.K}`)).toEqual(['15k@16']);
    expect(ran[0].params.length).toBeGreaterThan(1);
    for (const p of ran[0].params) expect([p > 13_000, p < 17_000]).toEqual([true, true]);
    expect(ran[0].stepMs).toBeGreaterThan(0);
    expect(ran[0].bytesHeld).toBeGreaterThan(0);
    const at = (size: string, bk: number) => rows.find((r) => r.size === size && r.B * r.K === bk);
    expect(at('15k', 128)?.skipped).toMatch(/B x K cap: 128 > max 16/);
    expect(at('1M', 128)?.skipped).toMatch(/size cap: about 983040 params > max 20000/);
    expect(at('1M', 128)?.stepMs).toBeNull();
  }, 60_000);

  it('skips every cell once the time budget is spent', async () => {
    const rows = await scalingRows(fresh, scalingCells(), { maxParams: 1e9, maxBk: 1e9, budgetMs: -1 });
    expect(rows.every((r) => r.skipped?.includes('time budget'))).toBe(true);
  });

  it('a shared backend is kept and each row counts the bytes its cell added', async () => {
    const be = new CpuBackend();
    let released = 0;
    const shared = { name: 'cpu', make: async (): Promise<Backend> => be, release: () => void released++ };
    const cell = scalingCells().filter((c) => c.size.label === '15k' && c.B * c.K === 16);
    const [a] = await scalingRows(shared, cell);
    const [b] = await scalingRows(shared, cell);
    expect(released).toBe(2);
    expect(a.bytesHeld).toBeGreaterThan(0);
    expect(b.bytesHeld).toBeLessThanOrEqual(a.bytesHeld!);
    be.destroy();
  }, 60_000);

  it('puts the engines side by side per cell, naming skipped and missing rows', () => {
    const cells = scalingCells().slice(0, 1);
    const row = { size: '15k', params: [1], B: cells[0].B, K: cells[0].K, timedSteps: 3, skipped: null };
    const t = scalingTable(cells, [
      { ...row, backend: 'cpu', stepMs: 10, bytesHeld: 100 },
      { ...row, backend: 'wasm', stepMs: 2, bytesHeld: 50 },
    ]);
    expect(t).toEqual([
      {
        size: '15k',
        BxK: 128,
        cpuMs: 10,
        cpuBytes: 100,
        wasmMs: 2,
        wasmBytes: 50,
        webgpuMs: null,
        webgpuBytes: null,
        webgpuSkipped: 'not run',
      },
    ]);
  });
});
