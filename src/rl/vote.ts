// Per-agent, per-prompt majority vote over extracted answers; follows docs/method.md ("One training step", step 4) and the paper's Eq. 3.
import { assertInt } from './stats';

/** An extracted answer; `null` = unparseable (never a vote, never equal to anything). */
export type Answer = string | null;

/** Result of a majority vote over one group of answers. */
export interface Vote {
  /** Winning answer, or `null` when the prompt is UNLABELED (nothing parsed, or top share < tau). */
  vote: string | null;
  /** Occurrences of the top answer (reported even when the share fell below tau); 0 if nothing parsed. */
  count: number;
  /** `count / parseable`; 0 if nothing parsed. */
  share: number;
  /** Number of non-null answers in the group. */
  parseable: number;
}

/**
 * Majority vote over one group of answers, in rollout order.
 * The most frequent non-null answer wins; ties go to the answer that appears FIRST in rollout order
 * (what the public Co-RL/TTRL code does). If nothing parses, or the top answer's share of the parseable
 * answers is strictly below `tau`, the vote is `null` (UNLABELED).
 * @param answers answers in rollout order
 * @param tau minimum share of parseable answers the winner must reach, in [0, 1] (default 0)
 */
export function majorityVote(answers: readonly Answer[], tau = 0): Vote {
  if (!(tau >= 0 && tau <= 1)) throw new Error(`tau must be in [0, 1], got ${tau}`);
  // A Map iterates in insertion order = order of first appearance, so a strict `>` keeps the earliest tie.
  const counts = new Map<string, number>();
  let parseable = 0;
  for (const a of answers) {
    if (a === null) continue;
    parseable++;
    counts.set(a, (counts.get(a) ?? 0) + 1);
  }
  let top: string | null = null;
  let count = 0;
  for (const [a, c] of counts) {
    if (c > count) {
      top = a;
      count = c;
    }
  }
  if (parseable === 0) return { vote: null, count: 0, share: 0, parseable: 0 };
  const share = count / parseable;
  return { vote: share < tau ? null : top, count, share, parseable };
}

/**
 * Votes for every prompt of one agent.
 * @param answers flat answers of one agent, index `b*K + k`
 * @param B number of prompts
 * @param K samples per prompt
 * @param tau see {@link majorityVote}
 * @returns one {@link Vote} per prompt, length B
 */
export function promptVotes(answers: readonly Answer[], B: number, K: number, tau = 0): Vote[] {
  assertInt('B', B, 1);
  assertInt('K', K, 1);
  if (answers.length !== B * K) throw new Error(`expected B*K = ${B * K} answers, got ${answers.length}`);
  const out: Vote[] = [];
  for (let b = 0; b < B; b++) out.push(majorityVote(answers.slice(b * K, (b + 1) * K), tau));
  return out;
}

/**
 * Votes for a whole cohort.
 * @param answers `answers[n][b*K + k]` for each agent n
 * @returns `votes[n][b]`
 */
export function cohortVotes(
  answers: readonly (readonly Answer[])[],
  B: number,
  K: number,
  tau = 0,
): Vote[][] {
  return answers.map((a) => promptVotes(a, B, K, tau));
}

/** Just the voted labels (`null` = UNLABELED) of a list of votes. */
export function voteLabels(votes: readonly Vote[]): (string | null)[] {
  return votes.map((v) => v.vote);
}
