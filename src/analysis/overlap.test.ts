// Tests for pair overlap metrics (cells, kappa, c, u, w) against hand-computed tables, incl. degenerate cases.
import { describe, expect, it } from 'vitest';
import { overlapMatrix, pairOverlap, type AgentScores } from './overlap';

const bits = (s: string): boolean[] => s.split('').map((ch) => ch === '1');
const agent = (correct: string, answers: (string | null)[], name?: string): AgentScores => ({
  name,
  correct: bits(correct),
  answers,
});

describe('pairOverlap', () => {
  it('matches a hand-computed 10-problem table', () => {
    // cells: bothRight 4 (0-3), onlyA 2 (4-5), onlyB 1 (6), bothWrong 3 (7-9)
    const a = agent('1111110000', ['1', '2', '3', '4', '5', '6', '9', '5', '6', null]);
    const b = agent('1111001000', ['1', '2', '3', '4', '0', '0', '7', '5', '7', null]);
    const o = pairOverlap(a, b);
    expect(o.counts).toEqual({ bothRight: 4, onlyA: 2, onlyB: 1, bothWrong: 3 });
    expect(o.accA).toBeCloseTo(0.6, 12);
    expect(o.accB).toBeCloseTo(0.5, 12);
    expect(o.observedAgreement).toBeCloseTo(0.7, 12);
    // expected = 0.6*0.5 + 0.4*0.5 = 0.5; kappa = (0.7-0.5)/(1-0.5) = 0.4
    expect(o.expectedAgreement).toBeCloseTo(0.5, 12);
    expect(o.kappa).toBeCloseTo(0.4, 12);
    expect(o.kappaDegenerate).toBe(false);
    expect(o.c).toBeCloseTo(0.3, 12);
    expect(o.u).toBeCloseTo(0.7, 12);
    // only problem 7 is both-wrong with the same non-null answer; null/null (9) does not count
    expect(o.w).toBeCloseTo(0.1, 12);
  });

  it('a second table: kappa with unequal marginals', () => {
    // P = 8: bothRight 1, onlyA 3, onlyB 1, bothWrong 3 -> accA 0.5, accB 0.25, po 0.5,
    // pe = 0.5*0.25 + 0.5*0.75 = 0.5 -> kappa 0; c = 0.5, u = 0.625
    const a = agent('11110000', Array(8).fill('x'));
    const b = agent('10001000', ['1', '2', '3', '4', '5', 'x', 'x', 'y']);
    const o = pairOverlap(a, b);
    expect(o.kappa).toBeCloseTo(0, 12);
    expect([o.c, o.u]).toEqual([0.5, 0.625]);
    expect(o.w).toBeCloseTo(2 / 8, 12);
  });

  it('identical non-constant agents: kappa 1, c 0, u = accuracy', () => {
    const a = agent('1100', ['1', '2', '9', '8']);
    const o = pairOverlap(a, a);
    expect(o.kappa).toBe(1);
    expect(o.kappaDegenerate).toBe(false);
    expect([o.c, o.u, o.w]).toEqual([0, 0.5, 0.5]);
  });

  it('perfectly opposite agents: kappa -1, c 1, u 1, w 0', () => {
    const o = pairOverlap(agent('1100', ['a', 'b', 'c', 'd']), agent('0011', ['a', 'b', 'c', 'd']));
    expect(o.kappa).toBeCloseTo(-1, 12);
    expect([o.c, o.u, o.w]).toEqual([1, 1, 0]);
  });

  it('degenerate: both always right -> kappa defined as 1 with the flag set', () => {
    const o = pairOverlap(agent('111', ['1', '2', '3']), agent('111', ['1', '2', '3']));
    expect(o.expectedAgreement).toBe(1);
    expect(o.kappa).toBe(1);
    expect(o.kappaDegenerate).toBe(true);
    expect([o.c, o.u, o.w]).toEqual([0, 1, 0]);
  });

  it('degenerate: both always wrong -> kappa 1, flag set, w counts same wrong answers', () => {
    const o = pairOverlap(agent('000', ['5', null, '7']), agent('000', ['5', null, '8']));
    expect(o.kappa).toBe(1);
    expect(o.kappaDegenerate).toBe(true);
    expect([o.c, o.u]).toEqual([0, 0]);
    expect(o.w).toBeCloseTo(1 / 3, 12);
  });

  it('one agent always right, the other not: kappa 0 (not degenerate)', () => {
    const o = pairOverlap(agent('1111', ['1', '2', '3', '4']), agent('1100', ['1', '2', '0', '0']));
    expect(o.kappa).toBe(0);
    expect(o.kappaDegenerate).toBe(false);
    expect(o.u).toBe(1);
  });

  it('rejects mismatched or empty inputs', () => {
    expect(() => pairOverlap(agent('1', ['1']), agent('10', ['1', '2']))).toThrow(
      /different numbers of problems: 1 vs 2/,
    );
    expect(() => pairOverlap(agent('', []), agent('', []))).toThrow(/at least one problem/);
    expect(() => pairOverlap(agent('11', ['1']), agent('11', ['1', '1']))).toThrow(
      /correct has 2 entries but answers has 1/,
    );
  });
});

describe('overlapMatrix', () => {
  it('fills a symmetric N x N matrix and lists each pair once', () => {
    const agents = [
      agent('1111110000', ['1', '2', '3', '4', '5', '6', '9', '5', '6', null], 'A'),
      agent('1111001000', ['1', '2', '3', '4', '0', '0', '7', '5', '7', null], 'B'),
      agent('0000111111', Array(10).fill('z'), 'C'),
    ];
    const m = overlapMatrix(agents);
    expect(m.names).toEqual(['A', 'B', 'C']);
    expect(m.accuracy).toEqual([0.6, 0.5, 0.6]);
    expect(m.pairs.map((p) => [p.i, p.j])).toEqual([
      [0, 1],
      [0, 2],
      [1, 2],
    ]);
    expect(m.kappa[0][1]).toBeCloseTo(0.4, 12);
    expect(m.kappa[1][0]).toBe(m.kappa[0][1]);
    for (let i = 0; i < 3; i++) {
      expect(m.kappa[i][i]).toBe(1);
      expect(m.c[i][i]).toBe(0);
      expect(m.u[i][i]).toBe(m.accuracy[i]);
    }
    expect(m.u[0][2]).toBe(1);
    expect(m.w[0][1]).toBeCloseTo(0.1, 12);
    expect(() => overlapMatrix([])).toThrow(/at least one agent/);
  });
});
