// The claims checklist on hand-made cohorts (holds / does not hold / not tested), Spearman's rho with
// ties, and the checkpoint pre-pass building a missing agent shared by several cells once.
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PUBLIC_DIR } from '../cohort/nodeFiles';
import { checkClaims, spearman } from '../formats/sweep/claims';
import { prepareCheckpoints, type NeededAgent } from './checkpoints';
import { planSweep } from './grid';
import { group } from '../formats/sweep/claims.fixture';

describe('spearman', () => {
  it('is 1 / -1 for monotone data, averages tied ranks, and is null when undefined', () => {
    expect(spearman([1, 2, 3, 4], [10, 20, 30, 45])).toBeCloseTo(1, 12);
    expect(spearman([1, 2, 3, 4], [4, 3, 2, 1])).toBeCloseTo(-1, 12);
    // ranks x: 1, 2.5, 2.5, 4; y: 1, 2, 3, 4 -> r = 4.5 / sqrt(4.5 * 5)
    expect(spearman([0.1, 0.3, 0.3, 0.9], [1, 2, 3, 4])).toBeCloseTo(4.5 / Math.sqrt(4.5 * 5), 12);
    expect(spearman([1, 1, 1], [1, 2, 3])).toBeNull();
    expect(spearman([1], [2])).toBeNull();
  });
});

describe('checkClaims', () => {
  const cohorts = [
    group(0, 'diverse', {
      families: ['a', 'b'],
      kappa: -0.2,
      gains: { 'co-rl': [0.1, 0.14], ttrl: 0.01, random: -0.05 },
      final: { 'co-rl': 0.8, ttrl: 0.6, random: 0.55 },
      ens: { base: 0.7, ttrl: 0.72, 'co-rl': 0.85 },
      std: { ttrl: 0.4, 'co-rl': 0.9 },
    }),
    group(1, 'same', {
      families: ['a', 'a'],
      kappa: 0.5,
      gains: { 'co-rl': -0.02, ttrl: 0.0 },
      final: { 'co-rl': 0.5, ttrl: 0.52 },
      ens: { base: 0.6, ttrl: 0.61, 'co-rl': 0.58 },
      std: { ttrl: 0.3, 'co-rl': 0.5 },
    }),
    group(2, 'ring', {
      families: ['a', 'b', 'c'],
      kappa: 0.1,
      gains: { 'co-rl': 0.05, ttrl: 0.02 },
      final: { 'co-rl': 0.7, ttrl: 0.6 },
      agentGain: { A: 0.02, B: 0.05, C: -0.01 },
      ens: { base: 0.7, ttrl: 0.7, 'co-rl': 0.75 },
      std: { ttrl: 0.2, 'co-rl': 0.6 },
    }),
  ];

  it('gives each claim its verdict and figure', () => {
    const c = checkClaims(cohorts);
    expect(c.map((x) => [x.n, x.status])).toEqual([
      [1, 'does not hold'],
      [2, 'does not hold'],
      [3, 'holds'],
      [4, 'holds'],
      [5, 'does not hold'],
      [6, 'does not hold'],
      [7, 'holds'],
    ]);
    expect(c[0].figure).toBe(
      'on 2 of 3 cohorts: diverse +12.0 (sd 2.8, 2 seeds); same -2.0 (sd 0.0, 1 seeds); ring +5.0 (sd 0.0, 1 seeds)',
    );
    expect(c[1].figure).toBe(
      '3 of 4 comparisons: diverse vs ttrl +20.0; diverse vs random +25.0; same vs ttrl -2.0; ring vs ttrl +10.0',
    );
    expect(c[2].figure).toMatch(
      /^different family \+8\.5 points \(2 cohorts: diverse, ring\) vs same family -2\.0 points \(1: same\)$/,
    );
    expect(c[3].figure).toMatch(
      /^Spearman rho -1\.00 over 3 cohorts .*; Co-RL minus TTRL gain vs kappa: rho -1\.00 over 3 cohorts$/,
    );
    expect(c[4].figure).toBe('on 0 of 1 cohorts: ring A +2.0, B +5.0, C -1.0');
    expect(c[5].figure).toContain('same 58.0 vs 61.0 (base 60.0)');
    expect(c[3].png).toBe('kappa.png');
  });

  it('says "not tested" and why when the sweep lacks what a claim compares', () => {
    const c = checkClaims([cohorts[0]]);
    expect(c[2]).toMatchObject({
      status: 'not tested',
      figure:
        'needs Co-RL on both kinds of cohort; the sweep has 0 same-family and 1 different-family cohorts with Co-RL',
    });
    expect(c[3].status).toBe('not tested');
    expect(c[3].figure).toMatch(
      /^needs at least 3 cohorts with Co-RL whose kappa and gain vary; the sweep has 1/,
    );
    expect(c[4]).toMatchObject({ status: 'not tested', figure: 'no cohort of 3 or more agents ran co-rl' });
    const none = checkClaims([group(0, 'x', { families: ['a', 'b'], gains: { gt: 0.1 } })]);
    expect(none.map((x) => x.status)).toEqual(Array(7).fill('not tested'));
  });
});

describe('checkpoint pre-pass', () => {
  it('builds a missing agent shared by several cells once, then validates every cell with it', async () => {
    const root = mkdtempSync(join(tmpdir(), 'sweep-ckpt-'));
    try {
      // a public/ copy without rope-carry.s.s2 (agent B of same-family)
      mkdirSync(join(root, 'checkpoints/add-d2'), { recursive: true });
      for (const f of ['lp-nocarry.s.s1', 'rope-carry.s.s1'])
        copyFileSync(
          join(PUBLIC_DIR, `checkpoints/add-d2/${f}.ckpt`),
          join(root, `checkpoints/add-d2/${f}.ckpt`),
        );
      const r = planSweep({
        steps: 1,
        methods: ['co-rl'],
        cohort: { preset: 'paper-demo' },
        grid: { 'cohort.preset': ['same-family', 'paper-demo'], seed: [1, 2, 3] },
      });
      if (!r.ok) throw new Error(r.errors.join('; '));
      const built: NeededAgent[] = [];
      const builder = async (need: NeededAgent, dir: string): Promise<void> => {
        built.push(need);
        copyFileSync(join(PUBLIC_DIR, need.spec.checkpoint), join(dir, need.spec.checkpoint));
      };
      expect(await prepareCheckpoints(r.plan.cells, { root, builder, log: () => {} })).toEqual([]);
      expect(built.map((b) => [b.spec.checkpoint, b.cells])).toEqual([
        ['checkpoints/add-d2/rope-carry.s.s2.ckpt', [0, 1, 2]],
      ]);
      expect(await prepareCheckpoints(r.plan.cells, { root, builder, log: () => {} })).toEqual([]);
      expect(built).toHaveLength(1); // nothing missing the second time
      // a builder that cannot build: every cell needing it is named, nothing else is checked
      rmSync(join(root, 'checkpoints/add-d2/rope-carry.s.s2.ckpt'));
      const errs = await prepareCheckpoints(r.plan.cells, {
        root,
        builder: async () => {
          throw new Error('no cache here');
        },
        log: () => {},
      });
      expect(errs).toEqual(['cells 0, 1, 2: agent B: no cache here']);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
