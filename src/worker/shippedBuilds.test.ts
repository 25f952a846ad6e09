// Builds shipped with the app (public/checkpoints/cache, `npm run ship-builds`): the page and the Node cache
// start from a shipped entry that checks, with no pretraining, and pretrain as before when the shipped one
// is damaged or absent (CPU backend, a tiny recipe).
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildKey } from '../cohort/axes';
import { cachedCheckpoint } from '../cohort/cache';
import { cacheSum, engineCacheKey } from '../cohort/cacheEntry';
import { naturalPresetSpecs } from '../cohort/naturalPresets';
import { pretrainAgent } from '../cohort/pretrain';
import { pretrainSpecOf } from '../cohort/axes';
import { CpuBackend } from '../engine/cpu/cpuBackend';
import type { ExperimentConfig } from '../rl/config';
import { resolveAxisAgents, shippedPath, cachePath } from './axisBuilds';
import { memoryStore } from './checkpointStore';

const recipe = { maxSteps: 2, evalEvery: 1, valSize: 8, batch: 4, bandSamples: 1, corpusLadder: [20, 30] };
const task = { kind: 'addw', digits: 2 } as const;
const spec = naturalPresetSpecs('natural-addw-seed-only')[0];

describe('shipped builds', () => {
  it('the page uses a shipped wasm entry that checks, and pretrains when it is damaged', async () => {
    const be = new CpuBackend();
    const shipKey = engineCacheKey(buildKey(spec, task, recipe), 'wasm');
    const built = await pretrainAgent(be, pretrainSpecOf(spec), task, { recipe, cacheKey: shipKey });
    built.agent.model.free();
    const files = new Map<string, Uint8Array>([
      [shippedPath(shipKey), built.bytes],
      [shippedPath(shipKey, 'sum'), new TextEncoder().encode(`${cacheSum(built.bytes)}\n`)],
    ]);
    const read = async (p: string) => {
      const b = files.get(p);
      if (!b) throw new Error(`404 ${p}`);
      return b;
    };
    const cfg = {
      name: 'x',
      seed: 1,
      steps: 1,
      methods: ['ttrl'],
      cohort: { agents: [spec] },
      task,
    } as unknown as ExperimentConfig;
    const notes: string[] = [];
    const notices: string[] = [];
    const h = {
      recipe,
      aborted: () => false,
      note: (m: string) => notes.push(m),
      notice: (m: string) => notices.push(m),
    };
    const store = memoryStore();
    const r = await resolveAxisAgents(be, cfg, store, { ...h, shipped: read });
    const key = buildKey(spec, task, recipe); // the CPU engine's own key (bare)
    expect(Buffer.from(r!.bytes.get(cachePath(key))!).equals(Buffer.from(built.bytes))).toBe(true);
    expect(notices).toEqual([
      expect.stringMatching(/shipped with the app \(build [0-9a-f]{16}-wasm\), no pretraining/),
    ]);
    expect(notes.some((n) => n.startsWith('Pretraining'))).toBe(false);
    expect(await store.get(key)).toBeUndefined(); // not copied into the browser's cache

    // a damaged shipped entry is not used: the agent is pretrained here as before
    const bad = built.bytes.slice();
    bad[bad.length - 3] ^= 0xff;
    files.set(shippedPath(shipKey), bad);
    const notes2: string[] = [];
    await resolveAxisAgents(be, cfg, memoryStore(), { ...h, note: (m) => notes2.push(m), shipped: read });
    expect(notes2.some((n) => n.startsWith('Pretraining'))).toBe(true);
  });

  it('the Node cache falls back to a shipped entry of the same engine that checks', async () => {
    const be = new CpuBackend();
    const ship = mkdtempSync(join(tmpdir(), 'corl-ship-'));
    const a = await cachedCheckpoint(be, spec, task, { dir: ship, recipe });
    expect(a.built).toBe(true);
    const empty = mkdtempSync(join(tmpdir(), 'corl-empty-'));
    const b = await cachedCheckpoint(be, spec, task, { dir: empty, shippedDir: ship, recipe });
    expect(b).toMatchObject({ built: false, key: a.key, file: join(ship, `${a.key}.ckpt`) });
    expect(Buffer.from(b.bytes).equals(Buffer.from(a.bytes))).toBe(true);
    const bytes = new Uint8Array(readFileSync(a.file));
    bytes[bytes.length - 3] ^= 0xff;
    writeFileSync(a.file, bytes);
    const c = await cachedCheckpoint(be, spec, task, {
      dir: mkdtempSync(join(tmpdir(), 'corl-e2-')),
      shippedDir: ship,
      recipe,
    });
    expect(c.built).toBe(true);
    expect(Buffer.from(c.bytes).equals(Buffer.from(b.bytes))).toBe(true);
  });
});
