// Teacher modes and co-labeling diagnostics on hand-made votes (docs/method.md ("Extensions from the public code"), the public Co-RL code's table).
import { describe, expect, it } from 'vitest';
import {
  candidateRewards,
  peersOf,
  strictMajority,
  teacherModeProblem,
  teacherSupervision,
  type TeacherMode,
} from './coLabeling';
import { coLabelingDiagnostics, coLabelingProblems, labelsAsCandidates } from './coLabelingDiagnostics';
import { labelFreeRewards } from './rewards';
import { parseExperimentConfig } from './config';

// Three agents, four prompts: own votes per agent.
//            p0    p1    p2    p3
const A = ['5', '5', '5', null];
const B = ['5', '6', '7', '1'];
const C = ['5', '7', '6', '1'];
const own = [A, B, C];

describe('teacher modes', () => {
  it('peers are listed in ring order, never the agent itself', () => {
    expect(peersOf(0, 3)).toEqual([2, 1]);
    expect(peersOf(1, 4)).toEqual([0, 3, 2]);
    expect(peersOf(0, 2)).toEqual([1]);
  });

  it('strict majority: more than half of the labelled votes, else none', () => {
    expect(strictMajority(['5', '5'])).toBe('5');
    expect(strictMajority(['5', '6'])).toBeNull();
    expect(strictMajority(['5', null])).toBe('5');
    expect(strictMajority([null, null])).toBeNull();
    expect(strictMajority(['1', '1', '2', '3'])).toBeNull(); // 2 of 4 is not more than half
    expect(strictMajority(['1', '1', '2'])).toBe('1');
  });

  it('ring: the predecessor’s vote', () => {
    const s = teacherSupervision(own, 'ring');
    expect(s.labels).toEqual([C, A, B]);
  });

  it('strict_majority: the two peers must agree (N = 3)', () => {
    const s = teacherSupervision(own, 'strict_majority');
    // agent A's peers are C, B: agree on p0 and p3; disagree on p1, p2
    expect(s.labels[0]).toEqual(['5', null, null, '1']);
    // agent B's peers are A, C: p0 agree; p1 5 vs 7 tie; p2 5 vs 6 tie; p3 A unlabelled so C alone decides
    expect(s.labels[1]).toEqual(['5', null, null, '1']);
    expect(s.labels[2]).toEqual(['5', null, null, '1']);
  });

  it('self_plus_peers: the own vote breaks a tie only when it is one of the tied answers', () => {
    const s = teacherSupervision(
      [
        ['5', '6', '9'],
        ['6', '6', '8'],
        ['5', '7', '8'],
      ],
      'self_plus_peers',
    );
    // agent 0's peers (2, 1): p0 5 vs 6 tie, own 5 breaks it; p1 7 vs 6 tie, own 6 breaks it; p2 8 and 8 agree
    expect(s.labels[0]).toEqual(['5', '6', '8']);
    // agent 1's peers (0, 2): p0 5 and 5 agree; p1 6 vs 7, own 6; p2 9 vs 8, own 8 breaks it
    expect(s.labels[1]).toEqual(['5', '6', '8']);
    // agent 2's peers (1, 0): p0 6 vs 5, own 5; p1 6 and 6 agree; p2 8 vs 9, own 8
    expect(s.labels[2]).toEqual(['5', '6', '8']);
    // all different: dropped
    expect(teacherSupervision([['1'], ['2'], ['3']], 'self_plus_peers').labels).toEqual([
      [null],
      [null],
      [null],
    ]);
  });

  it('union: every peer vote is a candidate, and a completion matching any is rewarded', () => {
    const s = teacherSupervision(own, 'union');
    expect(s.candidates[0]).toEqual([['5'], ['7', '6'], ['6', '7'], ['1']]);
    expect(s.labels[0]).toEqual(['5', '7', '6', '1']); // the first candidate in ring order
    expect(candidateRewards(['6', '7', '5', null], [['7', '6'], ['1']], 2)).toEqual([1, 1, 0, 0]);
  });

  it('refuses a peer teacher with N < 3, naming the reason', () => {
    expect(teacherModeProblem('union', 2)).toMatch(/needs N >= 3 agents.*use 'ring'/);
    expect(teacherModeProblem('ring', 2)).toBeNull();
    expect(teacherModeProblem('majority', 3)).toMatch(/must be one of/);
    expect(() => teacherSupervision([A, B], 'strict_majority')).toThrow(/N >= 3/);
    const cfg = {
      steps: 1,
      methods: ['co-rl'],
      cohort: {
        agents: [0, 1].map((i) => ({ id: `a${i}`, family: 'f', size: 's', seed: i, view: 'plain' })),
      },
      task: { kind: 'addition', digits: 2 },
      train: { teacher: 'union' },
    };
    const r = parseExperimentConfig(cfg);
    expect(r.ok).toBe(false);
    if (!r.ok)
      expect(r.errors.some((e) => /^train\.teacher: teacher 'union' needs N >= 3/.test(e))).toBe(true);
  });

  it('labelFreeRewards: the default stays the ring; a peer teacher changes only co-rl', () => {
    // one prompt, K = 2; own votes (first answer wins ties): A '5', B '6', C '7'
    const cohort = {
      B: 1,
      K: 2,
      answers: [
        ['5', '6'],
        ['6', '7'],
        ['7', '6'],
      ],
    };
    const ring = labelFreeRewards({ method: 'co-rl', cohort });
    expect(ring.trainedLabels).toEqual([['7'], ['5'], ['6']]);
    expect(ring.rewards).toEqual([
      [0, 0],
      [0, 0],
      [0, 1],
    ]);
    const union = labelFreeRewards({ method: 'co-rl', cohort, teacher: 'union' });
    expect(union.candidates).toEqual([[['7', '6']], [['5', '7']], [['6', '5']]]);
    expect(union.rewards).toEqual([
      [0, 1],
      [0, 1],
      [0, 1],
    ]);
    expect(labelFreeRewards({ method: 'co-rl', cohort, teacher: 'strict_majority' }).rewards).toEqual([
      [0, 0],
      [0, 0],
      [0, 0],
    ]);
    expect(labelFreeRewards({ method: 'ttrl', cohort, teacher: 'union' }).rewards).toEqual(
      labelFreeRewards({ method: 'ttrl', cohort }).rewards,
    );
  });
});

describe('co-labeling diagnostics', () => {
  const truth = ['5', '6', '9', '1'];
  const diagnose = (teacher: TeacherMode) =>
    coLabelingDiagnostics({
      teacher,
      ids: ['A', 'B', 'C'],
      own,
      candidates: teacherSupervision(own, teacher).candidates,
      truth,
    });

  it('ring supervision: each figure by hand', () => {
    const d = diagnose('ring');
    // unanimous: prompts all three label are p0, p1, p2; only p0 has equal votes
    expect(d.unanimousRate).toBeCloseTo(1 / 3);
    const [a, b, c] = d.agents;
    // A is graded by C (all four labelled): supervision 1; contains truth on p0 and p3
    expect(a.supervisionFraction).toBe(1);
    expect(a.supervisionContainsTruth).toBe(0.5);
    // A's peers C, B are labelled everywhere; no strict majority on p1, p2
    expect(a.peerTieRate).toBe(0.5);
    // A's own votes: p0 '5' right, p1 '5' wrong, p2 '5' wrong (p3 unlabelled)
    expect(a.ownVoteAccuracy).toBeCloseTo(1 / 3);
    expect(a.candidateSetSize).toBe(1);
    // B is graded by A: p3 unlabelled; B's peers A, C both labelled on p0-p2 only: ties on p1, p2
    expect(b.supervisionFraction).toBe(0.75);
    expect(b.supervisionContainsTruth).toBeCloseTo(1 / 3);
    expect(b.peerTieRate).toBeCloseTo(2 / 3);
    expect(b.ownVoteAccuracy).toBe(0.75); // 5, 6, 1 right; 7 wrong
    expect(c.ownVoteAccuracy).toBe(0.5);
  });

  it('union supervision contains the truth more often, with larger candidate sets', () => {
    const d = diagnose('union');
    // A's candidates: {5}, {7,6}, {6,7}, {1}: truth in p0, p1, p3
    expect(d.agents[0].supervisionContainsTruth).toBe(0.75);
    expect(d.agents[0].candidateSetSize).toBe(1.5);
  });

  it('empty denominators give null, not 0', () => {
    const d = coLabelingDiagnostics({
      teacher: 'ring',
      ids: ['A', 'B'],
      own: [[null], [null]],
      candidates: labelsAsCandidates([[null], [null]]),
      truth: ['1'],
    });
    expect(d.unanimousRate).toBeNull();
    expect(d.agents[0]).toMatchObject({
      supervisionFraction: 0,
      peerTieRate: null,
      supervisionContainsTruth: null,
      ownVoteAccuracy: null,
      candidateSetSize: null,
    });
  });

  it('a damaged record read from a file is refused field by field', () => {
    expect(coLabelingProblems({ teacher: 'ring', unanimousRate: null, agents: [] }, 'x')).toEqual([]);
    const p = coLabelingProblems(
      {
        teacher: 'mob',
        unanimousRate: 2,
        agents: [
          {
            agent: '',
            supervisionFraction: null,
            peerTieRate: -1,
            supervisionContainsTruth: 0.5,
            ownVoteAccuracy: 'a',
            candidateSetSize: -1,
          },
        ],
      },
      'x',
    );
    expect(p).toEqual([
      expect.stringMatching(/^x\.teacher: /),
      expect.stringMatching(/^x\.unanimousRate: /),
      expect.stringMatching(/^x\.agents\[0\]\.agent: /),
      expect.stringMatching(/^x\.agents\[0\]\.supervisionFraction: /),
      expect.stringMatching(/^x\.agents\[0\]\.peerTieRate: /),
      expect.stringMatching(/^x\.agents\[0\]\.ownVoteAccuracy: /),
      expect.stringMatching(/^x\.agents\[0\]\.candidateSetSize: /),
    ]);
  });
});
