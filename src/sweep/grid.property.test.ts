// The sweep config through the schema layer under property tests (issue 19): random and mutated sweep
// configs (the base experiment, the grid, include and exclude, the engine and the registration keys)
// never throw past the schema's error type: planSweep returns a plan or messages, planOrThrow a plan or a
// SweepInputError (an InputError); every cell of a plan is a valid experiment.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseExperimentConfig } from '../rl/config';
import { checkParseProperty, hostile, refusesOnlyWithInputError } from '../schema/mutate.fixture';
import { planSweep } from './grid';
import { planOrThrow } from './run';

const VALID = {
  name: 'prop',
  steps: 2,
  methods: ['co-rl', 'ttrl'],
  cohort: { preset: 'paper-demo' },
  backend: 'cpu',
  grid: { seed: [1, 2], 'train.lr': [1e-4, 3e-4] },
  exclude: [{ seed: 2, 'train.lr': 3e-4 }],
  include: [{ seed: 3, 'train.lr': 1e-3 }],
  prereg: 'experiments/regime/PREREG.md',
  registered: false,
  endpoint: 'greedy',
  gates: { 'paper-demo': { pass: true, note: 'measured' } },
};

describe('sweep config: property tests', () => {
  it('the base of the mutations plans', () => {
    const r = planSweep(VALID);
    expect(r.ok && r.plan.cells.length).toBe(4);
  });

  it('1000 mutated or random sweep configs: a plan of valid cells, or messages, never a throw', () => {
    const refused = checkParseProperty(
      hostile(VALID),
      (raw) => planSweep(raw),
      (r) => r.plan.cells.every((c) => parseExperimentConfig(c.raw).ok),
      { numRuns: 1000, seed: 19 },
    );
    expect(refused).toBeGreaterThan(200);
  });

  it('planOrThrow throws only a SweepInputError', () => {
    fc.assert(
      fc.property(hostile(VALID), (raw) => {
        refusesOnlyWithInputError(() => planOrThrow(raw));
      }),
      { numRuns: 300, seed: 20 },
    );
  });
});
