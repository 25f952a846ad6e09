// The base-agent factory on a tiny recipe: deterministic bytes for a seed, different for another seed,
// the band stop, the meta it records, and the round trip through agentFromCheckpoint.
import { describe, expect, it } from 'vitest';
import { CpuBackend } from '../engine/cpu/cpuBackend';
import { loadCheckpoint } from '../model/checkpoint';
import { makeTask } from '../tasks';
import { greedyScores } from './evaluate';
import { agentFromCheckpoint, baseMetaOf } from './manifest';
import { DEFAULT_TASK } from './presets';
import { BASE_META_FORMAT } from './baseMeta';
import { pretrainAgent } from './pretrain';
import type { PretrainRecipe } from './familySpec';

/** Never in band (so it runs every step and keeps the closest validation). */
const TINY: Partial<PretrainRecipe> = {
  maxSteps: 24,
  batch: 8,
  evalEvery: 8,
  valSize: 40,
  bandSamples: 2,
  band: [0.99, 1],
  sampledBand: [0.99, 1],
};
const spec = { id: 'A', family: 'lp-nocarry', size: 's', seed: 3 };

describe('pretrainAgent', () => {
  it('is deterministic for a seed (identical checkpoint bytes) and differs for another seed', async () => {
    const a = await pretrainAgent(new CpuBackend(), spec, DEFAULT_TASK, { recipe: TINY });
    const b = await pretrainAgent(new CpuBackend(), spec, DEFAULT_TASK, { recipe: TINY });
    expect(a.bytes.length).toBe(b.bytes.length);
    expect(Buffer.from(a.bytes).equals(Buffer.from(b.bytes))).toBe(true);
    const c = await pretrainAgent(new CpuBackend(), { ...spec, seed: 4 }, DEFAULT_TASK, { recipe: TINY });
    expect(Buffer.from(c.bytes).equals(Buffer.from(a.bytes))).toBe(false);
    // never in band: three validations, the closest kept, flagged
    expect(a.meta.inBand).toBe(false);
    expect(a.meta.history.map((h) => h.step)).toEqual([8, 16, 24]);
    expect(a.meta.history.map((h) => h.step)).toContain(a.meta.steps);
  });

  it('stops at the first validation inside the band and records its meta', async () => {
    const progress: number[] = [];
    const r = await pretrainAgent(new CpuBackend(), spec, DEFAULT_TASK, {
      recipe: { ...TINY, band: [0, 1], sampledBand: [0, 1] },
      onProgress: (p) => progress.push(p.step),
    });
    expect(r.meta.inBand).toBe(true);
    expect(r.meta.steps).toBe(8);
    expect(progress).toEqual([8, 8]); // one validation, then done
    const m = baseMetaOf(loadCheckpoint(r.bytes).meta);
    expect(m).toEqual(r.meta);
    expect(m.format).toBe(BASE_META_FORMAT);
    expect(m).toMatchObject({
      family: 'lp-nocarry',
      size: 's',
      seed: 3,
      view: 'plain',
      task: { kind: 'add', digits: 2, evalFraction: 0.2 },
    });
    expect(m.alphabet).toBe('#+0123456789=');
    expect(m.promptLength).toBe(6); // "37+05="
    expect(m.maxNewTokens).toBe(5); // "#198" + EOS
    expect(r.agent.base).toBe(r.meta);
  });

  it('a checkpoint loads back into an agent with the same greedy answers; mismatched specs are refused', async () => {
    const be = new CpuBackend();
    const r = await pretrainAgent(be, spec, DEFAULT_TASK, { recipe: TINY });
    const loaded = agentFromCheckpoint(be, r.bytes, {
      id: 'A',
      family: 'lp-nocarry',
      size: 's',
      seed: 3,
      view: 'plain',
    });
    const problems = makeTask(DEFAULT_TASK).evalSet(40);
    const x = await greedyScores(r.agent.model, r.agent.tokenizer, 'plain', problems, r.meta.maxNewTokens);
    const y = await greedyScores(loaded.model, loaded.tokenizer, 'plain', problems, r.meta.maxNewTokens);
    expect(y.texts).toEqual(x.texts);
    expect(() => agentFromCheckpoint(be, r.bytes, { id: 'B', family: 'rope-carry' })).toThrow(
      /family: spec "rope-carry", checkpoint "lp-nocarry"/,
    );
    expect(() => agentFromCheckpoint(be, r.bytes, { id: 'B', seed: 9 })).toThrow(
      /seed: spec 9, checkpoint 3/,
    );
  });
});
