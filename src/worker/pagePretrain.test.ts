// In-page pretraining in the pool of model workers (src/worker/axisBuilds.ts through PagePool.builds and
// src/rl/pool/poolBuilds.ts; the model workers are worker threads here, Web Workers in the page), on the
// wasm engine with a tiny recipe: a preset with two distinct builds (natural-addw-different-arch) built in
// 2 model workers gives the bytes of the 1-worker build and of the Node cache entry of the same engine, with
// each agent's progress reaching the page; a build that fails in a worker names its agents; a build whose
// worker stops is built again in the training worker, to the same bytes; a run stopped mid-build stops the
// workers and stores nothing, and the next run starts new ones.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildKey } from '../cohort/axes';
import { cachedCheckpoint } from '../cohort/cache';
import { engineCacheKey } from '../cohort/cacheEntry';
import { naturalPresetSpecs } from '../cohort/naturalPresets';
import { engineId, type Backend } from '../engine/backend';
import { makeNodeBackend } from '../engine/wasm/nodeBackend';
import type { ExperimentConfig } from '../rl/config';
import { nodePort } from '../rl/pool/nodePool';
import type { HostMessage, HostPort, HostReply } from '../rl/pool/protocol';
import { resolveAxisAgents, type AxisBuildHooks } from './axisBuilds';
import { memoryStore } from './checkpointStore';
import { PagePool, type SpawnModelWorker } from './pagePool';

const recipe = { maxSteps: 2, evalEvery: 1, valSize: 8, batch: 4, bandSamples: 1, corpusLadder: [20, 30] };
const small = { kind: 'addw', digits: 2 } as const;
const PRESET = 'natural-addw-different-arch';
const config = {
  name: 'x',
  seed: 1,
  steps: 1,
  methods: ['ttrl'],
  cohort: { agents: naturalPresetSpecs(PRESET) },
  task: small,
} as unknown as ExperimentConfig;

function hooks(pool?: AxisBuildHooks['pool']) {
  const notes: string[] = [];
  const notices: string[] = [];
  const h: AxisBuildHooks = {
    recipe,
    aborted: () => false,
    note: (m) => notes.push(m),
    notice: (m) => notices.push(m),
    pool,
  };
  return { notes, notices, h };
}

/** A model worker that starts on `engine` and then either answers every build with an error or stops. */
function stub(engine: string, fault: 'error' | 'exit'): HostPort {
  let reply: (r: HostReply) => void = () => {};
  let exit: (reason: string) => void = () => {};
  return {
    post: (m: HostMessage) =>
      setTimeout(() =>
        fault === 'error'
          ? reply({ kind: 'error', id: m.id, message: 'out of memory' })
          : exit('exit code 1'),
      ),
    onMessage: (cb) => {
      reply = cb;
      setTimeout(() => cb({ kind: 'ready', engine }));
    },
    onExit: (cb) => (exit = cb),
    terminate: () => {},
  };
}

const pools: PagePool[] = [];
afterAll(() => pools.forEach((p) => p.close()));

/** The hook of a run with 2 builders, this worker and a pool of 1 from `spawn` (the page's PagePool.builds). */
function pooled(be: Backend, spawn: SpawnModelWorker, notices: string[]): AxisBuildHooks['pool'] {
  const pool = new PagePool(spawn);
  pools.push(pool);
  return (n) => pool.builds(be, 2, n, (m) => notices.push(m));
}

/** The cache keys of the preset's two builds on `be`'s engine. */
const engineKeys = (be: Backend) =>
  naturalPresetSpecs(PRESET).map((s) => engineCacheKey(buildKey(s, small, recipe), engineId(be.info)));

const same = (a: Uint8Array | undefined, b: Uint8Array | undefined) =>
  a !== undefined && b !== undefined && Buffer.from(a).equals(Buffer.from(b));

describe('in-page pretraining in the pool of model workers', () => {
  it('builds two agents in this worker and 1 model worker to the bytes of one worker and of the Node cache', async () => {
    const be = await makeNodeBackend('wasm');
    const one = hooks();
    const r1 = (await resolveAxisAgents(be, config, memoryStore(), one.h))!;
    expect(one.notices).toEqual([
      expect.stringMatching(/^R: .*: pretrained here in .*as build \w+-wasm$/),
      expect.stringMatching(/^D: .*: pretrained here in .*as build \w+-wasm$/),
    ]);

    const two = hooks();
    const spawned: string[] = [];
    two.h.pool = pooled(
      be,
      (engine) => {
        spawned.push(engine);
        return nodePort(engine as 'wasm');
      },
      two.notices,
    );
    const r2 = (await resolveAxisAgents(be, config, memoryStore(), two.h))!;
    expect(spawned).toEqual(['wasm']); // this worker is the other builder
    expect(two.notices[0]).toBe(
      'The 2 base agents to pretrain are built side by side in this worker and 1 model worker (wasm).',
    );
    // each build's rungs run where a builder is free: every notice says where, and the model worker ran some
    const where =
      / as build \w+-wasm \((built in (this worker|model worker 0)|its rungs ran in this worker and model worker 0)\)$/;
    expect(two.notices.slice(1)).toEqual([
      expect.stringMatching(/^R: nat-rope\.s seed 1, plain view: pretrained here in /),
      expect.stringMatching(/^D: nat-deep\.s seed 1, plain view: pretrained here in /),
    ]);
    for (const n of two.notices.slice(1)) expect(n).toMatch(where);
    expect(two.notices.slice(1).some((n) => n.includes('model worker 0'))).toBe(true);
    // every agent's progress reaches the page, rung by rung
    for (const who of ['R: nat-rope.s', 'D: nat-deep.s'])
      expect(
        two.notes.some((n) => n.startsWith(`Pretraining ${who}`) && /rung 2 of 2\): step 2\/2/.test(n)),
      ).toBe(true);
    expect(r2.config).toEqual(r1.config);
    const keys = [...r1.bytes.keys()];
    expect(keys).toHaveLength(2);
    expect([...r2.bytes.keys()]).toEqual(keys);
    for (const k of keys) expect(same(r2.bytes.get(k), r1.bytes.get(k)), k).toBe(true);

    // the Node cache entries of the same engine (wasm): same keys, same bytes
    const dir = mkdtempSync(join(tmpdir(), 'corl-pool-build-'));
    for (const spec of naturalPresetSpecs(PRESET)) {
      const node = await cachedCheckpoint(be, spec, small, { dir, recipe, shippedDir: dir });
      expect(node.key).toMatch(/-wasm$/);
      expect(same(r2.bytes.get(`cache/${node.key}.ckpt`), node.bytes), spec.id).toBe(true);
    }

    // a failure in a worker names the agents of the build, and nothing is stored
    const bad = hooks();
    bad.h.pool = pooled(be, (engine) => stub(engine, 'error'), bad.notices);
    const store = memoryStore();
    await expect(resolveAxisAgents(be, config, store, bad.h)).rejects.toThrow(
      /^could not pretrain D: nat-deep\.s seed 1, plain view: model worker 0: out of memory$/,
    );
    expect(await store.get(keys[1].slice(6, -5))).toBeUndefined();

    // a worker that stops mid-build: that agent is built again here, to the same bytes
    const lost = hooks();
    let k = 0;
    lost.h.pool = pooled(be, (engine) => (k++ === 0 ? stub(engine, 'exit') : nodePort('wasm')), lost.notices);
    const r3 = (await resolveAxisAgents(be, config, memoryStore(), lost.h))!;
    expect(lost.notices).toContainEqual(
      'D: nat-deep.s seed 1, plain view: its model worker stopped (model worker 0 stopped (exit code 1)); pretraining it here instead',
    );
    for (const k of keys) expect(same(r3.bytes.get(k), r1.bytes.get(k)), k).toBe(true);
    be.destroy();
  }, 240_000);

  it("sizes the pool by the builds' rungs: a lone agent's corpus ladder runs on two builders", async () => {
    const be = await makeNodeBackend('wasm');
    const notices: string[] = [];
    const pool = new PagePool((engine) => nodePort(engine as 'wasm'));
    pools.push(pool);
    expect(await pool.builds(be, 4, 1, (m) => notices.push(m))).toBeUndefined(); // 1 build of 1 rung: none
    const p = (await pool.builds(be, 4, 1, (m) => notices.push(m), 2))!;
    expect(p.size).toBe(1); // 2 rungs: this worker and one model worker
    expect(notices).toEqual([
      'The base agent to pretrain is built side by side in this worker and 1 model worker (wasm), rung by rung (2 rungs of its corpus ladder at most).',
    ]);
    be.destroy();
  }, 60_000);

  it("passes a build's notices on: a corpus above the task's pool is named before the build", async () => {
    const be = await makeNodeBackend('wasm');
    const h = hooks();
    h.h.recipe = { ...recipe, corpusLadder: [20, 50_000] };
    await resolveAxisAgents(be, config, memoryStore(), h.h);
    expect(h.notices.slice(0, 2)).toEqual([
      expect.stringMatching(
        /^agent R: corpus\.size 50000 is above the \d+ problems of the task's pretraining pool/,
      ),
      expect.stringMatching(/^agent D: corpus\.size 50000 is above/),
    ]);
    be.destroy();
  }, 60_000);

  it('stops its workers when the run is stopped mid-build; the next run starts new ones', async () => {
    const be = await makeNodeBackend('wasm');
    const ports: HostPort[] = [];
    const pool = new PagePool((engine) => {
      const p = nodePort(engine as 'wasm');
      ports.push(p);
      return p;
    });
    pools.push(pool);
    let stop = false;
    const h = hooks((n) => pool.builds(be, 2, n, () => {}));
    h.h.aborted = () => stop;
    h.h.note = (m) => void (m.includes(': step ') && (stop = true)); // the first progress line stops the run
    const store = memoryStore();
    expect(await resolveAxisAgents(be, config, store, h.h)).toBeNull();
    expect(pool.broken).toBe(true);
    expect(await store.get(engineKeys(be)[0])).toBeUndefined(); // nothing half-built is stored
    const again = hooks((n) => pool.builds(be, 2, n, () => {}));
    const r = await resolveAxisAgents(be, config, store, again.h);
    expect(ports).toHaveLength(2); // one model worker a run: this worker is the other builder
    expect(r!.bytes.size).toBe(2);
    be.destroy();
  }, 240_000);
});
