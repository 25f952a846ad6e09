// Faults through the training worker's controller (CPU backend, shipped paper-demo checkpoints: two small
// agents A and B): a NaN written into agent B's gradient pauses the run with a message naming the method,
// agent, step and tensor, rolls every agent of every method back to the lock step before (bit for bit),
// keeps the records before the fault and posts none of the faulty step; a lost device (a CPU backend that
// fakes WebGPU's device.lost) is recreated and the run continues with every record exactly once.
import { afterEach, describe, expect, it } from 'vitest';
import { nodeReader } from '../cohort/nodeFiles';
import type { Tensor } from '../engine/tensor';
import { CpuBackend } from '../engine/cpu/cpuBackend';
import { loadCheckpoint } from '../model/checkpoint';
import { paramLayout } from '../model/params';
import { DEFAULT_EVAL, DEFAULT_TRAIN, type ExperimentConfig } from '../rl/config';
import type { EvalRecord, StepRecord } from '../rl/records';
import { decodeSnapshot } from '../rl/snapshot';
import type { TrainEvent } from '../worker/protocol';
import { eventIndex } from '../worker/controllerHarness';
import { TrainController, type ControllerEnv } from '../worker/trainController';
import { EMPTY_METRICS } from './metricsSlice';
import { IDLE_STATUS } from './runStatusSlice';
import { foldTrainEvents } from './trainEvents';

// ttrl first: at the fault (co-rl, the second method) ttrl has finished the lock step and must be undone too
const config: ExperimentConfig = {
  name: 'guard',
  seed: 5,
  steps: 5,
  methods: ['ttrl', 'co-rl'],
  cohort: { preset: 'paper-demo' },
  task: null,
  train: { ...DEFAULT_TRAIN, batchPrompts: 2, samples: 2, lr: 1e-3 },
  eval: { ...DEFAULT_EVAL, every: 2, problems: 4, ensembleSamples: 2 },
};

type Info = { reason: string; message: string };
/** A CPU backend with a device that can be lost like a WebGPU one: after destroy(), every readback throws. */
class LosableCpu extends CpuBackend {
  lost: Info | null = null;
  private settle: (i: Info) => void = () => undefined;
  readonly device = {
    lost: new Promise<Info>((r) => (this.settle = r)),
    destroy: () => {
      if (this.lost) return;
      this.lost = { reason: 'destroyed', message: 'Device was destroyed.' };
      this.settle(this.lost);
    },
  };
  private check(): void {
    if (this.lost) throw new Error(`device lost (${this.lost.reason})`);
  }
  override async read(t: Tensor) {
    this.check();
    return super.read(t);
  }
  override async readMany(ts: readonly Tensor[]) {
    this.check();
    return super.readMany(ts);
  }
}

function harness(
  opts: { losable?: boolean; keepShare?: number; onEvent?: (e: TrainEvent, c: TrainController) => void } = {},
) {
  const events: TrainEvent[] = [];
  const backends: CpuBackend[] = [];
  const env: ControllerEnv = {
    post: (e) => {
      events.push(structuredClone(e));
      opts.onEvent?.(e, c);
    },
    reader: () => nodeReader(),
    selectBackend: async () => {
      const backend = opts.losable ? new LosableCpu() : new CpuBackend();
      backends.push(backend);
      return { backend, fallbackReason: 'test' };
    },
    keepShare: opts.keepShare,
  };
  const c = new TrainController(env);
  const until = async (pred: (e: TrainEvent) => boolean, from = 0): Promise<TrainEvent> =>
    events[(await eventIndex(events, pred, from)) - 1];
  return { c, events, backends, until };
}

const steps = (ev: TrainEvent[]): StepRecord[] =>
  ev.flatMap((e) =>
    e.type === 'step' ? [{ ...e.record, timing: { rollout: 0, forward: 0, update: 0, total: 0 } }] : [],
  );
const evals = (ev: TrainEvent[]): EvalRecord[] =>
  ev.flatMap((e) => (e.type === 'eval' ? [{ ...e.record, seconds: 0 }] : []));
const tags = (rs: { method: string; step: number }[]) => rs.map((r) => `${r.method}@${r.step}`);
const ended = (e: TrainEvent) => e.type === 'status' && (e.phase === 'done' || e.phase === 'error');
const bits = (a: Float32Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c();
});

/** The records of an uninterrupted run of `config` (no fault). */
async function uninterrupted(): Promise<{ steps: StepRecord[]; evals: EvalRecord[] }> {
  const h = harness();
  closers.push(() => h.c.close());
  await h.c.command({ type: 'start', config, backend: 'cpu', delayMs: 0 });
  await h.until(ended);
  expect(h.events.find(ended)).toMatchObject({ phase: 'done', step: 5 });
  return { steps: steps(h.events), evals: evals(h.events) };
}

describe('numerical guard', () => {
  it("a NaN in agent B's gradient pauses the run named, rolls the lock step back for everyone, keeps the records before it", async () => {
    const h = harness();
    closers.push(() => h.c.close());
    await h.c.command({
      type: 'start',
      config,
      backend: 'cpu',
      delayMs: 0,
      snapshotEvery: 1,
      debug: true,
      injectNaN: { method: 'co-rl', agent: 'B', step: 3 },
    });
    const paused = await h.until(
      (e) => e.type === 'status' && (e.phase === 'paused' || e.phase === 'error' || e.phase === 'done'),
    );
    expect(paused).toMatchObject({ phase: 'paused', step: 2 });
    const msg = paused.type === 'status' ? paused.message : '';
    expect(msg).toMatch(
      /^Paused: co-rl agent B diverged at step 3 \(gradient norm: NaN\)\. B was rolled back to its state after step 2/,
    );
    expect(msg).toMatch(/Lower the learning rate, then Resume\.$/);
    expect(h.events.find((e) => e.type === 'fault')).toEqual({
      type: 'fault',
      runId: 1,
      kind: 'diverged',
      step: 2,
      message: msg,
    });
    expect(h.events.some((e) => e.type === 'error')).toBe(false);

    // records: steps 1-2 of every method, nothing of step 3; evaluations at 0 and 2
    const at = h.events.indexOf(paused);
    expect(tags(steps(h.events.slice(0, at)))).toEqual(['ttrl@1', 'co-rl@1', 'ttrl@2', 'co-rl@2']);
    expect(tags(evals(h.events.slice(0, at)))).toEqual(['ttrl@0', 'co-rl@0', 'ttrl@2', 'co-rl@2']);

    // every agent of every method holds exactly its parameters after step 2 (the step-2 snapshot), bit for bit
    const snap2 = h.events.find((e) => e.type === 'snapshot' && e.step === 2);
    if (snap2?.type !== 'snapshot') throw new Error('no step-2 snapshot');
    const saved = decodeSnapshot(snap2.bytes);
    const from = h.events.length;
    await h.c.command({ type: 'exportCheckpoints' });
    const files = await h.until((e) => e.type === 'checkpoints', from);
    if (files.type !== 'checkpoints') throw new Error('no checkpoints');
    expect(files.step).toBe(2);
    expect(files.files.map((f) => `${f.method}/${f.agent}`)).toEqual([
      'ttrl/A',
      'ttrl/B',
      'co-rl/A',
      'co-rl/B',
    ]);
    const after3 = h.events.find((e) => e.type === 'snapshot' && e.step === 3);
    expect(after3).toBeUndefined();
    for (const f of files.files) {
      const ck = loadCheckpoint(new Uint8Array(f.bytes));
      const layout = paramLayout(ck.config); // the flat order the model and the snapshot use
      const flat = new Float32Array(layout.total);
      for (const s of layout.specs) flat.set(ck.params.get(s.name)!, s.offset);
      const want = saved.trainers
        .find((t) => t.method === f.method)!
        .agents.find((a) => a.id === f.agent)!.params;
      expect(flat.every(Number.isFinite)).toBe(true);
      expect(bits(flat).equals(bits(want)), `${f.method}/${f.agent} equals its step-2 parameters`).toBe(true);
    }

    // the injected fault is one-shot: resuming from the rolled-back state gives exactly the uninterrupted run
    await h.c.command({ type: 'resume' });
    await h.until(ended);
    expect(h.events.find(ended)).toMatchObject({ phase: 'done', step: 5 });
    const ref = await uninterrupted();
    expect(steps(h.events)).toEqual(ref.steps); // steps 1..5 of both methods, once each, equal to the run without the fault
    expect(evals(h.events)).toEqual(ref.evals);
  }, 120_000);

  it('a test hook is refused on the CPU backend with a reason', async () => {
    const h = harness();
    closers.push(() => h.c.close());
    await h.c.command({ type: 'start', config, backend: 'cpu', delayMs: 0, paused: true, debug: true });
    await h.until((e) => e.type === 'status' && e.phase === 'paused');
    await h.c.command({ type: 'debugLoseDevice' });
    expect(h.events.at(-1)).toMatchObject({
      type: 'fault',
      kind: 'ignored',
      message: /no GPU device to lose/,
    });
  }, 60_000);
});

describe('device loss', () => {
  it('a device lost mid lock step is recreated, the agents reloaded, and every record comes exactly once', async () => {
    let fired = false;
    // lose the device when co-rl (the second method) starts lock step 5: ttrl has finished step 5 by then
    const h = harness({
      losable: true,
      keepShare: 0, // keep only every snapshotEvery steps: the recovery re-runs step 4 from the step-3 snapshot
      onEvent: (e, c) => {
        if (!fired && e.type === 'status' && e.message.startsWith('Step 5: co-rl')) {
          fired = true;
          void c.command({ type: 'debugLoseDevice' });
        }
      },
    });
    closers.push(() => h.c.close());
    await h.c.command({ type: 'start', config, backend: 'auto', delayMs: 0, snapshotEvery: 3, debug: true });
    await h.until(ended);
    expect(fired).toBe(true);
    expect(h.events.find(ended)).toMatchObject({ phase: 'done', step: 5 });
    expect(h.events.filter((e) => e.type === 'engine')).toHaveLength(2);
    expect(h.backends).toHaveLength(2);
    expect((h.backends[0] as LosableCpu).lost).not.toBeNull();
    const faults = h.events.flatMap((e) => (e.type === 'fault' ? [e] : []));
    expect(faults.map((f) => [f.kind, f.step])).toEqual([
      ['deviceLost', 3],
      ['recovered', 4],
    ]);
    expect(faults[0].message).toBe(
      'The GPU device was lost (destroyed: Device was destroyed). Recreating it and reloading the agents from step 3…',
    );
    expect(faults[1].message).toMatch(
      /recovered: every agent was reloaded from step 3 on the CPU backend \(WebGPU could not be recreated\) and step 4 was re-run; training continues from step 4/,
    );
    expect(h.events.some((e) => e.type === 'error')).toBe(false);
    // the status step never goes back
    const stepsSeen = h.events.flatMap((e) => (e.type === 'status' ? [e.step] : []));
    expect(stepsSeen.every((s, i) => i === 0 || s >= stepsSeen[i - 1])).toBe(true);

    const ref = await uninterrupted();
    expect(tags(steps(h.events))).toEqual(tags(ref.steps)); // 1..5 of each method, once each, in order
    expect(steps(h.events)).toEqual(ref.steps); // and the very same numbers
    expect(evals(h.events)).toEqual(ref.evals);
  }, 120_000);

  it('a device lost while paused is recovered at once and the run stays paused at the same step', async () => {
    const h = harness({ losable: true });
    closers.push(() => h.c.close());
    await h.c.command({ type: 'start', config, backend: 'auto', delayMs: 0, paused: true, debug: true });
    await h.until((e) => e.type === 'status' && e.phase === 'paused');
    await h.c.command({ type: 'step' });
    await h.until((e) => e.type === 'status' && e.phase === 'paused' && e.step === 1);
    const from = h.events.length;
    await h.c.command({ type: 'debugLoseDevice' });
    await h.until((e) => e.type === 'fault' && e.kind === 'recovered', from);
    const back = await h.until((e) => e.type === 'status' && e.phase === 'paused', from);
    expect(back).toMatchObject({ step: 1 });
    expect(h.backends).toHaveLength(2);
    expect(h.events.slice(from).filter((e) => e.type === 'step' || e.type === 'eval')).toHaveLength(0);
  }, 60_000);
});

describe('the page side', () => {
  it('a fault event sets the banner of its run; a new run clears it; a late fault of an old run is ignored', () => {
    const start = { runStatus: { ...IDLE_STATUS }, metrics: { ...EMPTY_METRICS } };
    const r = foldTrainEvents(start, [
      { type: 'run', runId: 1, config },
      {
        type: 'fault',
        runId: 1,
        kind: 'diverged',
        step: 2,
        message: 'Paused: co-rl agent B diverged at step 3',
      },
    ]);
    expect(r.runStatus.guard).toEqual({
      kind: 'diverged',
      step: 2,
      message: 'Paused: co-rl agent B diverged at step 3',
    });
    const r2 = foldTrainEvents(r, [
      { type: 'run', runId: 2, config },
      { type: 'fault', runId: 1, kind: 'deviceLost', step: 0, message: 'old' },
    ]);
    expect(r2.runStatus.guard).toBeNull();
  });
});
