// The natural families' stop rule (src/cohort/pretrainRun.ts): `plateau` trains the whole budget and keeps
// the final model, in band only when its final validation is inside the band AND within the tolerance of
// the one before; the corpus ladder tries sizes in order and keeps the first rung in band, each rung's
// corpus a prefix of the next (one stream and seed).
import { describe, expect, it } from 'vitest';
import { CpuBackend } from '../engine/cpu/cpuBackend';
import { applyCorpus, corpusErrors, corpusShortfall } from './corpus';
import type { PretrainRecipe } from './familySpec';
import { pretrainAgent } from './pretrain';
import { makeDataPool } from './regions';

const TASK = { kind: 'addw', digits: 2 } as const;
const TINY: Partial<PretrainRecipe> = {
  maxSteps: 12,
  batch: 4,
  evalEvery: 4,
  valSize: 30,
  bandSamples: 1,
  corpusLadder: [20, 40, 80],
};
const spec = { id: 'P', family: 'nat-rope', size: 'xxs', seed: 5 };

describe('the plateau rule and the corpus ladder', () => {
  it('keeps the final model of every rung; no rung in band: all three tried, the closest kept and flagged', async () => {
    const r = await pretrainAgent(new CpuBackend(), spec, TASK, { recipe: { ...TINY, band: [0.99, 1] } });
    expect(r.meta.ladder!.map((x) => x.size)).toEqual([20, 40, 80]);
    expect(r.meta.ladder!.every((x) => x.steps === 12 && !x.inBand)).toBe(true);
    expect(r.meta.inBand).toBe(false);
    expect(r.meta.steps).toBe(12); // the final model, never an earlier snapshot
    expect(r.meta.history.map((h) => h.step)).toEqual([4, 8, 12]);
    expect([20, 40, 80]).toContain(r.meta.corpus!.size);
  });

  it('stops the ladder at the first rung in band and records the size it kept', async () => {
    const r = await pretrainAgent(new CpuBackend(), spec, TASK, {
      recipe: { ...TINY, band: [0, 1], plateauTolerance: 1 },
    });
    expect(r.meta.ladder).toEqual([
      { size: 20, steps: 12, valAccuracy: r.meta.valAccuracy, plateaued: true, inBand: true },
    ]);
    expect(r.meta.inBand).toBe(true);
    expect(r.meta.corpus).toEqual({ draw: 'random', size: 20 });
  });

  it('a final validation that moved more than the tolerance is not a plateau, so not in band', async () => {
    const r = await pretrainAgent(new CpuBackend(), spec, TASK, {
      recipe: { ...TINY, band: [0, 1], plateauTolerance: -1 },
    });
    expect(r.meta.ladder!.every((x) => !x.plateaued && !x.inBand)).toBe(true);
    expect(r.meta.inBand).toBe(false);
  });

  it('a corpus size named in the spec is kept (no ladder)', async () => {
    const r = await pretrainAgent(new CpuBackend(), { ...spec, corpus: { draw: 'random', size: 30 } }, TASK, {
      recipe: { ...TINY, band: [0.99, 1] },
    });
    expect(r.meta.ladder).toBeUndefined();
    expect(r.meta.corpus).toEqual({ draw: 'random', size: 30 });
  });

  it('draws of one stream and seed are nested; another stream draws other problems; bad streams are refused', () => {
    const pool = makeDataPool(TASK, 30, 'split').training;
    const key = (ps: { key: string }[]) => ps.map((p) => p.key);
    const small = key(applyCorpus(pool, { draw: 'random', size: 50 }, 1));
    expect(key(applyCorpus(pool, { draw: 'random', size: 200 }, 1)).slice(0, 50)).toEqual(small);
    const b = key(applyCorpus(pool, { draw: 'random', size: 50, stream: 'b' }, 1));
    expect(b.filter((k) => small.includes(k)).length).toBeLessThan(10);
    expect(corpusErrors({ draw: 'random', stream: 'B C' })).toEqual([
      'stream: must be a name of 1-16 characters a-z, 0-9 or -, got "B C"',
    ]);
    expect(corpusErrors({ draw: 'share', index: 0, of: 2, stream: 'b' })).toEqual([
      "stream: only for draw 'random'",
    ]);
  });

  it('a draw larger than the pool is the whole pool, and the build says so once (ladders too)', async () => {
    const pool = makeDataPool(TASK, 30, 'split').training;
    const keys = (seed: number, stream?: string) =>
      new Set(applyCorpus(pool, { draw: 'random', size: pool.length + 500, stream }, seed).map((p) => p.key));
    expect(keys(1).size).toBe(pool.length);
    expect([...keys(2, 'b')].every((k) => keys(1).has(k))).toBe(true); // other seed and stream: the same problems
    expect(corpusShortfall({ draw: 'random', size: pool.length }, pool.length)).toBeNull();
    expect(corpusShortfall({ draw: 'share', of: 2, index: 0 }, pool.length)).toBeNull();
    expect(corpusShortfall({ draw: 'random', size: pool.length + 1 }, pool.length)).toMatch(
      new RegExp(
        `corpus.size ${pool.length + 1} is above the ${pool.length} problems .* ask for at most ${pool.length}`,
      ),
    );
    const notes: string[] = [];
    const big = { ...spec, corpus: { draw: 'random' as const, size: 40000 } };
    await pretrainAgent(new CpuBackend(), big, TASK, {
      recipe: { ...TINY, maxSteps: 4 },
      notice: (n) => notes.push(n),
    });
    expect(notes).toEqual([`agent P: ${corpusShortfall(big.corpus, pool.length)}`]);
    const fits: string[] = [];
    await pretrainAgent(new CpuBackend(), spec, TASK, {
      recipe: { ...TINY, maxSteps: 4, corpusLadder: [20, pool.length + 1] },
      notice: (n) => fits.push(n),
    });
    expect(fits).toHaveLength(1); // the ladder's largest rung
  });
});
