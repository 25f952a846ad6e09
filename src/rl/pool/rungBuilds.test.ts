// Rungs in parallel (./poolBuilds.ts, ./rungQueue.ts): a corpus ladder's rungs run on this thread and a model
// worker side by side, ahead of need, and the builds' bytes are those of pretrainAgent running them in turn,
// whether the ladder stops at its first rung (the rung run ahead is cancelled) or climbs to its end; a rung
// cancelled in a model worker stops at its next step and the worker serves the next request.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { pretrainSpecOf } from '../../cohort/axes';
import { naturalPresetSpecs } from '../../cohort/naturalPresets';
import { pretrainAgent } from '../../cohort/pretrain';
import { LADDER_RECIPES, LADDER_TASK } from '../../cohort/ladder.fixture';
import type { PretrainRecipe } from '../../cohort/familySpec';
import type { Backend } from '../../engine/backend';
import { makeNodeBackend } from '../../engine/wasm/nodeBackend';
import { startNodePool } from './nodePool';
import { ModelPool } from './poolModels';
import type { HostPort } from './protocol';
import { CpuBackend } from '../../engine/cpu/cpuBackend';
import { buildAgents, builtWhere, type BuildJob } from './poolBuilds';

const task = LADDER_TASK;
const { first, none } = LADDER_RECIPES;
const specs = naturalPresetSpecs('natural-addw-different-arch').map(pretrainSpecOf);
const jobs = (recipe: Partial<PretrainRecipe>, n = specs.length): BuildJob[] =>
  specs.slice(0, n).map((spec) => ({ who: spec.id, spec, task, recipe, cacheKey: `k-${spec.id}` }));
const same = (a: Uint8Array, b: Uint8Array) => Buffer.from(a).equals(Buffer.from(b));

describe('rungs in parallel', () => {
  let be: Backend;
  let pool: ModelPool;
  beforeAll(async () => {
    be = await makeNodeBackend('wasm');
    pool = await startNodePool(1, 'wasm');
  }, 60_000);
  afterAll(() => {
    pool?.close();
    be?.destroy();
  });

  for (const [name, recipe, rungs] of [
    ['stops at its first rung', first, 1],
    ['climbs to its last rung', none, 3],
  ] as const)
    it(`gives the bytes of the rungs run in turn when the ladder ${name}`, async () => {
      const turn = await Promise.all(
        jobs(recipe).map(async (j) => {
          const r = await pretrainAgent(be, j.spec, task, { recipe, cacheKey: j.cacheKey });
          r.agent.model.free();
          return r;
        }),
      );
      const rungsSeen = new Set<string>();
      const built = (await buildAgents(jobs(recipe), {
        backend: be,
        pool,
        onProgress: (j, p) => void (p.rung && rungsSeen.add(`${j}:${p.rung.index}`)),
      }))!;
      for (const [i, b] of built.entries()) {
        expect(same(b.bytes, turn[i].bytes), specs[i].id).toBe(true);
        expect(b.meta.ladder).toHaveLength(rungs);
        expect(b.ran).toHaveLength(rungs);
      }
      expect(built.flatMap((b) => b.ran)).toContain(0); // the model worker ran rungs
      if (rungs === 3) expect(rungsSeen.size).toBe(6);
    }, 120_000);

  it('gives the bytes of pretrainAgent with no pool too (the scheduler on this thread alone)', async () => {
    for (const recipe of [first, none]) {
      const built = (await buildAgents(jobs(recipe), { backend: be }))!;
      for (const [i, j] of jobs(recipe).entries()) {
        const r = await pretrainAgent(be, j.spec, task, { recipe, cacheKey: j.cacheKey });
        r.agent.model.free();
        expect(same(built[i].bytes, r.bytes), j.who).toBe(true);
        expect(built[i].ran.every((w) => w === null)).toBe(true);
      }
    }
  }, 120_000);

  it('runs a lone build rung by rung on both builders, and drops the rung run ahead of a ladder that stops', async () => {
    const built = (await buildAgents(jobs(none, 1), { backend: be, pool }))!;
    expect(new Set(built[0].ran)).toEqual(new Set([null, 0]));
    expect(builtWhere(built[0].ran)).toBe('its rungs ran in this worker and model worker 0');

    const asked = vi.spyOn(pool, 'rung');
    const stops = (await buildAgents(jobs(first, 1), { backend: be, pool }))!;
    // rung 1 was sent to the model worker ahead of need, while this thread ran rung 0
    expect(asked.mock.calls.map((c) => c[1].index)).toEqual([1]);
    asked.mockRestore();
    const turn = await pretrainAgent(be, specs[0], task, { recipe: first, cacheKey: 'k-R' });
    turn.agent.model.free();
    expect(same(stops[0].bytes, turn.bytes)).toBe(true);
    expect(stops[0].meta.ladder).toHaveLength(1);
    expect(stops[0].ran).toEqual([null]);
  }, 120_000);

  it('stops a cancelled rung in a model worker at its next step; the worker serves the next request', async () => {
    const long = { ...none, maxSteps: 100_000, evalEvery: 1 };
    const t0 = performance.now();
    const task1 = pool.rung(0, { spec: specs[0], task, recipe: long, index: 0 }, () => task1.cancel());
    await expect(task1.done).rejects.toThrow(/rung 0 of agent R cancelled/);
    expect(performance.now() - t0).toBeLessThan(60_000); // not 100,000 steps
    const next = await pool.rung(0, { spec: specs[0], task, recipe: none, index: 1 }).done;
    expect(next.index).toBe(1);
    expect(next.size).toBe(30);
  }, 120_000);
});

describe('a worker that stops when this thread runs another engine', () => {
  it('starts the build again here from its first rung: the bytes of this engine alone', async () => {
    let exit: (reason: string) => void = () => {};
    const dies: HostPort = {
      post: () => setTimeout(() => exit('exit code 1')),
      onMessage: (cb) => void setTimeout(() => cb({ kind: 'ready', engine: 'wasm' })),
      onExit: (cb) => (exit = cb),
      terminate: () => {},
    };
    const pool = await ModelPool.start([dies]);
    const cpu = new CpuBackend();
    const retries: string[] = [];
    const built = (await buildAgents(jobs(none, 1), {
      backend: cpu,
      pool,
      onRetry: (j, why, where) => retries.push(`${j}: ${why}; ${where}`),
    }))!;
    expect(retries).toEqual(['0: model worker 0 stopped (exit code 1); here, from its first rung']);
    const turn = await pretrainAgent(cpu, specs[0], task, { recipe: none, cacheKey: 'k-R' });
    turn.agent.model.free();
    expect(same(built[0].bytes, turn.bytes)).toBe(true);
    expect(built[0].ran).toEqual([null, null, null]);
    pool.close();
  }, 60_000);
});

describe('builtWhere', () => {
  it('names where a build ran', () => {
    expect(builtWhere([null, null])).toBe('built in this worker');
    expect(builtWhere([1])).toBe('built in model worker 1');
    expect(builtWhere([1, null, 0, 1])).toBe(
      'its rungs ran in this worker, model worker 0 and model worker 1',
    );
  });
});
