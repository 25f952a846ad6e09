// The page's base checkpoints on demand (src/worker/axisBuilds.ts) on the CPU backend with a tiny recipe (same key and bytes as the Node cache):
// a natural preset's shared build is made once (seed-only's two agents), stored with its sum and read back
// with no pretraining; the progress names the corpus ladder's rung; a damaged entry (flipped byte, wrong sum,
// another build's bytes) is rebuilt to the same bytes with a notice, never used; bad axes are refused first.
import { describe, expect, it } from 'vitest';
import { buildKey } from '../cohort/axes';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cachedCheckpoint } from '../cohort/cache';
import { cacheSum, engineCacheKey } from '../cohort/cacheEntry';
import { NATURAL_PRESETS, naturalPresetSpecs } from '../cohort/naturalPresets';
import { CpuBackend } from '../engine/cpu/cpuBackend';
import type { ExperimentConfig } from '../rl/config';
import { AxisBuilder, axisAgents, cachePath, resolveAxisAgents } from './axisBuilds';
import { memoryStore, type CheckpointStore } from './checkpointStore';

const recipe = { maxSteps: 2, evalEvery: 1, valSize: 8, batch: 4, bandSamples: 1, corpusLadder: [20, 30] };
const small = { kind: 'addw', digits: 2 } as const;

const configOf = (preset: string): ExperimentConfig =>
  ({
    name: 'x',
    seed: 1,
    steps: 1,
    methods: ['ttrl'],
    cohort: { agents: naturalPresetSpecs(preset) },
    task: small,
  }) as unknown as ExperimentConfig;

function hooks() {
  const notes: string[] = [];
  const notices: string[] = [];
  const works: number[] = [];
  return {
    notes,
    notices,
    works,
    h: {
      recipe,
      aborted: () => false,
      note: (m: string, w?: number) => {
        notes.push(m);
        if (w !== undefined) works.push(w);
      },
      notice: (m: string) => notices.push(m),
    },
  };
}

describe('in-page builds of agents by axes', () => {
  it('build a shared agent once, store it, and reuse it with no pretraining', async () => {
    const be = new CpuBackend();
    const store = memoryStore();
    const first = hooks();
    const cfg = configOf('natural-addw-seed-only');
    expect(NATURAL_PRESETS['natural-addw-seed-only'].agents).toHaveLength(2);
    const r = await resolveAxisAgents(be, cfg, store, first.h);
    const key = buildKey(naturalPresetSpecs('natural-addw-seed-only')[0], small, recipe);
    const agents = (r!.config.cohort as { agents: { checkpoint?: string }[] }).agents;
    expect(agents.map((a) => a.checkpoint)).toEqual([cachePath(key), cachePath(key)]); // one build, CPU: bare key
    expect(axisAgents(r!.config)).toEqual([]);
    expect(first.notices).toEqual([
      expect.stringMatching(/^A, B: nat-rope\.s seed 1, plain view: pretrained here/),
    ]);
    expect(first.notes.some((n) => /corpus 20 problems \(rung 1 of 2\): step 1\/2/.test(n))).toBe(true);
    expect(first.notes.some((n) => /rung 2 of 2/.test(n))).toBe(true);
    expect(first.works.every((w, i) => w >= 0 && w <= 1 && (i === 0 || w >= first.works[i - 1]))).toBe(true);
    const stored = await store.get(key);
    expect(stored?.sum).toBe(cacheSum(stored!.bytes));

    const again = hooks();
    const r2 = await resolveAxisAgents(be, cfg, store, again.h);
    expect(again.notes.filter((n) => n.startsWith('Pretraining'))).toEqual([]);
    expect(again.notices).toEqual([
      `A, B: nat-rope.s seed 1, plain view: from ${store.where} (build ${key})`,
    ]);
    expect(Buffer.from(r2!.bytes.get(cachePath(key))!).equals(Buffer.from(stored!.bytes))).toBe(true);
  });

  it('give the same key and bytes as the Node cache for the same spec, task and recipe (CPU)', async () => {
    const be = new CpuBackend();
    const store = memoryStore();
    const [spec] = naturalPresetSpecs('natural-addw-different-family').slice(1); // C: nat-chunk, chunk2 tokens
    const cfg = {
      ...configOf('natural-addw-different-family'),
      cohort: { agents: [spec] },
    } as ExperimentConfig;
    const page = await resolveAxisAgents(be, cfg, store, hooks().h);
    const dir = mkdtempSync(join(tmpdir(), 'corl-page-node-'));
    const node = await cachedCheckpoint(be, spec, small, { dir, recipe });
    expect([...page!.bytes.keys()]).toEqual([cachePath(node.key)]);
    expect(Buffer.from(page!.bytes.get(cachePath(node.key))!).equals(Buffer.from(node.bytes))).toBe(true);
    expect(engineCacheKey(node.key, 'wasm')).toBe(`${node.key}-wasm`);
  });

  it('rebuild a damaged entry (same bytes again) with a notice, never using it', async () => {
    const be = new CpuBackend();
    const store = memoryStore();
    const cfg = configOf('natural-addw-different-family');
    await resolveAxisAgents(be, cfg, store, hooks().h);
    const [r, c] = naturalPresetSpecs('natural-addw-different-family').map((s) => buildKey(s, small, recipe));
    const good = (await store.get(c))!;
    const damage: [string, (s: CheckpointStore) => Promise<void>, RegExp][] = [
      [
        'flipped byte',
        async (s) => {
          const b = good.bytes.slice();
          b[b.length - 3] ^= 0xff;
          await s.put(c, { bytes: b, sum: good.sum });
        },
        /its hash does not check/,
      ],
      [
        'right sum, bad weights',
        async (s) => {
          const b = good.bytes.slice();
          new DataView(b.buffer).setFloat32(b.length - 4, NaN, true);
          await s.put(c, { bytes: b, sum: cacheSum(b) });
        },
        /weight .* is NaN|header does not parse/,
      ],
      [
        'another build',
        async (s) => {
          const other = (await s.get(r))!;
          await s.put(c, other);
        },
        /its header names another build/,
      ],
    ];
    for (const [what, harm, why] of damage) {
      await harm(store);
      const h = hooks();
      const out = await resolveAxisAgents(be, cfg, store, h.h);
      expect(h.notices, what).toContainEqual(expect.stringMatching(why));
      expect(
        h.notices.find((n) => n.includes('damaged')),
        what,
      ).toMatch(/^cache entry \w+ \(C: nat-chunk/);
      expect(Buffer.from(out!.bytes.get(cachePath(c))!).equals(Buffer.from(good.bytes)), what).toBe(true);
      expect(h.notes.filter((n) => n.startsWith('Pretraining R'))).toEqual([]); // the good entry is reused
    }
  });

  it('refuse bad axes before any work, with the numbers, and keep the agents with checkpoints', async () => {
    const be = new CpuBackend();
    const h = hooks();
    const cfg = {
      ...configOf('natural-addw-seed-only'),
      cohort: {
        agents: [
          { id: 'A', family: 'nat-rope', size: 's', seed: 1, view: 'plain', arch: { blockSize: 10 } },
          { id: 'B', family: 'nat-rope', size: 's', seed: 1, view: 'plain', tokenizer: 'bytes' },
        ],
      },
    } as unknown as ExperimentConfig;
    await expect(resolveAxisAgents(be, cfg, memoryStore(), h.h)).rejects.toThrow(
      /agent B\.tokenizer: unknown tokenizer "bytes"; valid tokenizers: digit, chunk2, chunk3, words\n- agent A: arch\.blockSize 10 cannot hold the prompt \(6 tokens\) plus the longest completion with EOS \(12 tokens\) .*needs at least 17$/,
    );
    expect(h.notes).toEqual([]);
    const shipped = {
      ...cfg,
      cohort: {
        agents: [{ id: 'S', family: 'lp-nocarry', size: 's', seed: 1, view: 'plain', checkpoint: 'x.ckpt' }],
      },
    } as unknown as ExperimentConfig;
    const builder = new AxisBuilder(() => Promise.reject(new Error('never opened')));
    expect(await builder.resolve(be, shipped, h.h)).toBe(shipped);
  });
});
