// Experiment config validation: defaults, every problem listed at once with the field named (unknown
// fields, wrong types, impossible values, K < 2, co-rl with N = 1), and checkpoints that do not exist or
// do not match their family, refused before any work starts.
import { beforeAll, describe, expect, it } from 'vitest';
import { pretrainAgent, type AgentSpec, type ReadBytes } from '../cohort';
import { CpuBackend } from '../engine/cpu/cpuBackend';
import { validateExperiment } from './cohortEnv';
import {
  DEFAULT_TRAIN,
  ExperimentConfigError,
  assertExperimentConfig,
  parseExperimentConfig,
} from './config';

const TASK = { kind: 'add', digits: 2 } as const;
const agentSpec = (
  id: string,
  family: string,
  seed: number,
  view = 'plain',
  checkpoint = `ck/${family}.s${seed}.ckpt`,
): AgentSpec => ({ id, family, size: 's', seed, view, checkpoint }) as AgentSpec;
const good = {
  name: 'x',
  seed: 3,
  steps: 10,
  methods: ['co-rl', 'ttrl'],
  task: TASK,
  cohort: { agents: [agentSpec('A', 'lp-nocarry', 1), agentSpec('B', 'rope-carry', 1)] },
};

const files = new Map<string, Uint8Array>();
const read: ReadBytes = async (path) => {
  const b = files.get(path);
  if (!b) throw new Error(`missing file ${path}`);
  return b;
};

beforeAll(async () => {
  const be = new CpuBackend();
  const tiny = { maxSteps: 2, evalEvery: 2, valSize: 20 };
  for (const family of ['lp-nocarry', 'rope-carry']) {
    const r = await pretrainAgent(be, { id: 'A', family, size: 's', seed: 1 }, TASK, { recipe: tiny });
    files.set(`ck/${family}.s1.ckpt`, r.bytes);
  }
}, 60_000);

describe('parseExperimentConfig', () => {
  it('fills defaults', () => {
    const { config } = assertExperimentConfig(good);
    expect(config.train).toEqual(DEFAULT_TRAIN);
    expect(config.eval.every).toBe(10);
    expect(config.methods).toEqual(['co-rl', 'ttrl']);
  });

  it('lists every problem at once, naming the field', () => {
    const r = parseExperimentConfig({
      ...good,
      steps: 0,
      bogus: 1,
      methods: ['co-rl', 'magic'],
      train: { samples: 1, lr: 'fast', lossType: 'ppo', colour: 'red' },
      eval: { every: -1 },
    });
    expect(r.ok).toBe(false);
    const errs = (r as { errors: string[] }).errors;
    const expected = [
      /^bogus: unknown field/,
      /^steps: must be an integer/,
      /^methods\[1\]: must be one of/,
      /^train\.samples: must be >= 2/,
      /^train\.lr: must be a number/,
      /^train\.lossType: must be one of 'grpo' \| 'bnpo' \| 'dr_grpo'/,
      /^train\.colour: unknown field/,
      /^eval\.every: must be an integer/,
    ];
    for (const re of expected)
      expect(
        errs.some((e) => re.test(e)),
        `${re} in\n${errs.join('\n')}`,
      ).toBe(true);
    expect(errs.length).toBe(expected.length);
  });

  it('refuses co-rl with one agent', () => {
    const r = parseExperimentConfig({ ...good, cohort: { agents: [good.cohort.agents[0]] } });
    expect(r.ok).toBe(false);
    expect((r as { errors: string[] }).errors.join('\n')).toMatch(
      /methods: 'co-rl' needs N >= 2 agents.*N = 1/,
    );
    expect(
      parseExperimentConfig({ ...good, methods: ['ttrl'], cohort: { agents: [good.cohort.agents[0]] } }).ok,
    ).toBe(true);
  });

  it('refuses co-rl-frozen with one agent, and with the self_plus_peers teacher, naming the field', () => {
    const one = parseExperimentConfig({
      ...good,
      methods: ['co-rl-frozen'],
      cohort: { agents: [good.cohort.agents[0]] },
    });
    expect(one.ok).toBe(false);
    expect((one as { errors: string[] }).errors.join('\n')).toMatch(
      /methods: 'co-rl-frozen' needs N >= 2 agents.*N = 1/,
    );
    const spp = parseExperimentConfig({
      ...good,
      methods: ['co-rl-frozen'],
      cohort: { agents: [...good.cohort.agents, agentSpec('C', 'lp-nocarry', 2)] },
      train: { teacher: 'self_plus_peers' },
    });
    expect((spp as { errors: string[] }).errors).toEqual([
      expect.stringMatching(/^train\.teacher: teacher 'self_plus_peers' is not available for co-rl-frozen/),
    ]);
    const ok = assertExperimentConfig({ ...good, methods: ['co-rl', 'co-rl-frozen'] });
    expect(ok.config.methods).toEqual(['co-rl', 'co-rl-frozen']);
  });

  it('throws an ExperimentConfigError holding the list', () => {
    expect(() => assertExperimentConfig({ ...good, train: { samples: 0, tau: 2 } })).toThrow(
      ExperimentConfigError,
    );
    try {
      assertExperimentConfig({ ...good, train: { samples: 0, tau: 2 } });
    } catch (e) {
      expect((e as ExperimentConfigError).problems).toHaveLength(2);
    }
  });

  it('rejects unknown presets listing the valid ones, and duplicate agent ids', () => {
    const env = { resolveCohort: () => ({ errors: ['unknown preset "nope"; valid names: paper-demo'] }) };
    expect(
      (parseExperimentConfig({ ...good, cohort: { preset: 'nope' } }, env) as { errors: string[] }).errors,
    ).toContain('cohort: unknown preset "nope"; valid names: paper-demo');
    const dup = {
      ...good,
      cohort: { agents: [good.cohort.agents[0], { ...good.cohort.agents[1], id: 'A' }] },
    };
    expect((parseExperimentConfig(dup) as { errors: string[] }).errors.join()).toMatch(
      /agent ids must be unique.*A/,
    );
  });
});

describe('validateExperiment (checkpoints, before any work)', () => {
  it('accepts matching checkpoints', async () => {
    const r = await validateExperiment(good, read);
    expect(r.ok, JSON.stringify(r)).toBe(true);
  });

  it('refuses a missing checkpoint and a family mismatch, together with other problems', async () => {
    const bad = {
      ...good,
      train: { samples: 1 },
      cohort: {
        agents: [
          agentSpec('A', 'lp-nocarry', 1, 'plain', 'ck/nowhere.ckpt'),
          agentSpec('B', 'lp-nocarry', 1, 'plain', 'ck/rope-carry.s1.ckpt'),
        ],
      },
    };
    const r = await validateExperiment(bad, read);
    expect(r.ok).toBe(false);
    const errs = (r as { errors: string[] }).errors.join('\n');
    expect(errs).toMatch(/train\.samples: must be >= 2/);
    expect(errs).toMatch(/cohort agent 0 \(A\): checkpoint ck\/nowhere\.ckpt cannot be read: missing file/);
    expect(errs).toMatch(
      /cohort agent 1 \(B\): checkpoint ck\/rope-carry\.s1\.ckpt holds family "rope-carry", the spec says "lp-nocarry"/,
    );
    expect(errs).toMatch(/has nLayer 1, family 'lp-nocarry' size 's' has 2/);
  });

  it('refuses a checkpoint pretrained on another task', async () => {
    const r = await validateExperiment({ ...good, task: { kind: 'add', digits: 3 } }, read);
    expect((r as { errors: string[] }).errors.join('\n')).toMatch(
      /was pretrained on .*digits":2.*the experiment's task is .*digits":3/,
    );
  });
});
