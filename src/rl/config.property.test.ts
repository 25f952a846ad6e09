// The experiment config through the schema layer under property tests (issue 19): random and mutated
// configs never throw past the schema's error type (assertExperimentConfig returns or throws an
// ExperimentConfigError, an InputError), parseExperimentConfig never throws, and what it accepts parses
// again to the same config (defaults filled once).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { InputError } from '../schema';
import { checkParseProperty, hostile, refusesOnlyWithInputError } from '../schema/mutate.fixture';
import { assertExperimentConfig, ExperimentConfigError, parseExperimentConfig } from './config';

const VALID = {
  name: 'p',
  seed: 3,
  steps: 10,
  methods: ['co-rl', 'ttrl'],
  task: { kind: 'add', digits: 2 },
  cohort: {
    agents: [
      { id: 'A', family: 'lp-nocarry', size: 's', seed: 1, view: 'plain', checkpoint: 'a.ckpt' },
      { id: 'B', family: 'rope-carry', size: 's', seed: 1, view: 'plain' },
    ],
  },
  train: { samples: 4, lr: 1e-4, maxNewTokens: null, teacher: 'ring', beta: 0, klEvery: 2 },
  eval: { every: 5, problems: 20, regime: 0, split: 'validation' },
};

describe('experiment config: property tests', () => {
  it('the base of the mutations is valid', () => {
    expect(parseExperimentConfig(VALID).ok).toBe(true);
  });

  it('2000 mutated or random configs: parse never throws, and refusals are messages', () => {
    const refused = checkParseProperty(
      hostile(VALID),
      (raw) => parseExperimentConfig(raw),
      (r) => {
        const again = parseExperimentConfig(r.config);
        return again.ok && JSON.stringify(again.config) === JSON.stringify(r.config);
      },
      { numRuns: 2000, seed: 19 },
    );
    expect(refused).toBeGreaterThan(500); // the mutations do break configs
  });

  it('assertExperimentConfig only ever throws an ExperimentConfigError (an InputError)', () => {
    let threw = 0;
    fc.assert(
      fc.property(hostile(VALID), (raw) => {
        if (refusesOnlyWithInputError(() => assertExperimentConfig(raw))) threw++;
      }),
      { numRuns: 1000, seed: 20 },
    );
    expect(threw).toBeGreaterThan(200);
    expect(() => assertExperimentConfig({ ...VALID, steps: 0 })).toThrow(ExperimentConfigError);
    expect(new ExperimentConfigError(['steps: x'])).toBeInstanceOf(InputError);
  });
});
