// Property-based fuzzing of the experiment-config validator (issue 7, hostile input): thousands of
// malformed configs — a valid config with one field broken in a way the spec forbids, or arbitrary JSON —
// are each refused with messages that name the broken field; the validator never throws and never
// returns a config for them. Valid mutations (in-range values) are accepted, so the property can fail.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseExperimentConfig } from './config';

const VALID = {
  name: 'fuzz',
  seed: 3,
  steps: 10,
  methods: ['co-rl', 'ttrl'],
  cohort: { preset: 'paper-demo' },
  task: { kind: 'add', digits: 2 },
  train: {
    batchPrompts: 4,
    samples: 4,
    temperature: 1,
    lr: 1e-4,
    tau: 0,
    scaleRewards: 'group',
    lossType: 'grpo',
  },
  eval: { every: 5, problems: 20 },
};

/** Values no numeric field accepts. */
const notANumber = fc.oneof(
  fc.string(),
  fc.boolean(),
  fc.constant(null),
  fc.constant(Number.NaN),
  fc.constant(Infinity),
  fc.constant(-Infinity),
  fc.array(fc.integer(), { maxLength: 3 }),
  fc.object({ maxDepth: 1 }),
);

/** One way of breaking a valid config, with the field the message must name. */
const breakage: fc.Arbitrary<{ path: readonly string[]; value: unknown; field: string }> = fc.oneof(
  fc.record({
    path: fc.constant(['steps']),
    value: fc.oneof(
      notANumber,
      fc.integer({ max: 0 }),
      fc.double({ min: 0.1, max: 1e6, noNaN: true }).filter((x) => !Number.isInteger(x)),
    ),
    field: fc.constant('steps'),
  }),
  fc.record({
    path: fc.constant(['seed']),
    value: fc.oneof(notANumber, fc.integer({ max: -1 }), fc.constant(2 ** 32)),
    field: fc.constant('seed'),
  }),
  fc.record({
    path: fc.constant(['methods']),
    value: fc.oneof(
      fc.constant([]),
      fc.array(
        fc.string().filter((s) => !['co-rl', 'ttrl', 'gt', 'intuitor', 'rent', 'random'].includes(s)),
        { minLength: 1, maxLength: 3 },
      ),
      notANumber,
    ),
    field: fc.constant('methods'),
  }),
  fc.record({
    path: fc.constant(['train', 'samples']),
    value: fc.oneof(notANumber, fc.integer({ max: 1 })),
    field: fc.constant('train.samples'),
  }),
  fc.record({
    path: fc.constant(['train', 'batchPrompts']),
    value: fc.oneof(notANumber, fc.integer({ max: 0 })),
    field: fc.constant('train.batchPrompts'),
  }),
  fc.record({
    path: fc.constant(['train', 'temperature']),
    value: fc.oneof(
      notANumber,
      fc.double({ max: 0, noNaN: true }),
      fc.double({ min: 10.001, max: 1e9, noNaN: true }),
    ),
    field: fc.constant('train.temperature'),
  }),
  fc.record({
    path: fc.constant(['train', 'lr']),
    value: fc.oneof(
      notANumber,
      fc.double({ max: 0, noNaN: true }),
      fc.double({ min: 1.001, max: 1e9, noNaN: true }),
    ),
    field: fc.constant('train.lr'),
  }),
  fc.record({
    path: fc.constant(['train', 'tau']),
    value: fc.oneof(
      notANumber,
      fc.double({ min: 1.0001, max: 100, noNaN: true }),
      fc.double({ min: -100, max: -0.0001, noNaN: true }),
    ),
    field: fc.constant('train.tau'),
  }),
  fc.record({
    path: fc.constant(['train', 'scaleRewards']),
    value: fc.string().filter((s) => !['group', 'batch', 'none'].includes(s)),
    field: fc.constant('train.scaleRewards'),
  }),
  fc.record({
    path: fc.constant(['train', 'lossType']),
    value: fc.string().filter((s) => !['grpo', 'bnpo', 'dr_grpo'].includes(s)),
    field: fc.constant('train.lossType'),
  }),
  fc.record({
    path: fc.constant(['eval', 'problems']),
    value: fc.oneof(notANumber, fc.integer({ max: 0 })),
    field: fc.constant('eval.problems'),
  }),
  fc.record({
    path: fc.constant(['cohort']),
    value: fc.oneof(notANumber, fc.constant({}), fc.constant({ preset: 'p', agents: [] })),
    field: fc.constant('cohort'),
  }),
  fc.record({
    path: fc
      .string({ minLength: 1, maxLength: 12 })
      .filter(
        (k) =>
          ![
            'name',
            'seed',
            'steps',
            'methods',
            'cohort',
            'task',
            'train',
            'eval',
            '__proto__',
            'constructor',
          ].includes(k),
      )
      .map((k) => [k]),
    value: fc.jsonValue(),
    field: fc.constant('unknown field'),
  }),
);

function withBroken(path: readonly string[], value: unknown): unknown {
  const c = structuredClone(VALID) as Record<string, unknown>;
  let o = c;
  for (const k of path.slice(0, -1)) o = o[k] as Record<string, unknown>;
  o[path[path.length - 1]] = value;
  return c;
}

describe('experiment config validator under fuzzing', () => {
  it('accepts the valid base config', () => {
    expect(parseExperimentConfig(VALID).ok).toBe(true);
  });

  it('refuses 1000 configs with one field broken, naming the field, without throwing', () => {
    let n = 0;
    fc.assert(
      fc.property(breakage, ({ path, value, field }) => {
        const r = parseExperimentConfig(withBroken(path, value));
        n++;
        if (r.ok) return false;
        const named =
          field === 'unknown field'
            ? r.errors.some((e) => e.includes('unknown field'))
            : r.errors.some((e) => e.startsWith(field));
        return named && r.errors.every((e) => typeof e === 'string' && e.length > 10);
      }),
      { numRuns: 1000, seed: 20261130 },
    );
    expect(n).toBe(1000);
  });

  it('refuses 1000 arbitrary JSON values that are not configs, without throwing', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 3 }), (v) => {
        const r = parseExperimentConfig(v);
        return !r.ok && r.errors.length > 0;
      }),
      { numRuns: 1000, seed: 7 },
    );
  });

  it('accepts in-range values (the property can fail the other way too)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10_000 }),
        fc.integer({ min: 2, max: 64 }),
        fc.double({ min: 1e-6, max: 1, noNaN: true }),
        (steps, samples, lr) => {
          const c = withBroken(['steps'], steps) as typeof VALID;
          c.train = { ...c.train, samples, lr };
          return parseExperimentConfig(c).ok;
        },
      ),
      { numRuns: 200, seed: 1 },
    );
  });
});
