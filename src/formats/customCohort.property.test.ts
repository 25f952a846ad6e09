// The composed cohort through the schema layer under a property test (issue 19): random and mutated
// custom-agent lists (agents shipped, pretrained here with axes, imported; fields set to names that are
// Object.prototype's, like "toString") never throw: customAgentProblems names every problem (or none), and
// a list it accepts is accepted again after a JSON round trip (a link, a run file) with the same agent
// specs, which the experiment config accepts too.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { hostile, messagesAreText, mutated } from '../schema/mutate.fixture';
import { NATURAL_TASKS } from '../cohort/naturalPresets';
import { parseExperimentConfig } from '../rl/config';
import { DEFAULT_RUN_SETTINGS, toExperimentConfig } from './runSettings';
import { CUSTOM_TASK, customAgentProblems, customAgentSpecs, type CustomAgent } from './customCohort';

const BASE = [
  { id: 'A', family: 'lp-nocarry', size: 's', seed: 1, view: 'plain', source: 'shipped' },
  {
    id: 'B',
    family: 'nat-chunk',
    size: 's',
    seed: 2,
    view: 'plain',
    source: 'pretrain',
    tokenizer: 'chunk3',
    arch: { nEmbd: 24, pos: 'rope' },
    corpus: { draw: 'random', size: 500, stream: 'b' },
  },
  { id: 'C', family: 'deep-rev', size: 's', seed: 3, view: 'reversed', source: 'imported', importKey: 'k-1' },
];
const FIELDS = ['id', 'family', 'size', 'seed', 'view', 'source', 'importKey'];
/** A field of one agent set to a name a lookup table inherits, a wrong type or another agent's value. */
const tricky = fc
  .tuple(
    fc.nat(BASE.length - 1),
    fc.constantFrom(...FIELDS),
    fc.constantFrom('toString', '__proto__', 'constructor', 'valueOf', ['s'], { toString: 1 }, 0, '', 'A'),
  )
  .map(([i, k, x]) => {
    const list = structuredClone(BASE) as Record<string, unknown>[];
    list[i][k] = x;
    return list;
  });
const input = fc.tuple(
  fc.oneof({ arbitrary: hostile(BASE), weight: 3 }, mutated(BASE, 6), tricky),
  fc.constantFrom(
    {},
    { shipped: ['checkpoints/add-d2/lp-nocarry.s.1.ckpt'], imported: ['k-1'] },
    { imported: [] },
  ),
  fc.constantFrom(CUSTOM_TASK, NATURAL_TASKS.addw),
);

/** The default run's config with a method any number of agents can run; an accepted list is its cohort. */
const RUN = { ...toExperimentConfig(DEFAULT_RUN_SETTINGS), methods: ['ttrl'] };

describe('composed cohort: property test', () => {
  it('2000 random or mutated agent lists are accepted (again after JSON, as the experiment config) or refused with messages', () => {
    let refused = 0;
    let accepted = 0;
    fc.assert(
      fc.property(input, ([raw, ctx, task]) => {
        const agents = raw as CustomAgent[];
        const problems = customAgentProblems(agents, ctx, task);
        if (problems.length) {
          refused++;
          expect(messagesAreText(problems)).toBe(true);
          return;
        }
        accepted++;
        const back = JSON.parse(JSON.stringify(agents)) as CustomAgent[];
        expect(customAgentProblems(back, ctx, task)).toEqual([]);
        const specs = customAgentSpecs(agents, task);
        expect(customAgentSpecs(back, task)).toEqual(specs);
        const r = parseExperimentConfig({ ...RUN, task, cohort: { agents: specs } });
        expect(r.ok ? [] : r.errors).toEqual([]);
      }),
      { numRuns: 2000, seed: 19 },
    );
    expect(refused).toBeGreaterThan(1000);
    expect(accepted).toBeGreaterThan(50);
  });
});
