// Tests for metrics.ts on a small hand-made step (docs/method.md ("What is measured")) and for tokenStats masked means.
import { describe, expect, it } from 'vitest';
import {
  agentStepMetrics,
  labelAccuracy,
  labeledFraction,
  lengthStats,
  majorityAtK,
  meanTokenEntropy,
  normalizeToFirst,
  pairwiseAgreement,
  parseableFraction,
  rewardAccuracy,
  rewardStats,
} from './metrics';
import { labelFreeRewards } from './rewards';
import { maskedRowMeans } from './tokenStats';
import { promptVotes, voteLabels } from './vote';

// One agent, B = 3 prompts, K = 2 samples. Its predecessor voted ['4', '8', null].
const K = 2;
const answers = ['4', '4', '7', '8', null, null];
const truth = ['4', '7', '1'];
const trained = ['4', '8', null];
const rewards = [1, 1, 0, 1, 0, 0];
const own = voteLabels(promptVotes(answers, 3, K)); // ['4', '7' (tie -> first), null]

describe('metrics on a hand-made step', () => {
  it('own votes', () => expect(own).toEqual(['4', '7', null]));

  it('reward stats: mean, unbiased batch std, mean unbiased group std, zero-std share', () => {
    const s = rewardStats(rewards, K);
    expect(s.mean).toBeCloseTo(0.5, 12);
    expect(s.batchStd).toBeCloseTo(Math.sqrt(1.5 / 5), 12); // ss = 6 * 0.25
    expect(s.meanGroupStd).toBeCloseTo(Math.sqrt(0.5) / 3, 12); // groups: 0, sqrt(1/2), 0
    expect(s.zeroStdFraction).toBeCloseTo(2 / 3, 12);
  });

  it('pseudo-label accuracy (own) and trained-label accuracy (predecessor)', () => {
    expect(labelAccuracy(own, truth)).toBe(1); // 2 labeled, both right
    expect(labelAccuracy(trained, truth)).toBe(0.5); // '4' right, '8' wrong
    expect(labelAccuracy([null, null, null], truth)).toBeNull();
  });

  it('reward accuracy vs the reward gt would give', () => {
    // gt rewards: [1, 1, 1, 0, 0, 0]; agree at 0, 1, 4, 5
    expect(rewardAccuracy(rewards, answers, truth, K)).toBeCloseTo(4 / 6, 12);
  });

  it('labeled and parseable fractions', () => {
    expect(labeledFraction(own)).toBeCloseTo(2 / 3, 12);
    expect(parseableFraction(answers)).toBeCloseTo(4 / 6, 12);
  });

  it('length stats', () => {
    expect(lengthStats([3, 5, 8, 8, 2, 4], [true, true, false, false, true, true])).toEqual({
      meanLength: 5,
      cutOffShare: 2 / 6,
    });
  });

  it('agentStepMetrics bundles the same numbers', () => {
    const entropy = { values: [1, 2, 3, 4, 5, 6], mask: [1, 1, 0, 1, 0, 0], maxNewTokens: 3 };
    const m = agentStepMetrics({
      K,
      answers,
      rewards,
      ownLabels: own,
      trainedLabels: trained,
      truth,
      entropy,
    });
    expect(m.pseudoLabelAccuracy).toBe(1);
    expect(m.trainedLabelAccuracy).toBe(0.5);
    expect(m.rewardAccuracy).toBeCloseTo(4 / 6, 12);
    expect(m.zeroStdFraction).toBeCloseTo(2 / 3, 12);
    expect(m.meanEntropy).toBeCloseTo(7 / 3, 12);
    expect(m.meanLength).toBeNull();
    expect(m.cutOffShare).toBeNull();
  });

  it('is consistent with co-rl rewards computed from the same answers', () => {
    const r = labelFreeRewards({
      method: 'co-rl',
      cohort: { B: 3, K, answers: [answers, ['4', '4', '8', '8', null, null]] },
    });
    expect(r.trainedLabels![0]).toEqual(trained);
    expect(r.rewards[0]).toEqual(rewards);
  });
});

describe('pairwiseAgreement', () => {
  it('uses only prompts labeled by both', () => {
    const a = ['1', '2', null, '4'];
    const b = ['1', '3', '5', null];
    const c = [null, '2', '5', '4'];
    const d = [null, null, null, null];
    expect(pairwiseAgreement([a, b, c, d])).toEqual([
      { i: 0, j: 1, bothLabeled: 2, agreement: 0.5 },
      { i: 0, j: 2, bothLabeled: 2, agreement: 1 },
      { i: 0, j: 3, bothLabeled: 0, agreement: null },
      { i: 1, j: 2, bothLabeled: 2, agreement: 0.5 },
      { i: 1, j: 3, bothLabeled: 0, agreement: null },
      { i: 2, j: 3, bothLabeled: 0, agreement: null },
    ]);
  });
});

describe('token means', () => {
  it('masked means per row and over the batch', () => {
    const t = { values: [1, 2, 3, 4, 5, 6], mask: [1, 1, 0, 1, 0, 0], maxNewTokens: 3 };
    expect(Array.from(maskedRowMeans(t))).toEqual([1.5, 4]);
    expect(meanTokenEntropy(t)).toBeCloseTo(7 / 3, 12);
    expect(Array.from(maskedRowMeans({ values: [1, 2], mask: [0, 0], maxNewTokens: 2 }))).toEqual([0]);
  });
});

describe('normalizeToFirst', () => {
  it('divides by the first value', () =>
    expect(normalizeToFirst([2, 1, 0.5, 3])).toEqual([1, 0.5, 0.25, 1.5]));
  it('is undefined (null) when the first value is 0', () =>
    expect(normalizeToFirst([0, 1])).toEqual([null, null]));
});

describe('majorityAtK', () => {
  it('pools agents in order and breaks ties by first appearance', () => {
    // '3' and '9' both 3 times; '3' appears first (agent 0, sample 0)
    expect(
      majorityAtK([
        ['3', '3', null, '9'],
        ['9', '9', '3', null],
      ]),
    ).toEqual({
      vote: '3',
      count: 3,
      share: 0.5,
      parseable: 6,
    });
    expect(
      majorityAtK([
        ['1', '2', '2', '1'],
        ['2', null, null, null],
      ]).vote,
    ).toBe('2');
    expect(majorityAtK([[null], [null]]).vote).toBeNull();
  });
});
