// Tests for vote.ts: majority vote tie-break, null handling and the tau threshold (docs/method.md ("One training step", step 4)).
import { describe, expect, it } from 'vitest';
import { cohortVotes, majorityVote, promptVotes, voteLabels } from './vote';

describe('majorityVote', () => {
  it('picks the most frequent answer', () => {
    expect(majorityVote(['2', '5', '5', '2', '5'])).toEqual({
      vote: '5',
      count: 3,
      share: 0.6,
      parseable: 5,
    });
  });

  it('breaks ties by first appearance in rollout order', () => {
    expect(majorityVote(['7', '3', '3', '7']).vote).toBe('7');
    expect(majorityVote(['3', '7', '7', '3']).vote).toBe('3');
    // 'c' reaches 2 last but 'b' appeared first: 'b' wins.
    expect(majorityVote(['a', 'b', 'c', 'b', 'c']).vote).toBe('b');
    // null placed first never takes part in the tie.
    expect(majorityVote([null, 'x', 'y']).vote).toBe('x');
  });

  it('ignores nulls: they never vote and shares are over parseable answers', () => {
    expect(majorityVote(['5', null, '5', '2'])).toEqual({ vote: '5', count: 2, share: 2 / 3, parseable: 3 });
    expect(majorityVote([null, null, '4'])).toEqual({ vote: '4', count: 1, share: 1, parseable: 1 });
  });

  it('leaves the prompt unlabeled when nothing parses', () => {
    expect(majorityVote([null, null, null])).toEqual({ vote: null, count: 0, share: 0, parseable: 0 });
    expect(majorityVote([])).toEqual({ vote: null, count: 0, share: 0, parseable: 0 });
  });

  it('applies tau: top share strictly below tau is unlabeled, equal is kept', () => {
    const a = ['1', '1', '2', '3', null];
    expect(majorityVote(a, 0).vote).toBe('1');
    expect(majorityVote(a, 0.5).vote).toBe('1');
    expect(majorityVote(a, 0.6)).toEqual({ vote: null, count: 2, share: 0.5, parseable: 4 });
  });

  it('rejects tau outside [0, 1]', () => {
    expect(() => majorityVote(['1'], 1.5)).toThrow(/tau/);
    expect(() => majorityVote(['1'], -0.1)).toThrow(/tau/);
  });
});

describe('promptVotes / cohortVotes', () => {
  it('groups answers as b*K + k', () => {
    const v = promptVotes(['1', '1', '2', '9', '8', '8'], 2, 3);
    expect(voteLabels(v)).toEqual(['1', '8']);
    expect(v[1].count).toBe(2);
  });

  it('votes every agent separately', () => {
    const v = cohortVotes(
      [
        ['1', '2', null, null],
        ['3', '3', '4', '4'],
      ],
      2,
      2,
    );
    expect(v.map(voteLabels)).toEqual([
      ['1', null],
      ['3', '4'],
    ]);
  });

  it('checks the layout length', () => {
    expect(() => promptVotes(['1', '2', '3'], 2, 2)).toThrow(/B\*K/);
  });
});
