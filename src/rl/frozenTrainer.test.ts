// The co-rl-frozen control inside the real trainer (CPU, toy agents; docs/method.md, the distillation
// control): the teachers' labels are the votes of the FROZEN base copies, rolled out from their own seed
// stream, so they do not move when the trained copies do (under co-rl they do); N = 1 is refused naming
// the method; a short lock-step run with co-rl gives finite metrics; no extra readback per step.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Agent } from '../cohort/agent';
import { CpuBackend } from '../engine/cpu/cpuBackend';
import { makeTask } from '../tasks';
import { deriveRng, deriveSeed } from '../util/rng';
import { DEFAULT_EVAL, DEFAULT_TRAIN, type ExperimentConfig, type TrainConfig } from './config';
import { runExperiment } from './experiment';
import { FROZEN_ROLLOUT_LABEL } from './frozenTeachers';
import type { RewardMethod } from './rewards';
import { rolloutCohort } from './rollout';
import { toyAgent, TOY_TASK, toyCohort, type ToyAgent } from './toyAgents';
import { CohortTrainer, type StepDetail } from './trainer';
import { cohortVotes, voteLabels } from './vote';

const be = new CpuBackend();
const task = makeTask(TOY_TASK);
const SEED = 7;
let toys: ToyAgent[] = [];

beforeAll(async () => {
  toys = await toyCohort(100, 2);
}, 60_000);

const agents = (): Agent[] => toys.map((t) => toyAgent(be, t));
const train = (o: Partial<TrainConfig> = {}): TrainConfig => ({
  ...DEFAULT_TRAIN,
  batchPrompts: 8,
  samples: 4,
  lr: 1e-3,
  ...o,
});
const trainer = (method: RewardMethod, a: Agent[], o: Partial<TrainConfig> = {}) =>
  new CohortTrainer(be, a, {
    method,
    seed: SEED,
    task,
    train: train(o),
    eval: { ...DEFAULT_EVAL, problems: 10 },
  });

/** Every step's detail (answers, labels, rewards) of `steps` steps. */
async function details(method: RewardMethod, o: Partial<TrainConfig>, steps: number): Promise<StepDetail[]> {
  const out: StepDetail[] = [];
  const tr = new CohortTrainer(be, agents(), {
    method,
    seed: SEED,
    task,
    train: train(o),
    eval: { ...DEFAULT_EVAL, problems: 10 },
    inspect: (d) => out.push(d),
  });
  for (let s = 0; s < steps; s++) await tr.step();
  tr.dispose();
  return out;
}

describe('co-rl-frozen in the trainer', () => {
  it('the teachers are the frozen base copies: their labels do not move as the trained copies change', async () => {
    const slow = await details('co-rl-frozen', { lr: 1e-4 }, 3);
    const fast = await details('co-rl-frozen', { lr: 3e-2 }, 3);
    // the trained copies differ: by step 3 they answer differently
    expect(fast[2].answers).not.toEqual(slow[2].answers);
    for (let s = 0; s < 3; s++) expect(fast[s].trainedLabels).toEqual(slow[s].trainedLabels);
    // and the labels are what the base agents vote from the frozen stream, on the step's prompts
    const probe = new CohortTrainer(be, agents(), {
      method: 'co-rl-frozen',
      seed: SEED,
      task,
      train: train(),
      eval: DEFAULT_EVAL,
    });
    for (let s = 1; s <= 3; s++) {
      const base = agents();
      const problems = task.sampleTrain(deriveRng(SEED, 'prompts', s), 8);
      const rolls = await rolloutCohort(
        base,
        problems,
        base.map((a, n) => ({
          samples: 4,
          temperature: DEFAULT_TRAIN.temperature,
          maxNewTokens: probe.maxNewTokens[n],
          seed: deriveSeed(SEED, FROZEN_ROLLOUT_LABEL, a.spec.id, s),
        })),
        (p, v) => task.prompt(p, v),
      );
      const votes = cohortVotes(
        rolls.map((r) => r.answers),
        8,
        4,
        DEFAULT_TRAIN.tau,
      ).map(voteLabels);
      expect(slow[s - 1].trainedLabels).toEqual([votes[1], votes[0]]); // A <- frozen B, B <- frozen A
      // the frozen copies never share the trained copies' stream: at step 1 both are the base, yet they differ
      if (s === 1) expect(rolls.map((r) => r.answers)).not.toEqual(slow[0].answers);
    }
  }, 120_000);

  it('under co-rl the same change of the trained copies does move the labels (the check can fail)', async () => {
    const slow = await details('co-rl', { lr: 1e-4 }, 3);
    const fast = await details('co-rl', { lr: 3e-2 }, 3);
    expect(fast[0].trainedLabels).toEqual(slow[0].trainedLabels); // step 1: both still the base
    expect(fast.slice(1).map((d) => d.trainedLabels)).not.toEqual(slow.slice(1).map((d) => d.trainedLabels));
  }, 120_000);

  it('rewards are 1 exactly for a completion equal to the frozen label (0 for all K when unlabeled)', async () => {
    const [d] = await details('co-rl-frozen', {}, 1);
    d.rewards.forEach((r, n) =>
      r.forEach((x, i) => {
        const label = d.trainedLabels![n][Math.floor(i / 4)];
        expect(x).toBe(label !== null && d.answers[n][i] === label ? 1 : 0);
      }),
    );
  }, 60_000);

  it('a run restored from a snapshot keeps the base as its frozen teachers (same step 3 as without)', async () => {
    const straight = trainer('co-rl-frozen', agents(), { lr: 1e-2 });
    for (let s = 0; s < 3; s++) await straight.step();
    const first = trainer('co-rl-frozen', agents(), { lr: 1e-2 });
    for (let s = 0; s < 2; s++) await first.step();
    const snap = await first.snapshot();
    const resumed = trainer('co-rl-frozen', agents(), { lr: 1e-2 }); // fresh copies of the base, as a reload
    await resumed.restore(snap);
    await resumed.step();
    for (let n = 0; n < 2; n++)
      expect(await resumed.agents[n].model.readParams()).toEqual(await straight.agents[n].model.readParams());
    for (const t of [straight, first, resumed]) t.dispose();
  }, 60_000);

  it('refuses N = 1 (and self_plus_peers) naming the method', () => {
    expect(() => trainer('co-rl-frozen', agents().slice(0, 1))).toThrow(
      /co-rl-frozen needs N >= 2 agents.*N = 1/,
    );
    expect(() => trainer('co-rl-frozen', agents(), { teacher: 'self_plus_peers' })).toThrow(
      /co-rl-frozen: teacher 'self_plus_peers' is not available/,
    );
  });

  it('reads back no more per step than co-rl (the frozen rollouts share the readback)', async () => {
    const count = async (method: RewardMethod) => {
      const tr = trainer(method, agents(), { beta: 0.02 });
      const r0 = be.counters.readbacks;
      for (let s = 0; s < 2; s++) await tr.step();
      tr.dispose();
      return be.counters.readbacks - r0;
    };
    expect(await count('co-rl-frozen')).toBe(await count('co-rl'));
  }, 60_000);

  it('runs in lock step with co-rl: same prompts, finite metrics, its own trained-on label accuracy', async () => {
    const config: ExperimentConfig = {
      name: 't',
      seed: 5,
      steps: 3,
      methods: ['co-rl', 'co-rl-frozen'],
      cohort: { preset: 'toy' },
      task: TOY_TASK,
      train: train({ beta: 0.02 }),
      eval: { ...DEFAULT_EVAL, every: 0, problems: 10, ensembleSamples: 2 },
    };
    const r = await runExperiment(be, config, async () => agents(), { keepExamples: true, task });
    expect(r.error).toBeNull();
    const frozen = r.steps.filter((s) => s.method === 'co-rl-frozen');
    const co = r.steps.filter((s) => s.method === 'co-rl');
    expect(frozen.map((s) => s.step)).toEqual([1, 2, 3]);
    for (const [i, s] of frozen.entries()) {
      expect(s.examples![0].prompt).toBe(co[i].examples![0].prompt);
      expect(s.coLabeling?.teacher).toBe('ring');
      for (const a of s.agents) {
        for (const [k, v] of Object.entries(a))
          if (typeof v === 'number') expect(Number.isFinite(v), `${k} = ${v}`).toBe(true);
        expect(a.rewardMean).toBeGreaterThanOrEqual(0);
        expect(a.rewardMean).toBeLessThanOrEqual(1);
        expect(a.trainedLabelAccuracy).not.toBeNull();
        expect(Number.isFinite(a.kl!)).toBe(true);
      }
    }
    // step 1: the trained copies are the base in both methods (same own votes), the teachers are not the peers
    expect(frozen[0].agents.map((a) => a.pseudoLabelAccuracy)).toEqual(
      co[0].agents.map((a) => a.pseudoLabelAccuracy),
    );
    const sum = r.summary.find((m) => m.method === 'co-rl-frozen');
    expect(sum).toBeDefined();
    expect(r.evals.filter((e) => e.method === 'co-rl-frozen').length).toBeGreaterThanOrEqual(2);
  }, 120_000);
});
