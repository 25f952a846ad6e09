// Tests for the training worker's controller on the CPU backend with the shipped checkpoints: lock step,
// the shared step-0 evaluation, pause / step-once / resume, reset to the same first step, live changes.
import { afterEach, describe, expect, it } from 'vitest';
import { nodeReader } from '../cohort/nodeFiles';
import { CpuBackend } from '../engine/cpu/cpuBackend';
import { DEFAULT_EVAL, DEFAULT_TRAIN, type ExperimentConfig } from '../rl/config';
import type { StepRecord } from '../rl/records';
import type { TrainEvent } from './protocol';
import { controllerHarness } from './controllerHarness';
import { TrainController } from './trainController';
import { BackendSlot } from './backendSlot';

const config: ExperimentConfig = {
  name: 't',
  seed: 3,
  steps: 3,
  methods: ['co-rl', 'ttrl'],
  cohort: { preset: 'paper-demo' },
  task: null,
  train: { ...DEFAULT_TRAIN, batchPrompts: 2, samples: 2 },
  eval: { ...DEFAULT_EVAL, every: 1, problems: 4, ensembleSamples: 2 },
};

function harness() {
  const { c, events, untilAt: until } = controllerHarness();
  const statusIs = (phase: string, step: number) => (e: TrainEvent) =>
    e.type === 'status' && e.phase === phase && e.step === step;
  return { c, events, until, statusIs };
}

const steps = (ev: TrainEvent[]): StepRecord[] => ev.flatMap((e) => (e.type === 'step' ? [e.record] : []));
const noTiming = (r: StepRecord) => ({ ...r, timing: null });

let close: (() => Promise<void>) | null = null;
afterEach(async () => {
  await close?.();
  close = null;
});

describe('TrainController', () => {
  it('steps once when paused, runs to the end, resets to the same first step', async () => {
    const { c, events, until, statusIs } = harness();
    close = () => c.close();
    await c.command({ type: 'start', config, backend: 'cpu', delayMs: 0, paused: true });
    let at = await until(statusIs('paused', 0), 0);
    expect(events[0]).toMatchObject({ type: 'run', runId: 1 });
    expect(events.find((e) => e.type === 'engine')).toMatchObject({ backend: 'cpu', fallbackReason: 'test' });
    const base = events.filter((e) => e.type === 'eval');
    expect(base.map((e) => e.type === 'eval' && e.record.method)).toEqual(['co-rl', 'ttrl']);
    if (base[0].type === 'eval' && base[1].type === 'eval')
      expect(base[1].record.agents).toEqual(base[0].record.agents);
    expect(steps(events)).toHaveLength(0);

    await c.command({ type: 'step' });
    const mark = at;
    at = await until(statusIs('paused', 1), at);
    const one = steps(events.slice(mark, at));
    expect(one.map((r) => [r.method, r.step])).toEqual([
      ['co-rl', 1],
      ['ttrl', 1],
    ]);
    // lock step from the same base agents: identical rollouts, so identical entropy and own votes
    expect(one[0].agents.map((a) => a.meanEntropy)).toEqual(one[1].agents.map((a) => a.meanEntropy));
    expect(one[0].agents.map((a) => a.pseudoLabelAccuracy)).toEqual(
      one[1].agents.map((a) => a.pseudoLabelAccuracy),
    );
    expect(events.slice(mark, at).filter((e) => e.type === 'eval')).toHaveLength(2); // eval every step

    await c.command({ type: 'live', params: { lr: 3e-4, temperature: 20 } });
    expect(events.at(-1)).toEqual({ type: 'live', runId: 1, params: { lr: 3e-4 } }); // 20 is out of range
    await c.command({ type: 'resume' });
    at = await until((e) => e.type === 'status' && e.phase === 'done', at);
    const all = steps(events);
    expect(all.map((r) => r.step)).toEqual([1, 1, 2, 2, 3, 3]);
    expect(all.slice(2).every((r) => r.agents.every((a) => a.lr === 3e-4))).toBe(true);

    await c.command({ type: 'config' as never }); // unknown commands are ignored
    await c.command({ type: 'reset' });
    at = await until(statusIs('paused', 0), at);
    expect(events.find((e) => e.type === 'run' && e.runId === 2)).toBeTruthy();
    const mark2 = at;
    await c.command({ type: 'step' });
    at = await until(statusIs('paused', 1), at);
    const again = steps(events.slice(mark2, at));
    // the reset run keeps the live learning rate, so the first step's rollouts are the same as before
    expect(again.map((r) => r.agents.map((a) => a.rewardMean))).toEqual(
      one.map((r) => r.agents.map((a) => a.rewardMean)),
    );
    expect(again.map((r) => noTiming(r).agents.map((a) => ({ ...a, lr: 0 })))).toEqual(
      one.map((r) => noTiming(r).agents.map((a) => ({ ...a, lr: 0 }))),
    );
  });

  it('reports an invalid config with every problem and no records', async () => {
    const { c, events, until } = harness();
    close = () => c.close();
    const bad = { ...config, methods: ['co-rl'], cohort: { preset: 'nope' } } as ExperimentConfig;
    await c.command({ type: 'start', config: bad, backend: 'cpu', delayMs: 0 });
    await until((e) => e.type === 'error', 0);
    const err = events.find((e) => e.type === 'error');
    expect(err && err.type === 'error' && err.message).toMatch(/unknown preset "nope"/);
    expect(events.some((e) => e.type === 'step' || e.type === 'eval')).toBe(false);
  });

  it('pretrains the base agents in the worker instead of reading the shipped checkpoints', async () => {
    const reads: string[] = [];
    const events: TrainEvent[] = [];
    const c = new TrainController({
      post: (e) => events.push(structuredClone(e)),
      reader: () => (path) => {
        reads.push(path);
        return Promise.reject(new Error(`no shipped files in this test (${path})`));
      },
      selectBackend: async () => ({ backend: new CpuBackend(), fallbackReason: 'test' }),
    });
    close = () => c.close();
    const tiny = { maxSteps: 6, evalEvery: 3, valSize: 16 };
    await c.command({
      type: 'start',
      config: { ...config, steps: 1 },
      backend: 'cpu',
      delayMs: 0,
      pretrain: { recipe: tiny },
    });
    for (
      let i = 0;
      i < 4000 && !events.some((e) => e.type === 'status' && (e.phase === 'done' || e.phase === 'error'));
      i++
    ) {
      await new Promise((r) => setTimeout(r, 5));
    }
    const errors = events.filter((e) => e.type === 'error');
    expect(errors).toEqual([]);
    expect(reads).toEqual([]); // nothing was fetched: the pretrained bytes stood in for every checkpoint
    expect(events.some((e) => e.type === 'status' && e.message.startsWith('Pretraining agent A'))).toBe(true);
    // the progress bar's share of the pretraining: reported, within [0, 1], never going back, past agent A
    const work = events.flatMap((e) => (e.type === 'status' && e.work !== undefined ? [e.work] : []));
    expect(work.length).toBeGreaterThan(1);
    expect(work.every((w, i) => w >= 0 && w <= 1 && (i === 0 || w >= work[i - 1]))).toBe(true);
    expect(work[work.length - 1]).toBeGreaterThan(0.5);
    expect(steps(events).map((r) => r.method)).toEqual(['co-rl', 'ttrl']);
  });

  it('runs a composed cohort: one shipped agent, one pretrained in another view, one imported file', async () => {
    const reads: string[] = [];
    const events: TrainEvent[] = [];
    const shippedRead = nodeReader();
    const c = new TrainController({
      post: (e) => events.push(structuredClone(e)),
      reader: () => (path) => {
        reads.push(path);
        return shippedRead(path);
      },
      selectBackend: async () => ({ backend: new CpuBackend(), fallbackReason: 'test' }),
    });
    close = () => c.close();
    const shipped = 'checkpoints/add-d2/lp-nocarry.s.s1.ckpt';
    const imported = 'imported/0123abcd.ckpt';
    const importedBytes = await shippedRead('checkpoints/add-d2/rope-carry.s.s1.ckpt');
    const custom: ExperimentConfig = {
      ...config,
      steps: 1,
      task: { kind: 'add', digits: 2 },
      cohort: {
        agents: [
          { id: 'A', family: 'lp-nocarry', size: 's', seed: 1, view: 'plain', checkpoint: shipped },
          // no checkpoint: built by its axes into the worker's cache (src/worker/axisBuilds.ts)
          { id: 'B', family: 'rope-carry', size: 's', seed: 5, view: 'words' },
          { id: 'C', family: 'rope-carry', size: 's', seed: 1, view: 'plain', checkpoint: imported },
        ],
      },
    };
    const tiny = { maxSteps: 6, evalEvery: 3, valSize: 16 };
    await c.command({
      type: 'start',
      config: custom,
      backend: 'cpu',
      delayMs: 0,
      pretrain: { recipe: tiny, paths: [] },
      checkpoints: { [imported]: importedBytes.slice().buffer },
    });
    for (
      let i = 0;
      i < 4000 && !events.some((e) => e.type === 'status' && (e.phase === 'done' || e.phase === 'error'));
      i++
    ) {
      await new Promise((r) => setTimeout(r, 5));
    }
    expect(events.filter((e) => e.type === 'error')).toEqual([]);
    // B was pretrained and C came with the command; B's build was first looked up among the builds shipped
    // with the app (checkpoints/cache/KEY-wasm.ckpt and .sum), where none ships: a miss, nothing read from it
    const lookups = [...new Set(reads)].filter((p) => p.startsWith('checkpoints/cache/'));
    expect(lookups).toEqual([expect.stringMatching(/-wasm\.ckpt$/), expect.stringMatching(/-wasm\.sum$/)]);
    expect([...new Set(reads)].filter((p) => !lookups.includes(p))).toEqual([shipped]);
    const notes = events.flatMap((e) => (e.type === 'status' ? [e.message] : []));
    expect(
      notes.some((m) => m.startsWith('Pretraining B: rope-carry.s seed 5, words view (build 1 of 1)')),
    ).toBe(true);
    expect(notes.some((m) => m.startsWith('Pretraining A') || m.startsWith('Pretraining C'))).toBe(false);
    expect(events.flatMap((e) => (e.type === 'notice' ? [e.message] : []))).toEqual([
      expect.stringMatching(
        /^B: rope-carry\.s seed 5, words view: pretrained here .* stored in this worker's memory/,
      ),
    ]);
    const recs = steps(events);
    expect(recs.map((r) => r.method)).toEqual(['co-rl', 'ttrl']);
    expect(recs[0].agents.map((a) => a.agent)).toEqual(['A', 'B', 'C']);

    // a reset reuses the pretrained agent (no second pretraining) and the imported bytes
    const mark = events.length;
    await c.command({ type: 'reset' });
    for (
      let i = 0;
      i < 4000 && !events.slice(mark).some((e) => e.type === 'status' && e.phase === 'paused');
      i++
    ) {
      await new Promise((r) => setTimeout(r, 5));
    }
    expect(events.slice(mark).filter((e) => e.type === 'error')).toEqual([]);
    expect(events.slice(mark).some((e) => e.type === 'status' && e.message.startsWith('Pretraining'))).toBe(
      false,
    );
  });

  it('keeps a backend only for runs it serves: auto after an explicit CPU choice looks for a GPU again', () => {
    expect(BackendSlot.reuses('auto', 'webgpu', 'auto')).toBe(true);
    expect(BackendSlot.reuses('auto', 'cpu', 'auto')).toBe(true); // auto already fell back: no GPU to find
    expect(BackendSlot.reuses('cpu', 'cpu', 'auto')).toBe(false); // the bug: stayed on the CPU
    expect(BackendSlot.reuses('cpu', 'cpu', 'cpu')).toBe(true);
    expect(BackendSlot.reuses('auto', 'webgpu', 'cpu')).toBe(false);
    expect(BackendSlot.reuses('webgpu', 'webgpu', 'auto')).toBe(true);
  });
});
