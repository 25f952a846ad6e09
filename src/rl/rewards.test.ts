// Tests for rewards.ts: ring topology, co-rl/ttrl/gt/intuitor/rent/random rewards, no ground truth in label-free paths.
import { describe, expect, it } from 'vitest';
import { computeAdvantages } from './advantages';
import { grpoLoss } from './grpo';
import {
  coRlLabels,
  groundTruthRewards,
  labelFreeRewards,
  matchRewards,
  randomRewards,
  ringPredecessor,
  type CohortAnswers,
} from './rewards';
import { entropyOfLogits, selfCertaintyOfLogits } from './tokenStats';
import { cohortVotes } from './vote';

/** Deterministic stream returning the given values in turn. */
const seq = (xs: number[]) => {
  let i = 0;
  return () => xs[i++ % xs.length];
};

describe('ringPredecessor', () => {
  it('N = 3: 0 <- 2, 1 <- 0, 2 <- 1', () => {
    expect([0, 1, 2].map((n) => ringPredecessor(n, 3))).toEqual([2, 0, 1]);
  });
  it('N = 2: the two agents grade each other', () => {
    expect([0, 1].map((n) => ringPredecessor(n, 2))).toEqual([1, 0]);
  });
  it('N = 1 and bad indices are refused', () => {
    expect(() => ringPredecessor(0, 1)).toThrow(/N >= 2/);
    expect(() => ringPredecessor(3, 3)).toThrow(/out of range/);
    expect(() => ringPredecessor(-1, 3)).toThrow();
  });
});

describe('matchRewards', () => {
  it('null answers and null labels never match', () => {
    expect(matchRewards(['1', null, '2', null], ['1', null], 2)).toEqual([1, 0, 0, 0]);
  });
});

describe('co-rl', () => {
  it('refuses N = 1 with a clear error', () => {
    const cohort: CohortAnswers = { B: 1, K: 2, answers: [['1', '1']] };
    expect(() => labelFreeRewards({ method: 'co-rl', cohort })).toThrow(/co-rl is undefined for N = 1/);
    expect(() => coRlLabels([[]])).toThrow(/N >= 2/);
  });

  it("N = 2: each agent is rewarded against the other agent's vote", () => {
    const cohort: CohortAnswers = {
      B: 2,
      K: 3,
      answers: [
        ['1', '1', '2', '5', null, '6'], // votes '1', '5' (5/6 tie -> first)
        ['2', '2', '1', null, '5', '5'], // votes '2', '5'
      ],
    };
    const r = labelFreeRewards({ method: 'co-rl', cohort });
    expect(r.votes!.map((v) => v.map((x) => x.vote))).toEqual([
      ['1', '5'],
      ['2', '5'],
    ]);
    expect(r.trainedLabels).toEqual([
      ['2', '5'],
      ['1', '5'],
    ]);
    expect(r.rewards).toEqual([
      [0, 0, 1, 1, 0, 0],
      [0, 0, 1, 0, 1, 1],
    ]);
  });

  it('N = 3 uses the ring and gives 0 to all K when the predecessor is unlabeled', () => {
    const cohort: CohortAnswers = {
      B: 2,
      K: 2,
      answers: [
        ['1', null, '3', '3'], // votes '1', '3'
        ['1', '1', '4', '3'], // votes '1', '4'
        [null, null, '4', '4'], // votes null, '4'
      ],
    };
    const r = labelFreeRewards({ method: 'co-rl', cohort });
    // agent 0 <- agent 2, agent 1 <- agent 0, agent 2 <- agent 1
    expect(r.trainedLabels).toEqual([
      [null, '4'],
      ['1', '3'],
      ['1', '4'],
    ]);
    expect(r.rewards).toEqual([
      [0, 0, 0, 0],
      [1, 1, 0, 1],
      [0, 0, 1, 1],
    ]);
  });

  it('tau makes low-agreement predecessor votes unlabeled', () => {
    const cohort: CohortAnswers = {
      B: 1,
      K: 4,
      answers: [
        ['1', '1', '1', '2'],
        ['1', '2', '3', '1'],
      ],
    };
    // agent 1 top share 0.5 < 0.6 -> unlabeled -> agent 0 gets zeros; agent 0 share 0.75 -> '1'
    const r = labelFreeRewards({ method: 'co-rl', cohort, tau: 0.6 });
    expect(r.rewards).toEqual([
      [0, 0, 0, 0],
      [1, 0, 0, 1],
    ]);
  });
});

describe('ttrl and gt', () => {
  const cohort: CohortAnswers = { B: 2, K: 2, answers: [['1', '2', null, '7']] };
  it('ttrl rewards agreement with the own vote', () => {
    const r = labelFreeRewards({ method: 'ttrl', cohort });
    expect(r.trainedLabels).toEqual([['1', '7']]);
    expect(r.rewards).toEqual([[1, 0, 0, 1]]);
  });
  it('ttrl works for N = 1', () => {
    expect(() => labelFreeRewards({ method: 'ttrl', cohort })).not.toThrow();
  });
  it('gt rewards agreement with the truth', () => {
    const r = groundTruthRewards(cohort, ['2', '7']);
    expect(r.rewards).toEqual([[0, 1, 0, 1]]);
    expect(r.trainedLabels).toEqual([['2', '7']]);
    expect(() => groundTruthRewards(cohort, ['2'])).toThrow();
  });
});

describe('label-free rewards never read ground truth', () => {
  it('a cohort object carrying a booby-trapped truth field trains bit-identically', () => {
    const answers = [
      ['3', '3', '1', null, '8', '8', '8', '2'],
      ['3', '1', '1', '1', '8', null, '2', '2'],
    ];
    const plain: CohortAnswers = { B: 2, K: 4, answers };
    const trapped = { B: 2, K: 4, answers } as CohortAnswers;
    Object.defineProperty(trapped, 'truth', {
      get() {
        throw new Error('ground truth was read');
      },
      enumerable: true,
    });
    const pipeline = (c: CohortAnswers, method: 'co-rl' | 'ttrl') => {
      const { rewards } = labelFreeRewards({ method, cohort: c });
      return rewards.map((r) => {
        const adv = computeAdvantages(r, c.K);
        const logp = Array.from({ length: 8 * 2 }, (_, i) => -0.1 * (i + 1));
        return grpoLoss({ logp, mask: new Array(16).fill(1), advantages: adv, maxNewTokens: 2 }).weights;
      });
    };
    for (const m of ['co-rl', 'ttrl'] as const) expect(pipeline(trapped, m)).toEqual(pipeline(plain, m));
    // And the type does not even admit a truth field:
    // @ts-expect-error ground truth has no place in a label-free request
    labelFreeRewards({ method: 'ttrl', cohort: plain, truth: ['3', '8'] });
  });
});

describe('intuitor and rent', () => {
  const mask = [1, 1, 0, 1, 0, 0];
  it('intuitor averages the given per-token self-certainty over the mask', () => {
    const r = labelFreeRewards({
      method: 'intuitor',
      selfCertainty: [{ values: [0.5, 1.5, 99, 2, 99, 99], mask, maxNewTokens: 3 }],
    });
    expect(r.rewards).toEqual([[1, 2]]);
    expect(r.trainedLabels).toBeNull();
  });
  it('rent is minus the masked mean entropy', () => {
    const r = labelFreeRewards({
      method: 'rent',
      entropy: [{ values: [1, 3, 99, 0, 99, 99], mask, maxNewTokens: 3 }],
    });
    expect(r.rewards).toEqual([[-2, 0]]);
  });
  it('self-certainty and entropy of logits match hand values', () => {
    // p = softmax([ln 3, 0]) = [3/4, 1/4]; KL(U||p) = ln 2 - ln(3)/2; H = -(3/4 ln 3/4 + 1/4 ln 1/4)
    expect(selfCertaintyOfLogits([Math.log(3), 0])).toBeCloseTo(Math.log(2) - Math.log(3) / 2, 12);
    expect(selfCertaintyOfLogits([2 * Math.log(3), 0], 2)).toBeCloseTo(Math.log(2) - Math.log(3) / 2, 12);
    expect(selfCertaintyOfLogits([5, 5, 5])).toBeCloseTo(0, 12);
    expect(entropyOfLogits([0, 0, 0, 0])).toBeCloseTo(Math.log(4), 12);
    expect(entropyOfLogits([Math.log(3), 0])).toBeCloseTo(
      -(0.75 * Math.log(0.75) + 0.25 * Math.log(0.25)),
      12,
    );
  });
});

describe('random', () => {
  it("draws Bernoulli(0.5) from each agent's own stream", () => {
    expect(randomRewards(4, seq([0.1, 0.5, 0.49, 0.9]))).toEqual([1, 0, 1, 0]);
    const r = labelFreeRewards({
      method: 'random',
      counts: [2, 2],
      rands: [seq([0.2, 0.7]), seq([0.9, 0.0])],
    });
    expect(r.rewards).toEqual([
      [1, 0],
      [0, 1],
    ]);
    expect(() => labelFreeRewards({ method: 'random', counts: [2, 2], rands: [seq([0])] })).toThrow();
  });
});

describe('votes returned with rewards', () => {
  it('equal cohortVotes', () => {
    const cohort: CohortAnswers = {
      B: 1,
      K: 3,
      answers: [
        ['1', '2', '2'],
        ['4', null, '4'],
      ],
    };
    expect(labelFreeRewards({ method: 'ttrl', cohort }).votes).toEqual(cohortVotes(cohort.answers, 1, 3));
  });
});
