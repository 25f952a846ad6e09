// The regime candidates' preset text quotes the registered test (docs/results.md): its verdict and each
// method's gain with the 95% interval, as the committed report of the test sweep has them, for each
// preset whose registered cells are all done (a partial preset has no verdict to quote).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REGIME_CANDIDATES } from '../cohort/naturalPresets';
import type { SweepReport } from '../formats/sweep/report';
import { intervalText } from '../formats/sweep/verdict';

/** The label the second test's sweep gives Rule C's pair (experiments/regime/test-rule-c.sweep.json). */
const RULE_C_PRESET = 'Rxs:nat-rope.xs+C24:nat-chunk.s';
const METHODS = ['gt', 'co-rl', 'ttrl', 'random', 'co-rl-frozen'];
const report = (dir: string): SweepReport | null => {
  const file = join(__dirname, '../../experiments/regime', dir, 'report.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as SweepReport) : null;
};

/**
 * A registered test: its sweep folder's report and its base seeds, each run with 2 RL seeds. A base seed is
 * named as the report names it: the agents' seeds joined by "/" where they differ (e.g. "16/116").
 */
const sweep = (dir: string, baseSeeds: (number | string)[]) => ({
  report: report(dir),
  seeds: Object.fromEntries(baseSeeds.map((b) => [b, 2])),
});

describe('the regime candidates', () => {
  it("quote the registered test's committed report once a preset's cells are all done, and only then", () => {
    // each preset's registered test (its sweep folder and base seeds); the report names a preset by the
    // cohort (and task) its cells share
    const test = {
      first: sweep('test', [1, 2, 3, 4]),
      ruleC: sweep('test-rule-c', [17, 18, 19, 20]),
      // the levels admitted by their gates (experiments/regime/PREREG-levels.md): one sweep per level
      muladdwSeedOnly: sweep('test-levels-muladdw-seed-only', [16, 17, 18, 19]),
      muladdwSameFamily: sweep('test-levels-muladdw-same-family', ['16/116', '18/118', '20/120', '24/124']),
      mulwSeedOnly: sweep('test-levels-mulw-seed-only', [17, 18, 19, 20]),
      // admitted later: Rule WA (PREREG-mulw-levels.md), Rule WB (PREREG-mulw-same-family.md)
      mulwDifferentArch: sweep('test-levels-mulw-different-arch', [17, 18, 19, 20]),
      mulwSameFamilyCr4: sweep('test-levels-mulw-same-family-cr4', ['19/119', '20/120', '24/124', '25/125']),
    };
    const key: Record<string, [keyof typeof test, string]> = {
      'nearest-muladdw-different-family': ['first', 'R:nat-rope.s+C:nat-chunk.s'],
      'nearest-addw-different-arch': ['first', 'R:nat-rope.s+D:nat-deep.s, task={"kind":"addw","digits":5}'],
      'regime-muladdw-different-family': ['ruleC', RULE_C_PRESET],
      'regime-muladdw-seed-only': ['muladdwSeedOnly', 'A:nat-chunk.s+B:nat-chunk.s'],
      'regime-muladdw-same-family': ['muladdwSameFamily', 'Ca:nat-chunk.s+Cb:nat-chunk.s'],
      'regime-mulw-seed-only': ['mulwSeedOnly', 'A:nat-chunk.s+B:nat-chunk.s'],
      'regime-mulw-different-arch': ['mulwDifferentArch', 'C32:nat-chunk.s+CR4:nat-chunk.s'],
      'regime-mulw-same-family-cr4': ['mulwSameFamilyCr4', 'Ra:nat-chunk.s+Rb:nat-chunk.s'],
    };
    expect(Object.keys(key).sort()).toEqual(Object.keys(REGIME_CANDIDATES).sort());
    expect(test.first.report, 'the first test is complete and committed').not.toBeNull();
    let quoted = 0;
    for (const [name, p] of Object.entries(REGIME_CANDIDATES)) {
      const t = test[key[name][0]];
      const v = t.report?.registered!.verdicts.find((x) => x.preset === key[name][1]);
      // complete: every method ran on the registered base seeds with 2 RL seeds each
      const complete =
        !!v && METHODS.every((m) => JSON.stringify(v.methods[m]?.seeds) === JSON.stringify(t.seeds));
      const text = p.candidate!.verdict;
      expect(text === undefined, `${name}: a verdict text exactly when its cells are all done`).toBe(
        !complete,
      );
      if (!complete) continue;
      quoted++;
      const m = v!.methods;
      for (const part of [
        v!.ifGatesPassed
          ? `${v!.verdict} (with passed gates the rule would say ${v!.ifGatesPassed.verdict})`
          : `${v!.verdict}:`,
        `Co-RL ${intervalText(m['co-rl'].gain)}`,
        `GT ${intervalText(m.gt.gain)}`,
        `TTRL ${intervalText(m.ttrl.gain)}`,
        `random ${intervalText(m.random.gain)}`,
        `frozen-peer control ${intervalText(v!.coRlMinusFrozen)}`,
      ])
        expect(text, name).toContain(part);
    }
    expect(quoted).toBeGreaterThan(0);
  });
});
