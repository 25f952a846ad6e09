// Run files carry the live portrait's counts (EvalRecord.portraitSamples, AgentEvalRecord.portraitRight):
// they round-trip, and counts out of range, of the wrong length or without their S are refused by field.
import { describe, expect, it } from 'vitest';
import { good } from './runFile.fixture';
import { parseRunFile } from './runFile';

function withCounts(counts: unknown, S: unknown = 8) {
  const f = good();
  const e = f.metrics.evals['co-rl']![1];
  if (S === null) delete e.portraitSamples;
  else (e as { portraitSamples?: unknown }).portraitSamples = S;
  (e.agents[0] as { portraitRight?: unknown }).portraitRight = counts;
  return JSON.stringify(f);
}

describe('run files with portrait counts', () => {
  it('round-trip', () => {
    const r = parseRunFile(withCounts([0, 8, 3, 5]));
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.run.metrics.evals['co-rl']![1].agents[0].portraitRight).toEqual([0, 8, 3, 5]);
  });
  it('are refused out of range, of the wrong length, or without S', () => {
    const at = 'metrics.evals.co-rl[1].agents[0].portraitRight';
    expect(parseRunFile(withCounts([0, 9, 3, 5]))).toEqual({
      ok: false,
      errors: [`${at}[1]: must be an integer in [0, 8], got 9`],
    });
    expect(parseRunFile(withCounts([0, 1]))).toEqual({
      ok: false,
      errors: [`${at}: must be an array of 4 counts, got [0,1]`],
    });
    expect(parseRunFile(withCounts([0, 1, 2, 3], null))).toEqual({
      ok: false,
      errors: [
        `${at}: needs the record's portraitSamples (an integer in [1, 64]), got nothing (the field is missing)`,
      ],
    });
  });
});
