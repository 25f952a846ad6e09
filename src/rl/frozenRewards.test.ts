// Tests for the co-rl-frozen rewards (the distillation control, docs/method.md): agent n is rewarded
// against its ring predecessor's FROZEN base copy's vote, never against the trained agents' own votes;
// an unlabeled frozen vote gives 0 for all K; N = 1, mismatched shapes and 'self_plus_peers' are refused.
import { describe, expect, it } from 'vitest';
import { stepCoLabeling } from './coLabelingDiagnostics';
import { stepRewards } from './methodRewards';
import { frozenPeerRewards, labelFreeRewards, methodTitle, type CohortAnswers } from './rewards';

// two agents, B = 2 prompts, K = 3 samples
const trained: CohortAnswers = {
  B: 2,
  K: 3,
  answers: [
    ['1', '1', '2', '5', '6', '6'],
    ['2', '2', '1', '6', null, '7'],
  ],
};
const frozen: CohortAnswers = {
  B: 2,
  K: 3,
  answers: [
    ['2', '2', '1', '7', '8', '9'], // votes '2' and '7' (a three-way tie: first in rollout order)
    ['1', '9', '9', null, null, null], // votes '9' and UNLABELED
  ],
};

describe('co-rl-frozen rewards', () => {
  it("agent n is graded by its predecessor's frozen vote, not by the trained votes", () => {
    const r = labelFreeRewards({ method: 'co-rl-frozen', cohort: trained, frozen });
    // agent 0 <- frozen agent 1 (votes '9', unlabeled); agent 1 <- frozen agent 0 ('2', '7')
    expect(r.trainedLabels).toEqual([
      ['9', null],
      ['2', '7'],
    ]);
    expect(r.rewards).toEqual([
      [0, 0, 0, 0, 0, 0],
      [1, 1, 0, 0, 0, 1],
    ]);
    // votes: the trained agents' own; teacherVotes: the frozen copies'
    expect(r.votes!.map((v) => v.map((x) => x.vote))).toEqual([
      ['1', '6'],
      ['2', '6'],
    ]);
    expect(r.teacherVotes!.map((v) => v.map((x) => x.vote))).toEqual([
      ['2', '7'],
      ['9', null],
    ]);
    // co-rl on the same trained answers grades against the trained votes instead
    const co = labelFreeRewards({ method: 'co-rl', cohort: trained });
    expect(co.trainedLabels).toEqual([
      ['2', '6'],
      ['1', '6'],
    ]);
  });

  it('changing the trained answers never changes the labels; changing the frozen ones does', () => {
    const other: CohortAnswers = { ...trained, answers: [trained.answers[1], trained.answers[0]] };
    const a = frozenPeerRewards({ method: 'co-rl-frozen', cohort: trained, frozen });
    const b = frozenPeerRewards({ method: 'co-rl-frozen', cohort: other, frozen });
    expect(b.trainedLabels).toEqual(a.trainedLabels);
    const f2: CohortAnswers = { ...frozen, answers: [frozen.answers[1], frozen.answers[0]] };
    expect(
      frozenPeerRewards({ method: 'co-rl-frozen', cohort: trained, frozen: f2 }).trainedLabels,
    ).not.toEqual(a.trainedLabels);
  });

  it('the vote threshold tau applies to the frozen votes', () => {
    // frozen agent 0's '2' holds 2 of 3 answers; tau 0.7 leaves it unlabeled
    const r = frozenPeerRewards({ method: 'co-rl-frozen', cohort: trained, frozen, tau: 0.7 });
    expect(r.trainedLabels![1]).toEqual([null, null]);
    expect(r.rewards[1]).toEqual([0, 0, 0, 0, 0, 0]);
  });

  it('reports list it as a control', () => {
    expect(methodTitle('co-rl-frozen')).toBe('co-rl-frozen (control)');
    expect(methodTitle('co-rl')).toBe('co-rl');
  });

  it('refuses N = 1, shapes that do not match, and the self_plus_peers teacher', () => {
    const one: CohortAnswers = { B: 2, K: 3, answers: [trained.answers[0]] };
    const fone: CohortAnswers = { B: 2, K: 3, answers: [frozen.answers[0]] };
    expect(() => frozenPeerRewards({ method: 'co-rl-frozen', cohort: one, frozen: fone })).toThrow(
      /co-rl-frozen needs N >= 2 agents.*N = 1/,
    );
    expect(() => frozenPeerRewards({ method: 'co-rl-frozen', cohort: trained, frozen: fone })).toThrow(
      /frozen answers must match/,
    );
    const three = (c: CohortAnswers): CohortAnswers => ({ ...c, answers: [...c.answers, c.answers[0]] });
    expect(() =>
      frozenPeerRewards({
        method: 'co-rl-frozen',
        cohort: three(trained),
        frozen: three(frozen),
        teacher: 'self_plus_peers',
      }),
    ).toThrow(/'self_plus_peers' is not available for co-rl-frozen/);
  });

  it('strict_majority and union combine the frozen peers’ votes (N = 3)', () => {
    const t3: CohortAnswers = {
      B: 1,
      K: 2,
      answers: [
        ['4', '4'],
        ['5', '4'],
        ['5', '5'],
      ],
    };
    const f3: CohortAnswers = {
      B: 1,
      K: 2,
      answers: [
        ['5', '5'],
        ['5', '5'],
        ['4', '4'],
      ],
    };
    const union = frozenPeerRewards({ method: 'co-rl-frozen', cohort: t3, frozen: f3, teacher: 'union' });
    // agent 0's frozen peers: 2 ('4') then 1 ('5')
    expect(union.candidates).toEqual([[['4', '5']], [['5', '4']], [['5']]]);
    expect(union.rewards).toEqual([
      [1, 1],
      [1, 1],
      [1, 1],
    ]);
    const maj = frozenPeerRewards({
      method: 'co-rl-frozen',
      cohort: t3,
      frozen: f3,
      teacher: 'strict_majority',
    });
    expect(maj.trainedLabels).toEqual([[null], [null], ['5']]);
    expect(maj.rewards[2]).toEqual([1, 1]);
  });

  it('the dispatch hands the frozen answers on, and refuses a step without them', () => {
    const x = {
      method: 'co-rl-frozen' as const,
      cohort: trained,
      tau: 0,
      entropy: [],
      certainty: [],
      seed: 1,
      agentIds: ['A', 'B'],
      step: 1,
    };
    const truth = () => {
      throw new Error('a label-free method asked for the truth');
    };
    expect(stepRewards({ ...x, frozen }, truth).trainedLabels).toEqual([
      ['9', null],
      ['2', '7'],
    ]);
    expect(() => stepRewards(x, truth)).toThrow(/no answers of the frozen base copies/);
  });

  it("the co-labeling diagnostics read the frozen peers' votes for the tie rate", () => {
    const t3: CohortAnswers = {
      B: 1,
      K: 2,
      answers: [
        ['4', '4'],
        ['5', '5'],
        ['6', '6'],
      ],
    };
    const f3: CohortAnswers = {
      B: 1,
      K: 2,
      answers: [
        ['7', '7'],
        ['7', '7'],
        ['7', '7'],
      ],
    };
    const res = frozenPeerRewards({ method: 'co-rl-frozen', cohort: t3, frozen: f3 });
    const own = res.votes!.map((v) => v.map((x) => x.vote));
    const co = stepCoLabeling('ring', ['A', 'B', 'C'], own, res, ['7'])!;
    // the trained votes all differ (every pair of peers ties); the frozen peers agree (no tie)
    expect(co.agents.map((a) => a.peerTieRate)).toEqual([0, 0, 0]);
    expect(co.agents.map((a) => a.supervisionContainsTruth)).toEqual([1, 1, 1]);
    expect(co.agents.map((a) => a.ownVoteAccuracy)).toEqual([0, 0, 0]);
    const { teacherVotes: _drop, ...withoutTeachers } = res;
    expect(stepCoLabeling('ring', ['A', 'B', 'C'], own, withoutTeachers, ['7'])!.agents[0].peerTieRate).toBe(
      1,
    );
  });
});
