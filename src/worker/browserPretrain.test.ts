// "Pretrain the base agents here" for a shipped preset (./browserPretrain.ts), on the wasm engine with a
// tiny recipe: with a pool of 2 model workers (worker threads here, Web Workers in the page) the agents
// are built side by side, to the bytes of the build in this worker and of `npm run pretrain`'s code
// (pretrainPreset) on the same engine; every agent's progress is shown and the bar never goes back.
import { afterAll, describe, expect, it } from 'vitest';
import { pretrainPreset } from '../cohort/build';
import { makeNodeBackend } from '../engine/wasm/nodeBackend';
import type { ExperimentConfig } from '../rl/config';
import { nodePort } from '../rl/pool/nodePool';
import { PretrainCache } from './browserPretrain';
import { PagePool } from './pagePool';

const tiny = { maxSteps: 4, evalEvery: 2, valSize: 8 };
const config = { cohort: { preset: 'paper-demo' } } as unknown as ExperimentConfig;
const pools: PagePool[] = [];
afterAll(() => pools.forEach((p) => p.close()));

describe('PretrainCache: a shipped preset pretrained here', () => {
  it('builds in this worker and 1 model worker to the bytes of one worker and of pretrainPreset', async () => {
    const be = await makeNodeBackend('wasm');
    const reference = await pretrainPreset(be, 'paper-demo', { recipe: tiny });
    expect(reference.agents.length).toBeGreaterThanOrEqual(2);

    const here = new PretrainCache();
    expect(
      await here.pretrain(
        be,
        config,
        { recipe: tiny },
        () => false,
        () => {},
      ),
    ).toBe(true);

    const spawned: string[] = [];
    const notices: string[] = [];
    const pool = new PagePool((engine) => {
      spawned.push(engine);
      return nodePort(engine as 'wasm');
    });
    pools.push(pool);
    const works: number[] = [];
    const notes: string[] = [];
    const pooled = new PretrainCache();
    const ok = await pooled.pretrain(
      be,
      config,
      { recipe: tiny },
      () => false,
      (m, w) => {
        notes.push(m);
        if (w !== undefined) works.push(w);
      },
      (n) => pool.builds(be, 2, n, (m) => notices.push(m)),
    );
    expect(ok).toBe(true);
    expect(spawned).toEqual(['wasm']); // this worker is the other builder
    expect(notices).toEqual([
      `The ${reference.agents.length} base agents to pretrain are built side by side in this worker and 1 model worker (wasm).`,
    ]);
    for (const a of reference.agents) {
      const want = Buffer.from(a.result.bytes);
      expect(Buffer.from(here.get(a.spec.checkpoint)!).equals(want), `${a.spec.id} in this worker`).toBe(
        true,
      );
      expect(Buffer.from(pooled.get(a.spec.checkpoint)!).equals(want), `${a.spec.id} in the pool`).toBe(true);
    }
    expect(works.length).toBeGreaterThan(0);
    expect(works.every((w, i) => w >= 0 && w <= 1 && (i === 0 || w >= works[i - 1]))).toBe(true);
    expect(works.at(-1)).toBe(1); // every build done counts whole, wherever its ladder stopped
    // every agent's progress reached the bar
    for (const a of reference.agents)
      expect(notes.some((n) => n.startsWith(`Pretraining agent ${a.spec.id}: step`))).toBe(true);
    be.destroy();
  }, 120_000);
});
