// Each of the seven claims (src/formats/sweep/claims.ts) both ways: cohorts just on the "holds" side of its
// decision, cohorts just on the other side (ties included, as the claims are strict inequalities), and
// the sweeps it cannot judge ("not tested"), so that no verdict can be a constant.
import { describe, expect, it } from 'vitest';
import { checkClaims, type Claim } from './claims';
import { group, type GroupSpec } from './claims.fixture';
import type { GroupEntry } from './groups';

const claim = (n: number, groups: GroupEntry[]): Claim => checkClaims(groups)[n - 1];
const pair = (i: number, label: string, o: Omit<GroupSpec, 'families'> & { families?: string[] }) =>
  group(i, label, { families: ['a', 'b'], ...o });

describe('claim 1: Co-RL beats the base agents', () => {
  it('holds when every cohort gains, not when one gains nothing, not tested without co-rl', () => {
    const up = pair(0, 'p', { gains: { 'co-rl': 0.001 } });
    expect(claim(1, [up, pair(1, 'q', { gains: { 'co-rl': [0.02, 0.04] } })])).toMatchObject({
      status: 'holds',
      figure: 'on 2 of 2 cohorts: p +0.1 (sd 0.0, 1 seeds); q +3.0 (sd 1.4, 2 seeds)',
    });
    expect(claim(1, [up, pair(1, 'q', { gains: { 'co-rl': 0 } })])).toMatchObject({
      status: 'does not hold',
      figure: 'on 1 of 2 cohorts: p +0.1 (sd 0.0, 1 seeds); q +0.0 (sd 0.0, 1 seeds)',
    });
    expect(claim(1, [pair(0, 'p', { gains: { 'co-rl': -0.01 } })]).status).toBe('does not hold');
    expect(claim(1, [pair(0, 'p', { gains: { ttrl: 0.1 } })])).toMatchObject({
      status: 'not tested',
      figure: 'no cohort ran co-rl',
    });
  });
});

describe('claim 2: Co-RL beats every label-free baseline', () => {
  it('holds when co-rl ends above each baseline, not on a tie, not tested without a label-free baseline', () => {
    const g = (ttrl: number) =>
      pair(0, 'p', {
        gains: { 'co-rl': 0.1, ttrl: 0, random: 0 },
        final: { 'co-rl': 0.6, ttrl, random: 0.3 },
      });
    expect(claim(2, [g(0.59)])).toMatchObject({
      status: 'holds',
      figure: '2 of 2 comparisons: p vs ttrl +1.0; p vs random +30.0',
    });
    expect(claim(2, [g(0.6)])).toMatchObject({
      status: 'does not hold',
      figure: '1 of 2 comparisons: p vs ttrl +0.0; p vs random +30.0',
    });
    expect(claim(2, [g(0.7)]).status).toBe('does not hold');
    // gt reads the truth: it is not a label-free baseline
    const onlyGt = pair(0, 'p', { gains: { 'co-rl': 0.1, gt: 0.2 }, final: { 'co-rl': 0.6, gt: 0.2 } });
    expect(claim(2, [onlyGt])).toMatchObject({
      status: 'not tested',
      figure: 'no cohort ran co-rl beside a label-free baseline (ttrl, intuitor, rent, random)',
    });
  });
});

describe('claim 3: different family beats same family', () => {
  const same = (gain: number) => group(0, 'same', { families: ['a', 'a'], gains: { 'co-rl': gain } });
  const diff = (gain: number) => pair(1, 'diff', { gains: { 'co-rl': gain } });
  it('holds when the different-family mean gain is larger, not when equal or smaller', () => {
    expect(claim(3, [same(0.02), diff(0.021)])).toMatchObject({
      status: 'holds',
      figure: 'different family +2.1 points (1 cohorts: diff) vs same family +2.0 points (1: same)',
    });
    expect(claim(3, [same(0.02), diff(0.02)]).status).toBe('does not hold');
    expect(claim(3, [same(0.05), diff(-0.01)])).toMatchObject({
      status: 'does not hold',
      figure: 'different family -1.0 points (1 cohorts: diff) vs same family +5.0 points (1: same)',
    });
  });
  it('averages over the cohorts of each kind', () => {
    const d2 = pair(2, 'diff2', { gains: { 'co-rl': 0.0 } });
    // different: (0.05 + 0) / 2 = 0.025 > 0.02; (0.03 + 0) / 2 = 0.015 < 0.02
    expect(claim(3, [same(0.02), diff(0.05), d2]).status).toBe('holds');
    expect(claim(3, [same(0.02), diff(0.03), d2]).status).toBe('does not hold');
  });
  it('is not tested without both kinds of cohort', () => {
    expect(claim(3, [same(0.02)])).toMatchObject({
      status: 'not tested',
      figure:
        'needs Co-RL on both kinds of cohort; the sweep has 1 same-family and 0 different-family cohorts with Co-RL',
    });
  });
});

describe('claim 4: gains ordered by kappa (rho < 0)', () => {
  const sweep = (gains: number[], kappas = [0.1, 0.2, 0.3]) =>
    gains.map((g, i) => pair(i, `k${i}`, { kappa: kappas[i], gains: { 'co-rl': g } }));
  it('holds when the gain falls as kappa rises, not when it rises or is unordered (rho = 0)', () => {
    expect(claim(4, sweep([0.03, 0.02, 0.01]))).toMatchObject({ status: 'holds' });
    expect(claim(4, sweep([0.03, 0.02, 0.01])).figure).toMatch(/^Spearman rho -1\.00 over 3 cohorts/);
    expect(claim(4, sweep([0.01, 0.02, 0.03]))).toMatchObject({ status: 'does not hold' });
    expect(claim(4, sweep([0.01, 0.02, 0.03])).figure).toMatch(/^Spearman rho 1\.00 over 3 cohorts/);
    // gain ranks 1.5, 3, 1.5 against kappa ranks 1, 2, 3: rho exactly 0
    const flat = claim(4, sweep([0.01, 0.05, 0.01]));
    expect(flat.status).toBe('does not hold');
    expect(flat.figure).toMatch(/^Spearman rho 0\.00 over 3 cohorts/);
  });
  it('is not tested with fewer than 3 cohorts or a constant kappa', () => {
    expect(claim(4, sweep([0.03, 0.02]))).toMatchObject({
      status: 'not tested',
      figure: 'needs at least 3 cohorts with Co-RL whose kappa and gain vary; the sweep has 2',
    });
    expect(claim(4, sweep([0.03, 0.02, 0.01], [0.2, 0.2, 0.2]))).toMatchObject({
      status: 'not tested',
      figure:
        'needs at least 3 cohorts with Co-RL whose kappa and gain vary; the sweep has 3 (a constant kappa or gain)',
    });
    // a cohort without an overlap measurement does not count
    const noKappa = [...sweep([0.03, 0.02]), pair(2, 'x', { gains: { 'co-rl': 0.01 } })];
    expect(claim(4, noKappa).status).toBe('not tested');
  });
});

describe('claim 5: every agent of a ring gains', () => {
  const ring = (agentGain: Record<string, number>) =>
    group(0, 'ring', { families: ['a', 'b', 'c'], gains: { 'co-rl': 0.05 }, agentGain });
  it('holds when all three agents gain, not when one gains nothing or loses', () => {
    expect(claim(5, [ring({ A: 0.01, B: 0.02, C: 0.001 })])).toMatchObject({
      status: 'holds',
      figure: 'on 1 of 1 cohorts: ring A +1.0, B +2.0, C +0.1',
    });
    expect(claim(5, [ring({ A: 0.01, B: 0.02, C: 0 })]).status).toBe('does not hold');
    expect(claim(5, [ring({ A: -0.01, B: 0.02, C: 0.03 })]).status).toBe('does not hold');
  });
  it('does not hold when an agent of the ring has no measured gain', () => {
    expect(claim(5, [ring({ A: 0.01, B: 0.02 })])).toMatchObject({
      status: 'does not hold',
      figure: 'on 0 of 1 cohorts: ring A +1.0, B +2.0, C –',
    });
    expect(claim(5, [ring({})]).status).toBe('does not hold');
  });
  it('is not tested without a cohort of 3 or more agents', () => {
    expect(
      claim(5, [pair(0, 'p', { gains: { 'co-rl': 0.05 }, agentGain: { A: 0.1, B: 0.1 } })]),
    ).toMatchObject({
      status: 'not tested',
      figure: 'no cohort of 3 or more agents ran co-rl',
    });
  });
});

describe('claim 6: the Co-RL ensemble beats the TTRL ensemble', () => {
  const g = (co: number, ttrl: number) =>
    pair(0, 'p', { gains: { 'co-rl': 0, ttrl: 0 }, ens: { base: 0.5, ttrl, 'co-rl': co } });
  it('holds when the co-rl ensemble ends higher, not on a tie or below', () => {
    expect(claim(6, [g(0.71, 0.7)])).toMatchObject({
      status: 'holds',
      figure: 'on 1 of 1 cohorts: p 71.0 vs 70.0 (base 50.0)',
    });
    expect(claim(6, [g(0.7, 0.7)]).status).toBe('does not hold');
    expect(claim(6, [g(0.6, 0.7)]).status).toBe('does not hold');
    expect(claim(6, [g(0.71, 0.7), { ...g(0.6, 0.7), index: 1, label: 'q' }]).status).toBe('does not hold');
  });
  it('is not tested without both ensembles', () => {
    expect(claim(6, [pair(0, 'p', { gains: { 'co-rl': 0, ttrl: 0 } })])).toMatchObject({
      status: 'not tested',
      figure: 'no cohort ran both co-rl and ttrl',
    });
  });
});

describe("claim 7: TTRL's reward std ends below Co-RL's", () => {
  const g = (ttrl: number, co: number) =>
    pair(0, 'p', { gains: { 'co-rl': 0, ttrl: 0 }, std: { ttrl, 'co-rl': co } });
  it('holds when ttrl ends lower, not on a tie or above', () => {
    expect(claim(7, [g(0.4, 0.41)])).toMatchObject({
      status: 'holds',
      figure: 'on 1 of 1 cohorts: p 0.40 vs 0.41',
    });
    expect(claim(7, [g(0.4, 0.4)]).status).toBe('does not hold');
    expect(claim(7, [g(0.9, 0.4)]).status).toBe('does not hold');
  });
  it('is not tested without both reward stds', () => {
    expect(claim(7, [pair(0, 'p', { gains: { 'co-rl': 0, ttrl: 0 } })])).toMatchObject({
      status: 'not tested',
      figure: 'no cohort ran both co-rl and ttrl',
    });
  });
});
