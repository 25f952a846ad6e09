// Agent specs by axes through the schema layer under property tests (issue 19): random and mutated specs
// and cohorts never throw: parseAxisAgent gives a spec (which parses again to itself) or messages under
// the agent's path, parseAxisCohort a cohort or messages.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { hostile, messagesAreText } from '../schema/mutate.fixture';
import { parseAxisAgent, parseAxisCohort } from './axes';

const AGENT = {
  id: 'A',
  family: 'lp-nocarry',
  size: 's',
  seed: 2,
  view: 'plain',
  arch: { nLayer: 2, nHead: 2, nEmbd: 32, mlpRatio: 4, pos: 'rope', blockSize: 64 },
  tokenizer: 'digit',
  corpus: { draw: 'random', size: 100, seed: 1 },
  recipe: { maxSteps: 10, lr: 0.001, stop: 'budget', band: [0.1, 0.5] },
  checkpoint: 'ck/a.ckpt',
};

describe('agent specs by axes: property tests', () => {
  it('1000 mutated or random specs: a spec that parses again to itself, or messages naming the agent', () => {
    expect('spec' in parseAxisAgent(AGENT, 'a')).toBe(true);
    let refused = 0;
    fc.assert(
      fc.property(hostile(AGENT), (raw) => {
        const r = parseAxisAgent(raw, 'cohort.agents[0]');
        if ('errors' in r) {
          refused++;
          return messagesAreText(r.errors) && r.errors.every((e) => e.startsWith('cohort.agents[0]'));
        }
        expect(parseAxisAgent(r.spec, 'again')).toEqual({ spec: r.spec });
      }),
      { numRuns: 1000, seed: 19 },
    );
    expect(refused).toBeGreaterThan(200);
  });

  it('300 mutated or random cohorts: a cohort or messages, never a throw', () => {
    const cohort = {
      task: { kind: 'add', digits: 2 },
      cohort: { agents: [AGENT, { id: 'B', family: 'rope-carry', seed: 1 }] },
    };
    fc.assert(
      fc.property(hostile(cohort), (raw) => {
        const r = parseAxisCohort(raw);
        return 'errors' in r ? messagesAreText(r.errors) : r.cohort.specs.length > 0;
      }),
      { numRuns: 300, seed: 20 },
    );
  });
});
