// Tests of the live phase portrait's counts that evaluateCohort records (portraitRight, S samples per agent
// and held-out problem at the rollout temperature), on tiny pretrained agents (CPU backend): in range, the
// same for the same seed and step, different draws at another step, and off when S is 0.
import { beforeAll, describe, expect, it } from 'vitest';
import { CpuBackend } from '../engine/cpu/cpuBackend';
import { makeTask } from '../tasks';
import { evaluateCohort, type EvaluateOptions } from './evaluate';
import { toyAgent, TOY_TASK, toyCohort, type ToyAgent } from './toyAgents';

const be = new CpuBackend();
const task = makeTask(TOY_TASK);
let toys: ToyAgent[] = [];
const S = 8;
const opts = (step: number, portraitSamples = S): EvaluateOptions => ({
  method: 'co-rl',
  step,
  seed: 5,
  ensembleSamples: 2,
  temperature: 0.6,
  maxNewTokens: [4, 4],
  portraitSamples,
  portraitTemperature: 1,
});

beforeAll(async () => {
  toys = await toyCohort(60);
}, 60_000);

describe('evaluateCohort portrait counts', () => {
  it('one count in [0, S] per problem and agent, reproducible, fresh draws at another step, absent when off', async () => {
    const agents = toys.map((t) => toyAgent(be, t));
    const ps = task.evalSet(20);
    const a = await evaluateCohort(agents, ps, opts(3));
    expect(a.portraitSamples).toBe(S);
    for (const r of a.agents) {
      expect(r.portraitRight).toHaveLength(ps.length);
      expect(r.portraitRight!.every((c) => Number.isInteger(c) && c >= 0 && c <= S)).toBe(true);
    }
    // samples at T = 1 from agents that are neither always right nor always wrong: some p strictly inside (0, 1)
    const inside = a.agents.flatMap((r) => r.portraitRight!).filter((c) => c > 0 && c < S).length;
    expect(inside).toBeGreaterThan(0);
    const again = await evaluateCohort(agents, ps, opts(3));
    expect(again.agents.map((r) => r.portraitRight)).toEqual(a.agents.map((r) => r.portraitRight));
    const later = await evaluateCohort(agents, ps, opts(4));
    expect(later.agents.map((r) => r.portraitRight)).not.toEqual(a.agents.map((r) => r.portraitRight));
    // the other figures do not depend on the portrait samples
    const off = await evaluateCohort(agents, ps, opts(3, 0));
    expect(off.portraitSamples).toBeUndefined();
    expect(off.agents.every((r) => r.portraitRight === undefined)).toBe(true);
    expect({ ...off, seconds: 0 }).toEqual({
      ...a,
      seconds: 0,
      portraitSamples: undefined,
      agents: a.agents.map(({ portraitRight: _p, ...rest }) => rest),
    });
  }, 120_000);
});
