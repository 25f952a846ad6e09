// The cohort in parallel (issue 20, build step 1): a short paper-demo run gives byte-identical metric JSON
// with every model on the coordinator's backend (today's single-worker run) and with its models spread over
// 2 worker threads; a snapshot, restore and a diverged step (rolled back on every worker) behave the same.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeNodeBackend } from '../../engine/wasm/nodeBackend';
import { CohortTrainer, TrainingDivergedError } from '../trainer';
import { metrics, setup } from './poolRun.suite';
import { makeTask } from '../../tasks';
import { startNodePool, workersArg } from './nodePool';
import type { ModelPool } from './poolModels';
import { fingerprint, type TrainerSnapshot } from '../snapshot';

/** A snapshot with its tensors as fingerprints (a mismatch then prints a short diff). */
const digest = (s: TrainerSnapshot) => ({
  ...s,
  agents: s.agents.map((a) => ({
    ...a,
    params: fingerprint(a.params),
    m: fingerprint(a.m),
    v: fingerprint(a.v),
  })),
});

describe('the cohort in a pool of worker threads', () => {
  let pool: ModelPool;
  beforeAll(async () => {
    pool = await startNodePool(2, 'wasm');
  }, 60_000);
  afterAll(() => pool?.close());

  it('gives byte-identical metric JSON with 1 and 2 workers (paper-demo, 3 steps)', async () => {
    const one = await metrics();
    const two = await metrics(pool.factory);
    expect(two).toBe(one);
  }, 120_000);

  it('restores a snapshot into the workers and rolls a diverged step back on every worker', async () => {
    const { cfg, loader } = await setup();
    const be = await makeNodeBackend('wasm');
    const opts = () => ({
      method: 'ttrl' as const,
      seed: cfg.seed,
      task: makeTask(cfg.task!),
      train: { ...cfg.train, batchPrompts: 4, beta: 0.01 }, // the KL to the frozen base enters the loss
      eval: cfg.eval,
      faultInjection: { agent: 'B', step: 3 },
    });
    const local = new CohortTrainer(be, await loader.load(be), opts());
    const pooled = new CohortTrainer(be, await loader.load(be), opts(), pool.factory);
    const resumed = new CohortTrainer(be, await loader.load(be), opts(), pool.factory);
    try {
      for (const tr of [local, pooled]) for (let s = 0; s < 2; s++) await tr.step();
      const snap = await pooled.snapshot();
      expect(digest(snap)).toEqual(digest(await local.snapshot()));
      await resumed.restore(snap);
      // step 3 writes NaN into agent B's gradients: the step throws and every agent is put back
      for (const tr of [local, pooled, resumed])
        await expect(tr.step()).rejects.toThrow(TrainingDivergedError);
      expect(digest(await resumed.snapshot())).toEqual(digest(snap));
      expect(digest(await pooled.snapshot())).toEqual(digest(snap));
      for (const tr of [local, pooled, resumed]) delete tr.opts.faultInjection;
      const [a, b, r] = [await local.step(), await pooled.step(), await resumed.step()];
      expect(JSON.stringify({ ...b, timing: 0 })).toBe(JSON.stringify({ ...a, timing: 0 }));
      // the restored run's KL reference is still the base, not the restored parameters
      expect(JSON.stringify({ ...r, timing: 0 })).toBe(JSON.stringify({ ...a, timing: 0 }));
      // the trainer's own agents are refreshed from the workers before an evaluation
      expect(await pooled.evaluate(false)).toEqual({
        ...(await local.evaluate(false)),
        seconds: expect.any(Number),
      });
    } finally {
      for (const tr of [local, pooled, resumed]) tr.dispose();
    }
  }, 120_000);

  it('refuses a worker count outside 1..64, saying what to pass', () => {
    expect(workersArg('2')).toBe(2);
    for (const bad of ['0', '65', '1.5', 'two', '-1'])
      expect(() => workersArg(bad)).toThrow(/--workers must be a whole number of workers from 1 to 64/);
  });
});
