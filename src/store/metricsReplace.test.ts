// appendRecords: an evaluation of the step a method's list ends with replaces that record (the page gets
// the base evaluation first and again with its live-portrait counts); other records are appended.
import { describe, expect, it } from 'vitest';
import { appendRecords, EMPTY_METRICS } from './metricsSlice';
import { metrics } from '../formats/runFile.fixture';

describe('appendRecords', () => {
  it('replaces a record of the last step and appends the rest', () => {
    const [e0, e1] = metrics.evals['co-rl']!;
    const m0 = appendRecords({ ...EMPTY_METRICS, methods: ['co-rl'] }, [], [e0]);
    const withCounts = { ...e0, portraitSamples: 8 };
    const m1 = appendRecords(m0, [], [withCounts, e1]);
    expect(m1.evals['co-rl']).toEqual([withCounts, e1]);
    expect(m0.evals['co-rl']).toEqual([e0]); // the earlier state is not touched
    const m2 = appendRecords(m1, [], [e0]); // an older step is never merged into a later one
    expect(m2.evals['co-rl']!.map((r) => r.step)).toEqual([0, 1, 0]);
  });
});
