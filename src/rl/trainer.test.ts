// Trainer-level tests on tiny pretrained agents (CPU backend): KL is exactly 0 at the first step, clipping
// fires only with innerEpochs > 1, the ring wiring for N = 3, co-rl refused for N = 1, independent and
// reproducible random streams, the NaN guard (which puts every agent back), the readback budget per
// step, and lock-step comparisons sharing prompts and seeds.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Agent } from '../cohort/agent';
import { CpuBackend } from '../engine/cpu/cpuBackend';
import { makeTask } from '../tasks';
import { DEFAULT_EVAL, DEFAULT_TRAIN, type ExperimentConfig, type TrainConfig } from './config';
import { runExperiment } from './experiment';
import type { RewardMethod } from './rewards';
import { toyAgent, TOY_TASK, toyCohort, type ToyAgent } from './toyAgents';
import { CohortTrainer, TrainingDivergedError } from './trainer';

const be = new CpuBackend();
const task = makeTask(TOY_TASK);
let toys: ToyAgent[] = [];

beforeAll(async () => {
  toys = await toyCohort(100, 3);
}, 60_000);

const agents = (n = 2): Agent[] => toys.slice(0, n).map((t) => toyAgent(be, t));
const train = (o: Partial<TrainConfig> = {}): TrainConfig => ({
  ...DEFAULT_TRAIN,
  batchPrompts: 8,
  samples: 4,
  lr: 1e-3,
  ...o,
});
const trainer = (method: RewardMethod, a: Agent[], o: Partial<TrainConfig> = {}, seed = 7): CohortTrainer =>
  new CohortTrainer(be, a, { method, seed, task, train: train(o), eval: { ...DEFAULT_EVAL, problems: 20 } });

describe('CohortTrainer', () => {
  it('KL to the base is exactly 0 at step 1 and positive after an update', async () => {
    const tr = trainer('co-rl', agents());
    const s1 = await tr.step();
    for (const a of s1.agents) expect(a.kl).toBe(0);
    const s2 = await tr.step();
    for (const a of s2.agents) expect(a.kl!).toBeGreaterThan(0);
    tr.dispose();
  });

  it('clipping never fires with innerEpochs = 1 and does fire with innerEpochs > 1', async () => {
    const one = trainer('gt', agents(1), { lr: 1e-2 });
    for (let s = 0; s < 2; s++) expect((await one.step()).agents[0].clipFraction).toBe(0);
    const four = trainer('gt', agents(1), { lr: 1e-2, innerEpochs: 4 });
    let clip = 0;
    for (let s = 0; s < 2; s++) clip += (await four.step()).agents[0].clipFraction;
    expect(clip).toBeGreaterThan(0);
  });

  it('co-rl on a ring of 3: each agent is trained on its predecessor (n-1 mod 3) votes', async () => {
    const tr = trainer('co-rl', agents(3));
    const r = await tr.step();
    expect([0, 1, 2].map((n) => tr.teacherOf(n))).toEqual([2, 0, 1]);
    for (let n = 0; n < 3; n++)
      expect(r.agents[n].trainedLabelAccuracy).toBe(r.agents[(n + 2) % 3].pseudoLabelAccuracy);
    expect(r.pairs.map((p) => `${p.a}${p.b}`)).toEqual(['AB', 'AC', 'BC']);
  });

  it('refuses co-rl with one agent and K < 2', () => {
    expect(() => trainer('co-rl', agents(1))).toThrow(/co-rl needs N >= 2/);
    expect(() => trainer('ttrl', agents(1), { samples: 1 })).toThrow(/K must be >= 2/);
  });

  it('is reproducible for a seed, and two identical agents never share a random stream', async () => {
    const a = trainer('ttrl', agents(1));
    const b = trainer('ttrl', agents(1));
    await a.step();
    await b.step();
    expect(await a.agents[0].model.readParams()).toEqual(await b.agents[0].model.readParams());
    // the same weights under two ids: different streams, so different rollouts
    const twin = toyAgent(be, { ...toys[0], spec: { ...toys[0].spec, id: 'A2' } });
    const tr = trainer('ttrl', [toyAgent(be, toys[0]), twin], {}, 3);
    const r = await tr.step();
    const x = r.agents[0];
    const y = r.agents[1];
    expect([x.rewardMean, x.meanLength, x.meanEntropy]).not.toEqual([
      y.rewardMean,
      y.meanLength,
      y.meanEntropy,
    ]);
  });

  it('reads back at most 3 times per step and allocates nothing after the first step', async () => {
    const tr = trainer('co-rl', agents(2), { beta: 0.02, innerEpochs: 1 });
    const c = be.counters;
    for (let s = 0; s < 3; s++) {
      const reads = c.readbacks;
      const allocs = c.allocations;
      await tr.step();
      expect(c.readbacks - reads).toBeLessThanOrEqual(3);
      if (s > 0) expect(c.allocations - allocs).toBe(0);
    }
    // each further inner epoch adds one readback (every agent's forward together)
    const three = trainer('gt', agents(2), { innerEpochs: 3 });
    const reads = c.readbacks;
    await three.step();
    expect(c.readbacks - reads).toBe(3 + 2);
    tr.dispose();
    three.dispose();
  });

  it('puts every agent back as it was before a step that diverges', async () => {
    const bad = agents(2);
    const p = await bad[1].model.readParams();
    p.fill(NaN, 0, 64);
    bad[1].model.writeParams(p);
    const tr = trainer('ttrl', bad);
    const before = await Promise.all(
      bad.map(async (a) => [await a.model.readParams(), (await be.read(a.model.m)).slice()]),
    );
    await expect(tr.step()).rejects.toBeInstanceOf(TrainingDivergedError);
    expect(tr.stepCount).toBe(0);
    for (const [n, a] of bad.entries()) {
      expect(await a.model.readParams()).toEqual(before[n][0]); // agent A was updated in the step, then put back
      expect(await be.read(a.model.m)).toEqual(before[n][1]);
    }
  });

  it('stops on a NaN with the agent and step named', async () => {
    const bad = agents(2);
    const p = await bad[1].model.readParams();
    p.fill(NaN, 0, 64); // poison the first embedding rows: the logits that use them become NaN
    bad[1].model.writeParams(p);
    const tr = trainer('ttrl', bad);
    const err = await tr.step().then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(TrainingDivergedError);
    expect((err as TrainingDivergedError).agent).toBe('B');
    expect((err as TrainingDivergedError).step).toBe(1);
    expect((err as Error).message).toMatch(/agent B at step 1/);
  });
});

describe('runExperiment (lock step)', () => {
  const config = (methods: RewardMethod[], steps = 2): ExperimentConfig => ({
    name: 't',
    seed: 5,
    steps,
    methods,
    cohort: { preset: 'toy' },
    task: TOY_TASK,
    train: train(),
    eval: { ...DEFAULT_EVAL, every: 0, problems: 20, ensembleSamples: 2 },
  });

  it('gives every method the same prompts, seeds and base evaluation', async () => {
    const r = await runExperiment(be, config(['co-rl', 'ttrl', 'gt']), async () => agents(2), {
      keepExamples: true,
      task,
    });
    expect(r.error).toBeNull();
    expect(r.completedSteps).toBe(2);
    const byMethod = (m: string) => r.steps.filter((s) => s.method === m);
    for (const s of [0, 1]) {
      const prompts = ['co-rl', 'ttrl', 'gt'].map((m) => {
        const step = byMethod(m)[s];
        return step.examples!.map((e) => e.prompt).join('|');
      });
      expect(new Set(prompts).size).toBe(1);
    }
    // step 1 rollouts come from identical base agents and seeds: identical answers, hence votes
    const first = ['co-rl', 'ttrl', 'gt'].map((m) =>
      byMethod(m)[0]
        .examples!.map((e) => e.answers.join(','))
        .join('|'),
    );
    expect(new Set(first).size).toBe(1);
    const base = r.evals.filter((e) => e.step === 0);
    expect(base.map((e) => e.method)).toEqual(['co-rl', 'ttrl', 'gt']);
    expect(new Set(base.map((e) => JSON.stringify(e.agents))).size).toBe(1);
    expect(r.summary.map((m) => m.method)).toEqual(['co-rl', 'ttrl', 'gt']);
  });

  it('keeps everything logged before a NaN and names the agent and step', async () => {
    let calls = 0;
    const load = async (): Promise<Agent[]> => {
      const a = agents(2);
      if (++calls === 2) {
        // the second method's agent B is broken from the start
        const p = await a[1].model.readParams();
        p.fill(NaN, 0, 64);
        a[1].model.writeParams(p);
      }
      return a;
    };
    const r = await runExperiment(be, config(['co-rl', 'ttrl'], 3), load, { task });
    expect(r.error).toMatchObject({ method: 'ttrl', agent: 'B', step: 1 });
    expect(r.steps.map((s) => `${s.method}${s.step}`)).toEqual(['co-rl1']);
    expect(r.evals.length).toBe(2);
  });
});
