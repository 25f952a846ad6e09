// Tests for the overlap panel's data: a hand-computed 2x2 example, three agents' pair order, records
// without (or with malformed) per-problem answers, and which evaluations "before" and "now" show.
import { describe, expect, it } from 'vitest';
import type { AgentEvalRecord, EvalRecord } from '../../rl/records';
import type { RewardMethod } from '../../rl/rewards';
import type { RunMetrics } from '../../formats/runMetrics';
import { decodeBits, overlapSnapshot, overlapViewData } from './overlapData';

const agent = (id: string, correct: string, answers: (string | null)[]): AgentEvalRecord => ({
  agent: id,
  greedyAccuracy: 0,
  sampledAccuracy: 0,
  majAccuracy: 0,
  parseableFraction: 0,
  greedyCorrect: correct,
  greedyAnswers: answers,
});
const rec = (method: RewardMethod, step: number, agents: AgentEvalRecord[]): EvalRecord => ({
  method,
  step,
  problems: agents[0].greedyCorrect!.length,
  agents,
  meanGreedyAccuracy: 0,
  ensembleAccuracy: 0,
  oracleAccuracy: 0,
  seconds: 0,
});

// Problems 0..7 (truth 't'). A right on 0,1,2,6; B right on 0,1,3. Both wrong on 4, 5, 7:
// on 4 they give the same wrong answer '3', on 5 different ones, on 7 neither parses (null never agrees).
const A = agent('A', '11100010', ['t', 't', 't', 'x', '3', '9', 't', null]);
const B = agent('B', '11010000', ['t', 't', 'y', 't', '3', '8', 'z', null]);

describe('overlapSnapshot', () => {
  it('a hand-computed pair: cells 2/2/1/3, kappa 0.25, c 3/8, u 5/8, w 1/8', () => {
    const r = overlapSnapshot(rec('co-rl', 0, [A, B]));
    if (!r.ok) throw new Error(r.reason);
    expect(r.snapshot.agents).toEqual([
      { id: 'A', accuracy: 0.5 },
      { id: 'B', accuracy: 0.375 },
    ]);
    expect(r.snapshot.pairs).toHaveLength(1);
    const { a, b, overlap: o } = r.snapshot.pairs[0];
    expect([a, b]).toEqual(['A', 'B']);
    expect(o.counts).toEqual({ bothRight: 2, onlyA: 2, onlyB: 1, bothWrong: 3 });
    // observed (2+3)/8 = 0.625; chance 0.5*0.375 + 0.5*0.625 = 0.5; kappa (0.625-0.5)/(1-0.5) = 0.25
    expect(o.observedAgreement).toBe(0.625);
    expect(o.expectedAgreement).toBe(0.5);
    expect(o.kappa).toBeCloseTo(0.25, 12);
    expect(o.c).toBe(3 / 8);
    expect(o.u).toBe(5 / 8);
    expect(o.w).toBe(1 / 8);
  });

  it('three agents give the pairs AB, AC, BC', () => {
    const C = agent('C', '00000000', Array<string | null>(8).fill('q'));
    const r = overlapSnapshot(rec('ttrl', 4, [A, B, C]));
    if (!r.ok) throw new Error(r.reason);
    expect(r.snapshot.pairs.map((p) => p.a + p.b)).toEqual(['AB', 'AC', 'BC']);
    // C always wrong: kappa 0 against A (chance agreement), and B and C both wrong on 2, 4, 5, 6, 7
    expect(r.snapshot.pairs[1].overlap.kappa).toBe(0);
    expect(r.snapshot.pairs[2].overlap.counts.bothWrong).toBe(5);
  });

  it('refuses records without or with malformed per-problem answers, naming the agent', () => {
    const old: AgentEvalRecord = {
      agent: 'B',
      greedyAccuracy: 0.4,
      sampledAccuracy: 0,
      majAccuracy: 0,
      parseableFraction: 1,
    };
    const r1 = overlapSnapshot({ ...rec('gt', 10, [A, B]), agents: [A, old] });
    expect(r1).toEqual({ ok: false, reason: expect.stringMatching(/step 10 .*agent B .*older version/) });
    const r2 = overlapSnapshot(rec('gt', 10, [A, { ...B, greedyCorrect: '1101000' }]));
    expect(r2).toEqual({
      ok: false,
      reason: expect.stringMatching(/malformed .*agent B .*8 answers and 8 0\/1 marks/),
    });
    const r3 = overlapSnapshot(rec('gt', 10, [A]));
    expect(r3).toEqual({ ok: false, reason: 'error overlap needs at least 2 agents' });
  });

  it('decodeBits accepts only a 0/1 string of the right length', () => {
    expect(decodeBits('101', 3)).toEqual([true, false, true]);
    expect(decodeBits('102', 3)).toBeNull();
    expect(decodeBits('10', 3)).toBeNull();
    expect(decodeBits([1, 0, 1], 3)).toBeNull();
  });
});

describe('overlapViewData', () => {
  // A and B swap roles after training under co-rl, so before and now differ
  const co0 = rec('co-rl', 0, [A, B]);
  const co3 = rec('co-rl', 3, [agent('A', '11111111', Array<string | null>(8).fill('t')), B]);
  const tt0 = { ...co0, method: 'ttrl' as const };
  const metrics = (evals: RunMetrics['evals']): RunMetrics => ({
    runId: 1,
    methods: ['co-rl', 'ttrl', 'gt'],
    steps: {},
    evals,
  });

  it('nothing before the first evaluation', () => {
    expect(overlapViewData(metrics({}), null)).toEqual({
      methods: [],
      method: null,
      before: null,
      now: null,
    });
  });

  it('before = step 0, now = the latest evaluation of the chosen method (else the first with evaluations)', () => {
    const m = metrics({ 'co-rl': [co0, co3], ttrl: [tt0] });
    const d = overlapViewData(m, null);
    expect(d.methods).toEqual(['co-rl', 'ttrl']);
    expect(d.method).toBe('co-rl');
    expect(d.before?.ok && d.before.snapshot.step).toBe(0);
    expect(d.now?.ok && [d.now.snapshot.method, d.now.snapshot.step]).toEqual(['co-rl', 3]);
    expect(d.now?.ok && d.now.snapshot.pairs[0].overlap.counts).toEqual({
      bothRight: 3,
      onlyA: 5,
      onlyB: 0,
      bothWrong: 0,
    });
    const t = overlapViewData(m, 'ttrl');
    expect(t.now?.ok && [t.now.snapshot.method, t.now.snapshot.step]).toEqual(['ttrl', 0]);
    // a method without evaluations falls back to the first that has some
    expect(overlapViewData(m, 'gt').method).toBe('co-rl');
  });

  it("uses another method's step-0 evaluation when the chosen one has none", () => {
    const d = overlapViewData(metrics({ 'co-rl': [co0], gt: [rec('gt', 5, [A, B])] }), 'gt');
    expect(d.before?.ok && [d.before.snapshot.method, d.before.snapshot.step]).toEqual(['co-rl', 0]);
    expect(d.now?.ok && d.now.snapshot.step).toBe(5);
  });
});
