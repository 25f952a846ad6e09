// The regime candidates' preset text quotes the registered test (docs/results.md): its verdict and each
// method's gain with the 95% interval, as the committed report of the test sweep has them, for each
// preset whose registered cells are all done (a partial preset has no verdict to quote).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REGIME_CANDIDATES } from '../cohort/naturalPresets';
import type { SweepReport } from '../formats/sweep/report';
import { intervalText } from '../formats/sweep/verdict';

const METHODS = ['gt', 'co-rl', 'ttrl', 'random', 'co-rl-frozen'];
const REPORT = join(__dirname, '../../experiments/regime/test/report.json');

describe('the regime candidates', () => {
  it("quote the registered test's committed report once a preset's cells are all done, and only then", () => {
    const report = JSON.parse(readFileSync(REPORT, 'utf8')) as SweepReport;
    // the report names a preset by the cohort (and task) its cells share
    const key: Record<string, string> = {
      'nearest-muladdw-different-family': 'R:nat-rope.s+C:nat-chunk.s',
      'nearest-addw-different-arch': 'R:nat-rope.s+D:nat-deep.s, task={"kind":"addw","digits":5}',
    };
    expect(Object.keys(key).sort()).toEqual(Object.keys(REGIME_CANDIDATES).sort());
    let quoted = 0;
    for (const [name, p] of Object.entries(REGIME_CANDIDATES)) {
      const v = report.registered!.verdicts.find((x) => x.preset === key[name]);
      // complete: every method ran on the 4 registered base seeds with 2 RL seeds each
      const complete =
        !!v &&
        METHODS.every(
          (m) => JSON.stringify(v.methods[m]?.seeds) === JSON.stringify({ 1: 2, 2: 2, 3: 2, 4: 2 }),
        );
      const text = p.candidate!.verdict;
      expect(text === undefined, `${name}: a verdict text exactly when its cells are all done`).toBe(
        !complete,
      );
      if (!complete) continue;
      quoted++;
      const m = v!.methods;
      for (const part of [
        `${v!.verdict} (with passed gates the rule would say ${v!.ifGatesPassed!.verdict})`,
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
