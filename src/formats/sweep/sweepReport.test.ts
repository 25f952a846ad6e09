// Unit tests of the page's sweep report reader (sweepReport.ts): a good report and cell, refused formats,
// every problem of a damaged report named by field, and cell records going through the run-file checks.
import { describe, expect, it } from 'vitest';
import { syntheticSweep } from '../../../e2e/labFixtures';
import { cellAsRun, validateSweepReport } from './sweepReport';

describe('sweep report reader', () => {
  const sw = syntheticSweep();
  it('reads a report and a cell result (as a run with its records per method)', () => {
    const r = validateSweepReport(JSON.parse(sw.report));
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.report.groups.map((g) => g.overlap?.kappa)).toEqual([0.2, 0.5, 0.8]);
    const c = cellAsRun(JSON.parse(sw.cells[0].text));
    expect(c.ok).toBe(true);
    if (c.ok) {
      expect(c.id).toBe('c0s1');
      expect(c.run.metrics.evals['co-rl']).toHaveLength(13);
      expect(c.run.settings.seed).toBe(1);
    }
  });

  it('refuses another version or format in one line, and lists every damaged field', () => {
    const v2 = validateSweepReport({ ...JSON.parse(sw.report), format: 'co-rl-sweep-report/2' });
    expect(v2).toEqual({ ok: false, errors: [expect.stringContaining('"co-rl-sweep-report/2"')] });
    expect(validateSweepReport([]).ok).toBe(false);
    const bad = JSON.parse(sw.report);
    bad.cells[1].status = 'lost';
    bad.groups[0].overlap.kappa = 'low';
    delete bad.counts;
    const r = validateSweepReport(bad);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.errors).toContain('counts: must be an object, got nothing (missing)');
      expect(r.errors.some((e) => e.startsWith('cells[1].status:'))).toBe(true);
      expect(r.errors.some((e) => e.startsWith('groups[0].overlap.kappa: must be a finite number'))).toBe(
        true,
      );
    }
  });

  it('refuses a cell with damaged records through the run-file checks', () => {
    const cell = JSON.parse(sw.cells[0].text);
    cell.result.evals[2].ensembleAccuracy = 7;
    const c = cellAsRun(cell);
    expect(c.ok).toBe(false);
    if (!c.ok) expect(c.errors[0]).toMatch(/^metrics\.evals\.co-rl\[2\]\.ensembleAccuracy: must be a share/);
    expect(cellAsRun({ ...cell, format: 'co-rl-sweep-cell/9' }).ok).toBe(false);
    expect(cellAsRun({ ...cell, result: null, status: 'failed', error: 'boom' })).toEqual({
      ok: false,
      errors: [expect.stringContaining('boom')],
    });
  });
});
