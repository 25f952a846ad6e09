// Snapshots through the training worker's controller (CPU backend, shipped paper-demo checkpoints): a run
// stopped after a snapshot and started again in a new controller with `resume` gives exactly the step and
// evaluation records of an uninterrupted run, with no gap and no duplicate; bad snapshot bytes are refused
// with a clear message; exportCheckpoints gives one loadable CORLCKPT file per method per agent.
import { afterEach, describe, expect, it } from 'vitest';
import { nodeReader } from '../cohort/nodeFiles';
import { loadCheckpoint } from '../model/checkpoint';
import { DEFAULT_EVAL, DEFAULT_TRAIN, type ExperimentConfig } from '../rl/config';
import type { EvalRecord, StepRecord } from '../rl/records';
import type { TrainEvent } from './protocol';
import { controllerHarness } from './controllerHarness';

const config: ExperimentConfig = {
  name: 't',
  seed: 4,
  steps: 5,
  methods: ['co-rl', 'ttrl'],
  cohort: { preset: 'paper-demo' },
  task: null,
  train: { ...DEFAULT_TRAIN, batchPrompts: 2, samples: 2, lr: 1e-3 },
  eval: { ...DEFAULT_EVAL, every: 2, problems: 4, ensembleSamples: 2 },
};

const harness = () => controllerHarness();

const steps = (ev: TrainEvent[]): StepRecord[] =>
  ev.flatMap((e) =>
    e.type === 'step' ? [{ ...e.record, timing: { rollout: 0, forward: 0, update: 0, total: 0 } }] : [],
  );
const evals = (ev: TrainEvent[]): EvalRecord[] =>
  ev.flatMap((e) => (e.type === 'eval' ? [{ ...e.record, seconds: 0 }] : []));
const done = (e: TrainEvent) => e.type === 'status' && (e.phase === 'done' || e.phase === 'error');

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c();
});

describe('TrainController snapshots and resume', () => {
  it('a run resumed from a snapshot in a new worker equals the uninterrupted run (no gap, no duplicate)', async () => {
    const a = harness();
    closers.push(() => a.c.close());
    await a.c.command({ type: 'start', config, backend: 'cpu', delayMs: 0, snapshotEvery: 2 });
    await a.until(done);
    expect(a.events.find(done)).toMatchObject({ phase: 'done', step: 5 });
    const snaps = a.events.flatMap((e) => (e.type === 'snapshot' ? [e] : []));
    // step 0 after the base evaluation, every 2 steps, and at the end
    expect(snaps.map((e) => [e.step, e.phase])).toEqual([
      [0, 'running'],
      [2, 'running'],
      [4, 'running'],
      [5, 'done'],
    ]);
    expect(String.fromCharCode(...new Uint8Array(snaps[1].bytes).subarray(0, 8))).toBe('CORLSNAP');

    // a second worker: paused at the start, one step at a time; stop it after the step-2 snapshot
    const b = harness();
    closers.push(() => b.c.close());
    await b.c.command({ type: 'start', config, backend: 'cpu', delayMs: 0, paused: true, snapshotEvery: 2 });
    await b.until((e) => e.type === 'status' && e.phase === 'paused');
    await b.c.command({ type: 'step' });
    await b.until((e) => e.type === 'snapshot' && e.step === 1 && e.phase === 'paused'); // a pause snapshots too
    await b.c.command({ type: 'resume' });
    const at2 = await b.until((e) => e.type === 'snapshot' && e.step === 2);
    await b.c.close();
    closers.pop();
    const snap = at2.type === 'snapshot' ? at2 : null;
    // what the page keeps: the records up to the snapshot's step
    const kept = b.events.slice(0, b.events.indexOf(at2));

    const r = harness();
    closers.push(() => r.c.close());
    await r.c.command({
      type: 'start',
      config,
      backend: 'cpu',
      delayMs: 0,
      snapshotEvery: 2,
      resume: { step: 2, snapshot: snap!.bytes },
    });
    await r.until(done);
    expect(r.events[0]).toMatchObject({ type: 'run', resumeFrom: 2 });
    expect(r.events.find(done)).toMatchObject({ phase: 'done', step: 5 });
    expect(r.events.filter((e) => e.type === 'status').every((e) => e.type === 'status' && e.step >= 2)).toBe(
      true,
    );
    expect(evals(r.events).map((e) => e.step)).toEqual([4, 4, 5, 5]); // no second base evaluation
    expect(r.events.flatMap((e) => (e.type === 'snapshot' ? [e.step] : []))).toEqual([4, 5]);
    const joinedSteps = [...steps(kept), ...steps(r.events)];
    expect(joinedSteps.map((s) => s.step)).toEqual([1, 1, 2, 2, 3, 3, 4, 4, 5, 5]);
    expect(joinedSteps).toEqual(steps(a.events));
    expect([...evals(kept), ...evals(r.events)]).toEqual(evals(a.events));
  }, 120_000);

  it('refuses snapshot bytes that do not fit the run, with a clear message', async () => {
    const h = harness();
    closers.push(() => h.c.close());
    await h.c.command({ type: 'start', config, backend: 'cpu', delayMs: 0, paused: true, snapshotEvery: 0 });
    const s0 = await h.until((e) => e.type === 'snapshot');
    const bytes = s0.type === 'snapshot' ? s0.bytes : new ArrayBuffer(0);
    const refused = async (
      resume: { step: number; snapshot: ArrayBuffer },
      other: Partial<ExperimentConfig>,
      re: RegExp,
    ) => {
      const r = harness();
      closers.push(() => r.c.close());
      await r.c.command({
        type: 'start',
        config: { ...config, ...other },
        backend: 'cpu',
        delayMs: 0,
        resume,
      });
      await r.until(done);
      const err = r.events.find((e) => e.type === 'error');
      expect(err?.type === 'error' && err.message).toMatch(re);
      expect(r.events.some((e) => e.type === 'step')).toBe(false);
    };
    await refused(
      { step: 0, snapshot: new TextEncoder().encode('{"not":"a snapshot"}').buffer as ArrayBuffer },
      {},
      /not a usable trainer snapshot: it starts with/,
    );
    await refused({ step: 3, snapshot: bytes }, {}, /it holds step 0, the saved run says step 3/);
    await refused(
      { step: 0, snapshot: bytes },
      { methods: ['ttrl', 'co-rl'] },
      /it holds methods \[co-rl, ttrl\], this run trains \[ttrl, co-rl\]/,
    );
    await refused({ step: 0, snapshot: bytes }, { seed: 5 }, /taken with seed 4, this run uses seed 5/);
  }, 120_000);

  it('exports one CORLCKPT file per method per agent, named by method, agent and step', async () => {
    const h = harness();
    closers.push(() => h.c.close());
    await h.c.command({ type: 'exportCheckpoints' });
    expect(h.events.at(-1)).toMatchObject({
      type: 'checkpoints',
      files: [],
      message: 'no run is loaded: start a run first',
    });
    await h.c.command({
      type: 'start',
      config: { ...config, train: { ...config.train, batchPrompts: 4, samples: 4 } },
      backend: 'cpu',
      delayMs: 0,
      paused: true,
    });
    await h.until((e) => e.type === 'status' && e.phase === 'paused');
    await h.c.command({ type: 'step' });
    await h.until((e) => e.type === 'status' && e.phase === 'paused' && e.step === 1);
    await h.c.command({ type: 'exportCheckpoints' });
    const ev = await h.until((e) => e.type === 'checkpoints' && e.files.length > 0);
    if (ev.type !== 'checkpoints') throw new Error('unreachable');
    expect(ev.step).toBe(1);
    expect(ev.files.map((f) => f.name)).toEqual([
      'co-rl-A-step1.ckpt',
      'co-rl-B-step1.ckpt',
      'ttrl-A-step1.ckpt',
      'ttrl-B-step1.ckpt',
    ]);
    for (const [i, f] of ev.files.entries()) {
      const ck = loadCheckpoint(new Uint8Array(f.bytes));
      expect(ck.meta).toMatchObject({
        format: 'co-rl-trained-agent',
        method: f.method,
        step: 1,
        seed: 4,
        agent: { id: f.agent },
      });
      // an agent that got a gradient at step 1 differs from its base checkpoint; one that did not equals it
      const rec = steps(h.events)
        .find((r) => r.method === f.method)!
        .agents.find((a) => a.agent === f.agent)!;
      const base = loadCheckpoint(
        new Uint8Array(await nodeReader()((ck.meta.agent as { checkpoint: string }).checkpoint)),
      );
      const changed = [...ck.params].some(([name, t]) => t.some((x, j) => x !== base.params.get(name)![j]));
      expect(changed, `file ${i} ${f.name}, grad norm ${rec.gradNorm}`).toBe(rec.gradNorm > 0);
    }
    expect(steps(h.events).some((r) => r.agents.some((a) => a.gradNorm > 0))).toBe(true);
  }, 120_000);
});
