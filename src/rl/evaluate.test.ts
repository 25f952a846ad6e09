// Tests for the per-problem greedy answers and correctness that evaluateCohort records per agent (the
// error-overlap view's input), on tiny pretrained agents (CPU backend): they agree with an independent
// greedy scorer, with the record's own accuracies, and with the oracle accuracy; and survive JSON.
import { beforeAll, describe, expect, it } from 'vitest';
import { pairOverlap } from '../analysis/overlap';
import { greedyScores } from '../cohort/evaluate';
import { CpuBackend } from '../engine/cpu/cpuBackend';
import { makeTask } from '../tasks';
import { evaluateCohort } from './evaluate';
import type { EvalRecord } from './records';
import { toyAgent, TOY_TASK, toyCohort, type ToyAgent } from './toyAgents';

const be = new CpuBackend();
const task = makeTask(TOY_TASK);
let toys: ToyAgent[] = [];
const MAX_NEW = 4;

beforeAll(async () => {
  toys = await toyCohort(60);
}, 60_000);

describe('evaluateCohort per-problem greedy answers', () => {
  let rec: EvalRecord;
  const problems = () => task.evalSet(24);

  beforeAll(async () => {
    const agents = toys.map((t) => toyAgent(be, t));
    rec = await evaluateCohort(agents, problems(), {
      method: 'co-rl',
      step: 0,
      seed: 5,
      ensembleSamples: 2,
      temperature: 0.6,
      maxNewTokens: [MAX_NEW, MAX_NEW],
    });
  }, 60_000);

  it('records one answer and one 0/1 bit per held-out problem, consistent with the accuracies', () => {
    const ps = problems();
    expect(rec.problems).toBe(ps.length);
    for (const a of rec.agents) {
      expect(a.greedyAnswers).toHaveLength(ps.length);
      expect(a.greedyCorrect).toMatch(new RegExp(`^[01]{${ps.length}}$`));
      const bits = [...a.greedyCorrect!].map((c) => c === '1');
      expect(bits).toEqual(a.greedyAnswers!.map((x, i) => x !== null && x === ps[i].answer));
      expect(bits.filter(Boolean).length / ps.length).toBe(a.greedyAccuracy);
      expect(a.greedyAnswers!.filter((x) => x !== null).length / ps.length).toBe(a.parseableFraction);
    }
    // toy agents that are neither always right nor always wrong, so the check above has teeth
    const acc = rec.agents.map((a) => a.greedyAccuracy);
    expect(
      acc.some((x) => x > 0 && x < 1),
      `accuracies ${acc}`,
    ).toBe(true);
  });

  it('the answers match an independent greedy scorer of the same agents', async () => {
    for (const [n, t] of toys.entries()) {
      const agent = toyAgent(be, t);
      const s = await greedyScores(agent.model, agent.tokenizer, agent.spec.view, problems(), MAX_NEW);
      expect(rec.agents[n].greedyAnswers).toEqual(s.answers);
      expect(rec.agents[n].greedyCorrect).toBe(s.correct.map((c) => (c ? '1' : '0')).join(''));
    }
  });

  it('the pair overlap computed from the record gives its oracle accuracy, and JSON keeps it intact', () => {
    const back = JSON.parse(JSON.stringify(rec)) as EvalRecord;
    expect(back).toEqual(rec);
    const [a, b] = back.agents.map((x) => ({
      correct: [...x.greedyCorrect!].map((c) => c === '1'),
      answers: x.greedyAnswers!,
    }));
    const o = pairOverlap(a, b);
    expect(o.u).toBeCloseTo(rec.oracleAccuracy, 12);
    expect(o.accA).toBe(rec.agents[0].greedyAccuracy);
    expect(o.accB).toBe(rec.agents[1].greedyAccuracy);
  });
});
