// The page's pool of model workers through the training worker's controller (CPU engine, shipped
// paper-demo checkpoints; the model workers are worker threads here, Web Workers in the page): a run on
// 2 model workers posts the same step and evaluation records as on one; a model worker that stops mid-run is
// replaced and the run reloaded from the kept snapshot, no step lost or repeated; where workers cannot
// start the run keeps every model in the training worker and says so (the default pool size:
// src/formats/runSettings.test.ts).
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_EVAL, DEFAULT_TRAIN, type ExperimentConfig } from '../rl/config';
import { nodePort } from '../rl/pool/nodePool';
import type { HostPort } from '../rl/pool/protocol';
import { controllerHarness, evalRecords, stepRecords } from './controllerHarness';
import type { SpawnModelWorker } from './pagePool';
import type { TrainEvent } from './protocol';

const config: ExperimentConfig = {
  name: 't',
  seed: 4,
  steps: 6,
  methods: ['co-rl', 'ttrl'],
  cohort: { preset: 'paper-demo' },
  task: null,
  train: { ...DEFAULT_TRAIN, batchPrompts: 2, samples: 2, lr: 1e-3 },
  eval: { ...DEFAULT_EVAL, every: 3, problems: 4, ensembleSamples: 2 },
};

const steps = stepRecords;
const evals = evalRecords;
const done = (e: TrainEvent) => e.type === 'status' && (e.phase === 'done' || e.phase === 'error');
const notices = (ev: TrainEvent[]) => ev.flatMap((e) => (e.type === 'notice' ? [e.message] : []));

/** Model workers as worker threads (the page's engine id 'cpu' is the Node engine 'cpu'), each kept. */
function threads(): { spawn: SpawnModelWorker; ports: HostPort[] } {
  const ports: HostPort[] = [];
  const spawn: SpawnModelWorker = (engine) => {
    if (engine !== 'cpu') throw new Error(`this test runs the cpu engine, got ${engine}`);
    const p = nodePort('cpu');
    ports.push(p);
    return p;
  };
  return { spawn, ports };
}

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c();
});

async function run(workers: number, spawn?: SpawnModelWorker, delayMs = 0) {
  const h = controllerHarness({ spawnModelWorker: spawn });
  closers.push(() => h.c.close());
  await h.c.command({ type: 'start', config, backend: 'cpu', delayMs, snapshotEvery: 2, workers });
  return h;
}

describe('the page pool of model workers', () => {
  it('posts the same records on 2 model workers as on one, and a stopped worker costs no step', async () => {
    const one = await run(1);
    await one.until(done);
    expect(one.events.find(done)).toMatchObject({ phase: 'done', step: 6 });
    expect(notices(one.events).join()).not.toMatch(/model workers/);

    const t = threads();
    const two = await run(2, t.spawn);
    await two.until(done);
    expect(two.events.find(done)).toMatchObject({ phase: 'done', step: 6 });
    expect(notices(two.events)).toContain('The 4 models of each lock step train in 2 model workers (cpu).');
    expect(t.ports).toHaveLength(2);
    expect(steps(two.events)).toEqual(steps(one.events));
    expect(evals(two.events)).toEqual(evals(one.events));

    // a model worker stops after step 3: new workers, the run reloaded from the kept snapshot
    const k = threads();
    const killed = await run(2, k.spawn, 30);
    await killed.until((e) => e.type === 'step' && e.record.step === 3);
    await killed.c.command({ type: 'debugKillModelWorker' }); // the test hook stops the last one (window.__corl.killModelWorker)
    await killed.until(done);
    expect(killed.events.find(done)).toMatchObject({ phase: 'done', step: 6 });
    const faults = killed.events.flatMap((e) => (e.type === 'fault' ? [e] : []));
    expect(faults.map((f) => f.kind)).toEqual(['deviceLost', 'recovered']);
    expect(faults[1].message).toMatch(
      /A model worker stopped .*recovered: every agent was reloaded from step \d into new model workers/,
    );
    expect(k.ports.length).toBe(4); // two new workers
    expect(steps(killed.events).map((s) => s.step)).toEqual([1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6]);
    expect(steps(killed.events)).toEqual(steps(one.events));
    expect(evals(killed.events)).toEqual(evals(one.events));
  }, 180_000);

  it('keeps every model in the training worker, with a notice, where workers cannot start', async () => {
    const h = await run(2, () => {
      throw new Error('Worker is not defined');
    });
    await h.until(done);
    expect(h.events.find(done)).toMatchObject({ phase: 'done', step: 6 });
    expect(notices(h.events)).toContain(
      'The 2 model workers could not be started (Worker is not defined); every model trains in one worker (same results, slower).',
    );
    await h.c.command({ type: 'debugKillModelWorker' });
    expect(h.events.at(-1)).toMatchObject({
      type: 'fault',
      kind: 'ignored',
      message: expect.stringMatching(/^debugKillModelWorker: the run has no model workers/),
    });
  }, 120_000);

  it('refuses a start command whose pool size is outside 1..64', async () => {
    const h = controllerHarness();
    closers.push(() => h.c.close());
    for (const workers of [0, 65, 1.5])
      await expect(
        h.c.command({ type: 'start', config, backend: 'cpu', delayMs: 0, workers }),
      ).rejects.toThrow(/the pool size \(workers\) must be a whole number of workers from 1 to 64/);
  });
});
