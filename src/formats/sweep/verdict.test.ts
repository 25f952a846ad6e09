// The registered verdict rule on synthetic runs: every verdict from both sides of each threshold (Co-RL
// gain's lower bound, 30% of GT, Co-RL minus co-rl-frozen's lower bound, the +1 point upper bound, the
// gate flag), RL seeds averaged within a base seed before the interval, pairing by base seed, and the
// refusals of bad input.
import { describe, expect, it } from 'vitest';
import { tQuantile } from './tdist';
import { presetFigures, tInterval, verdictOf, verdicts, type VerdictRun } from './verdict';

const SEEDS = ['1', '2', '3'];
/** Runs of `preset` with the given gain per base seed (2 RL seeds each, the same gain). Base 0.5. */
function runs(preset: string, gains: Record<string, number[]>, rlSeeds = [1, 2]): VerdictRun[] {
  return Object.entries(gains).flatMap(([method, gs]) =>
    gs.flatMap((g, i) =>
      rlSeeds.map((rlSeed) => ({ preset, baseSeed: SEEDS[i], rlSeed, method, base: 0.5, final: 0.5 + g })),
    ),
  );
}
const T2 = tQuantile(0.975, 2); // 4.303: three base seeds
const verdict = (gains: Record<string, number[]>, failed = false) =>
  verdictOf(presetFigures('P', runs('P', gains)), failed);
// a case that is shown: Co-RL gain +3 [+0.5, +5.5], GT +9.9, Co-RL minus frozen +2 [+2, +2]
const SHOWN = {
  'co-rl': [0.02, 0.03, 0.04],
  gt: [0.089, 0.099, 0.109],
  'co-rl-frozen': [0.0, 0.01, 0.02],
  ttrl: [0.0, 0.01, 0.0],
};

describe('tInterval', () => {
  it('is mean +- t(0.975, n-1) sd / sqrt(n), and open below 2 values', () => {
    const i = tInterval([0.02, 0.03, 0.04]);
    expect(i.mean).toBeCloseTo(0.03, 14);
    expect(i.sd).toBeCloseTo(0.01, 14);
    expect(i.lo).toBeCloseTo(0.03 - (T2 * 0.01) / Math.sqrt(3), 12);
    expect(i.hi).toBeCloseTo(0.03 + (T2 * 0.01) / Math.sqrt(3), 12);
    expect(tInterval([0.05])).toEqual({ mean: 0.05, sd: 0, n: 1, lo: null, hi: null });
  });
});

describe('presetFigures', () => {
  it('averages the RL seeds within a base seed before the interval over base seeds', () => {
    const rs: VerdictRun[] = [
      { preset: 'P', baseSeed: 'a', rlSeed: 1, method: 'co-rl', base: 0.4, final: 0.4 },
      { preset: 'P', baseSeed: 'a', rlSeed: 2, method: 'co-rl', base: 0.4, final: 0.44 },
      { preset: 'P', baseSeed: 'b', rlSeed: 1, method: 'co-rl', base: 0.6, final: 0.66 },
    ];
    const f = presetFigures('P', rs).methods['co-rl'];
    // base-seed gains 0.02 and 0.06: mean 0.04, sd 0.02*sqrt(2), half t(0.975,1) * sd / sqrt(2)
    expect(f.gain.n).toBe(2);
    expect(f.gain.mean).toBeCloseTo(0.04, 12);
    expect(f.gain.lo).toBeCloseTo(0.04 - 12.7062047 * 0.02, 6);
    expect(f.base.mean).toBeCloseTo(0.5, 12);
    expect(f.final.mean).toBeCloseTo(0.54, 12);
    expect(f.seeds).toEqual({ a: 2, b: 1 });
  });

  it('pairs Co-RL with co-rl-frozen by base seed, over the base seeds that ran both', () => {
    const rs = [
      ...runs('P', { 'co-rl': [0.05, 0.03, 0.04] }),
      ...runs('P', { 'co-rl-frozen': [0.01, 0.02] }), // base seeds 1 and 2 only
    ];
    const d = presetFigures('P', rs).coRlMinusFrozen!;
    expect(d.n).toBe(2);
    expect(d.mean).toBeCloseTo((0.04 + 0.01) / 2, 12);
    expect(presetFigures('P', runs('P', { 'co-rl': [0.1, 0.1] })).coRlMinusFrozen).toBeNull();
  });

  it('refuses a run given twice and an accuracy outside [0, 1]', () => {
    const r = runs('P', { 'co-rl': [0.1] }, [1]);
    expect(() => presetFigures('P', [...r, ...r])).toThrow(/P base seed 1 RL seed 1 co-rl: given twice/);
    expect(() => presetFigures('P', [{ ...r[0], final: 1.2 }])).toThrow(
      /final must be an accuracy in \[0, 1\], got 1.2/,
    );
  });
});

describe('verdictOf', () => {
  it('shown when all three tests pass; out of regime whatever the figures when the gate failed', () => {
    const v = verdict(SHOWN);
    expect(v.verdict).toBe('shown');
    expect(v.notes).toEqual([]);
    expect(v.methods.ttrl.gain.mean).toBeCloseTo(0.01 / 3, 12); // other methods are reported beside
    expect(verdict(SHOWN, true).verdict).toBe('out of regime');
    expect(v.ifGatesPassed).toBeUndefined();
  });

  it('out of regime carries, beside it, what the rule would say had the gates passed (not evidence)', () => {
    expect(verdict(SHOWN, true).ifGatesPassed).toEqual({ verdict: 'shown', why: verdict(SHOWN).why });
    const low = { ...SHOWN, 'co-rl': [-0.004, -0.002, 0.0] };
    expect(verdict(low, true).ifGatesPassed?.verdict).toBe('refuted');
    const above = { ...SHOWN, 'co-rl': [0.0, 0.004, 0.008] };
    expect(verdict(above, true).ifGatesPassed?.verdict).toBe('inconclusive');
  });

  it("Co-RL gain's lower bound: just above 0 is shown, just below is inconclusive", () => {
    expect(verdict(SHOWN).methods['co-rl'].gain.lo).toBeGreaterThan(0); // +0.52
    const below = verdict({
      'co-rl': [0.01, 0.025, 0.04],
      gt: [0.05, 0.06, 0.07],
      'co-rl-frozen': [-0.01, 0.005, 0.02],
    });
    expect(below.methods['co-rl'].gain.lo).toBeLessThan(0);
    // the other two tests pass: only the lower bound decides
    expect(below.why).toMatch(/lower bound > 0: no\).*\(yes\).*lower bound > 0: yes\)$/);
    expect(below.verdict).toBe('inconclusive');
  });

  it('30% of GT: a Co-RL mean gain of 0.3 x 9.9 passes, of 0.3 x 10.1 does not', () => {
    expect(verdict({ ...SHOWN, gt: [0.089, 0.099, 0.109] }).verdict).toBe('shown');
    const v = verdict({ ...SHOWN, gt: [0.091, 0.101, 0.111] });
    expect(v.verdict).toBe('inconclusive');
    expect(v.why).toContain("vs 0.3 x GT's +10.1 (no)");
    expect(verdict({ 'co-rl': SHOWN['co-rl'], 'co-rl-frozen': SHOWN['co-rl-frozen'] }).verdict).toBe(
      'inconclusive',
    ); // no GT run: the share cannot be checked
  });

  it('Co-RL minus co-rl-frozen: the paired lower bound above 0 is shown, below 0 is inconclusive', () => {
    const below = verdict({ ...SHOWN, 'co-rl-frozen': [0.01, 0.0, 0.03] }); // d +1, +3, +1
    expect(below.coRlMinusFrozen!.mean).toBeGreaterThan(0);
    expect(below.coRlMinusFrozen!.lo).toBeLessThan(0);
    expect(below.verdict).toBe('inconclusive');
    const { 'co-rl-frozen': _f, ...noFrozen } = SHOWN;
    const v = verdict(noFrozen);
    expect(v.verdict).toBe('inconclusive');
    expect(v.notes).toContain('no co-rl-frozen runs');
  });

  it("refuted when the gain's upper bound is below +1 point; inconclusive just above; out of regime on a failed gate", () => {
    const low = { ...SHOWN, 'co-rl': [-0.004, -0.002, 0.0] }; // hi = -0.2 + 0.5 = +0.30
    expect(verdict(low).methods['co-rl'].gain.hi).toBeLessThan(0.01);
    expect(verdict(low).verdict).toBe('refuted');
    expect(verdict(low, true).verdict).toBe('out of regime');
    const above = verdict({ ...SHOWN, 'co-rl': [0.0, 0.004, 0.008] }); // hi = +0.4 + 1.0 = +1.39
    expect(above.methods['co-rl'].gain.hi).toBeGreaterThan(0.01);
    expect(above.verdict).toBe('inconclusive');
  });

  it('a real but small gain (interval inside (0, +1)) is shown, checked first, and says so', () => {
    const v = verdict({ 'co-rl': [0.004, 0.005, 0.006], gt: [0.01, 0.01, 0.01], 'co-rl-frozen': [0, 0, 0] });
    expect(v.methods['co-rl'].gain.lo).toBeGreaterThan(0);
    expect(v.methods['co-rl'].gain.hi).toBeLessThan(0.01);
    expect(v.verdict).toBe('shown');
    expect(v.why).toContain('a real but small gain');
  });

  it('one base seed gives no interval: inconclusive, with the design shortfall noted', () => {
    const v = verdictOf(
      presetFigures('P', runs('P', { 'co-rl': [0.2], gt: [0.3], 'co-rl-frozen': [0] }, [1])),
      false,
    );
    expect(v.methods['co-rl'].gain.lo).toBeNull();
    expect(v.verdict).toBe('inconclusive');
    expect(v.notes).toContain('co-rl: 1 base seed (the design asks 3)');
    expect(v.notes).toContain('co-rl: fewer than 2 RL seeds for base seed 1');
  });
});

describe('verdicts', () => {
  it('gives one verdict per preset, in order, with the gate flags by preset', () => {
    const rs = [
      ...runs('A', SHOWN),
      ...runs('B', SHOWN),
      ...runs('C', { ...SHOWN, 'co-rl': [-0.004, -0.002, 0] }),
    ];
    expect(verdicts(rs, new Set(['B'])).map((v) => [v.preset, v.verdict])).toEqual([
      ['A', 'shown'],
      ['B', 'out of regime'],
      ['C', 'refuted'],
    ]);
  });
});
