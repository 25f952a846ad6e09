// Trainer snapshots (CPU backend, toy agents): 2 steps, snapshot -> bytes -> restore into a fresh trainer
// on fresh base agents -> 2 more steps gives exactly the records of 4 uninterrupted steps; the byte format
// refuses foreign, truncated and corrupted data; restore refuses a snapshot of another run and writes
// nothing when it does.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Agent } from '../cohort/agent';
import { CpuBackend } from '../engine/cpu/cpuBackend';
import { makeTask } from '../tasks';
import { DEFAULT_EVAL, DEFAULT_TRAIN, type TrainConfig } from './config';
import type { StepRecord } from './records';
import type { RewardMethod } from './rewards';
import { decodeSnapshot, encodeSnapshot, SNAPSHOT_MAGIC, type SnapshotBundle } from './snapshot';
import { pretrainToy, toyAgent, TOY_TASK, toyCohort, type ToyAgent } from './toyAgents';
import { CohortTrainer } from './trainer';

const be = new CpuBackend();
const task = makeTask(TOY_TASK);
let toys: ToyAgent[] = [];

beforeAll(async () => {
  toys = await toyCohort(60);
}, 60_000);

const agents = (): Agent[] => toys.map((t) => toyAgent(be, t));
// KL in the loss (the frozen base matters), two inner epochs, a warmup (the lr depends on the step)
const train = (o: Partial<TrainConfig> = {}): TrainConfig => ({
  ...DEFAULT_TRAIN,
  batchPrompts: 6,
  samples: 4,
  lr: 3e-3,
  beta: 0.02,
  innerEpochs: 2,
  warmupSteps: 3,
  ...o,
});
const trainer = (a: Agent[], method: RewardMethod = 'co-rl', seed = 11): CohortTrainer =>
  new CohortTrainer(be, a, {
    method,
    seed,
    task,
    train: train(),
    eval: { ...DEFAULT_EVAL, problems: 12, ensembleSamples: 2 },
  });
const noTiming = (r: StepRecord) => ({ ...r, timing: null });

describe('trainer snapshots', () => {
  it('2 steps + snapshot -> bytes -> restore into a fresh trainer + 2 steps == 4 straight steps (exact)', async () => {
    const straight = trainer(agents());
    const want: StepRecord[] = [];
    for (let s = 0; s < 4; s++) want.push(await straight.step());
    const wantEval = await straight.evaluate();

    const first = trainer(agents());
    const got: StepRecord[] = [await first.step(), await first.step()];
    const bytes = encodeSnapshot({ step: 2, trainers: [await first.snapshot()], extra: { note: 'x' } });
    first.dispose();
    const bundle = decodeSnapshot(bytes.slice().buffer);
    expect(bundle.step).toBe(2);
    expect(bundle.extra).toEqual({ note: 'x' });

    const fresh = trainer(agents());
    await fresh.restore(bundle.trainers[0]);
    expect(fresh.stepCount).toBe(2);
    got.push(await fresh.step(), await fresh.step());
    expect(got.map(noTiming)).toEqual(want.map(noTiming));
    expect(got[3].agents.every((a) => a.kl! > 0 && a.rewardStdNorm !== null)).toBe(true); // KL and the std baseline in play
    expect({ ...(await fresh.evaluate()), seconds: 0 }).toEqual({ ...wantEval, seconds: 0 });
    for (const n of [0, 1]) {
      expect(await fresh.agents[n].model.readParams()).toEqual(await straight.agents[n].model.readParams());
      expect(await be.read(fresh.agents[n].model.v)).toEqual(await be.read(straight.agents[n].model.v));
    }
  }, 60_000);

  it('encodes and decodes several trainers bit for bit', async () => {
    const a = trainer(agents(), 'co-rl');
    const b = trainer(agents(), 'ttrl');
    await a.step();
    const bundle: SnapshotBundle = {
      step: 1,
      trainers: [await a.snapshot(), await b.snapshot()],
      extra: { lr: 0.001 },
    };
    const bytes = encodeSnapshot(bundle);
    expect(String.fromCharCode(...bytes.subarray(0, 8))).toBe(SNAPSHOT_MAGIC);
    const back = decodeSnapshot(bytes);
    expect(back).toEqual(bundle);
    expect(back.trainers[1].agents[0].optSteps).toBe(0);
    expect(back.trainers[1].agents[0].firstStd).toBeNull();
    expect(back.trainers[0].agents[1].optSteps).toBe(2); // innerEpochs 2
  });

  it('refuses foreign, truncated, extended and corrupted bytes with a clear message', async () => {
    const t = trainer(agents());
    const bytes = encodeSnapshot({ step: 0, trainers: [await t.snapshot()], extra: {} });
    const hlen = new DataView(bytes.buffer).getUint32(12, true);
    expect(() => decodeSnapshot(new Uint8Array(10))).toThrow(/shorter than the 16-byte preamble/);
    expect(() => decodeSnapshot(new TextEncoder().encode('CORLCKPT and then some bytes'))).toThrow(
      /starts with "CORLCKPT", expected "CORLSNAP"/,
    );
    const v2 = bytes.slice();
    v2[8] = 2;
    expect(() => decodeSnapshot(v2)).toThrow(/format version 2; this build reads version 1/);
    expect(() => decodeSnapshot(bytes.subarray(0, 20))).toThrow(/truncated: a header of/);
    for (const cut of [1, 4, 1000])
      expect(() => decodeSnapshot(bytes.subarray(0, bytes.length - cut))).toThrow(
        /truncated: the payload needs/,
      );
    const longer = new Uint8Array(bytes.length + 4);
    longer.set(bytes);
    expect(() => decodeSnapshot(longer)).toThrow(/4 unexpected bytes after the payload/);
    const flipped = bytes.slice();
    flipped[bytes.length - 7] ^= 1;
    expect(() => decodeSnapshot(flipped)).toThrow(/checksum .* \(corrupted data\)/);
    const header = bytes.slice();
    header[17] = 0x7b; // '{' inside the JSON: no longer parses
    expect(() => decodeSnapshot(header)).toThrow(/corrupt header/);
    // a well-formed header that lies about the offsets
    const text = new TextDecoder().decode(bytes.subarray(16, 16 + hlen)).replace('"offset":0', '"offset":4');
    const lying = new Uint8Array(bytes.length);
    lying.set(bytes);
    lying.set(new TextEncoder().encode(text), 16);
    expect(() => decodeSnapshot(lying)).toThrow(/payload offset 4, expected 0/);
  });

  it('restore refuses a snapshot of another run and writes nothing then', async () => {
    const src = trainer(agents());
    await src.step();
    const snap = await src.snapshot();
    const target = trainer(agents());
    const before = await target.agents[0].model.readParams();
    const refused = async (s: typeof snap, t: CohortTrainer, re: RegExp) => {
      await expect(t.restore(s)).rejects.toThrow(re);
      expect(t.stepCount).toBe(0);
    };
    await refused({ ...snap, method: 'ttrl' }, target, /snapshot of method ttrl/);
    await refused({ ...snap, seed: 12 }, target, /taken with seed 12, this run uses seed 11/);
    await refused(
      { ...snap, agents: [snap.agents[1], snap.agents[0]] },
      target,
      /its agents are \[B, A\], this cohort has \[A, B\]/,
    );
    await refused(
      { ...snap, agents: [{ ...snap.agents[0], m: snap.agents[0].m.subarray(1) }, snap.agents[1]] },
      target,
      /agent A: m has \d+ values, the model has \d+ parameters/,
    );
    const nan = snap.agents[1].params.slice();
    nan[5] = NaN;
    await refused(
      { ...snap, agents: [snap.agents[0], { ...snap.agents[1], params: nan }] },
      target,
      /agent B: params\[5\] is NaN/,
    );
    // the same ids and shapes but other base weights (B pretrained with another seed)
    const other = await pretrainToy({ id: 'B', view: 'reversed', seed: 9, steps: 5 });
    await refused(
      snap,
      trainer([toyAgent(be, toys[0]), toyAgent(be, other)]),
      /agent B started from other base parameters/,
    );
    expect(await target.agents[0].model.readParams()).toEqual(before);
  }, 30_000);
});
