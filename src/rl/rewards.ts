// Per-completion reward methods co-rl / co-rl-frozen (control) / ttrl / gt / intuitor / rent / random;
// follows docs/method.md (the reward methods) and paper Eq. 3–4.
import { assertInt } from './stats';
import { maskedRowMeans, type TokenBatch } from './tokenStats';
import { cohortVotes, voteLabels, type Answer, type Vote } from './vote';
import { frozenTeacherProblem, peerTeacherRewards, type TeacherMode } from './coLabeling';

/** Reward methods that never see ground truth. */
export type LabelFreeMethod = 'co-rl' | 'co-rl-frozen' | 'ttrl' | 'intuitor' | 'rent' | 'random';
/** All reward methods; `gt` is the only one that reads ground truth. */
export type RewardMethod = LabelFreeMethod | 'gt';

/**
 * Controls, not contenders: marked "(control)" wherever methods are listed. co-rl-frozen is the
 * distillation control (docs/method.md): Co-RL must beat a peer that never trains.
 */
export const CONTROL_METHODS: readonly RewardMethod[] = ['co-rl-frozen'];

/** A method's name as reports list it: `co-rl-frozen (control)`, any other name unchanged. */
export const methodTitle = (m: string): string =>
  (CONTROL_METHODS as readonly string[]).includes(m) ? `${m} (control)` : m;

/** The answers of a whole cohort for one step. Holds NO ground truth, by construction. */
export interface CohortAnswers {
  /** Prompts per step. */
  B: number;
  /** Samples per prompt. */
  K: number;
  /** `answers[n][b*K + k]`: extracted answer of agent n, prompt b, sample k (`null` = unparseable). */
  answers: readonly (readonly Answer[])[];
}

/** co-rl / ttrl request: votes are taken over the cohort's answers. */
export interface VoteRewardRequest {
  method: 'co-rl' | 'ttrl';
  cohort: CohortAnswers;
  /** Vote threshold tau in [0, 1], default 0. */
  tau?: number;
  /** co-rl only: who grades each agent (default 'ring', the paper; others need N >= 3, see coLabeling.ts). */
  teacher?: TeacherMode;
}

/**
 * co-rl-frozen request, the distillation control: agent n is rewarded against the vote of its ring
 * predecessor's FROZEN base copy (a peer that never trains), taken over that copy's own K samples of the
 * same prompts. Only answers: the frozen copies' as well as the trained agents'.
 */
export interface FrozenPeerRequest {
  method: 'co-rl-frozen';
  /** The trained agents' answers (the completions rewarded). */
  cohort: CohortAnswers;
  /** The frozen base copies' answers to the same prompts: same B, K and agent order as `cohort`. */
  frozen: CohortAnswers;
  /** Vote threshold tau in [0, 1], default 0 (the same rule for both votes). */
  tau?: number;
  /** Who grades each agent, from the frozen votes (default 'ring'; 'self_plus_peers' is refused). */
  teacher?: TeacherMode;
}

/** intuitor request. */
export interface IntuitorRequest {
  method: 'intuitor';
  /** Per agent: per-token self-certainty KL(U || p_t) = logsumexp(z_t) - mean(z_t) - log V (z = logits / T), with mask. */
  selfCertainty: readonly TokenBatch[];
}

/** rent request. */
export interface RentRequest {
  method: 'rent';
  /** Per agent: per-token entropy H(p_t) (logits / T), with mask. */
  entropy: readonly TokenBatch[];
}

/** random-control request. */
export interface RandomRequest {
  method: 'random';
  /** Per agent: number of completions this step (B*K). */
  counts: readonly number[];
  /** Per agent: its own seeded uniform [0, 1) stream. */
  rands: readonly (() => number)[];
}

/**
 * Input of a label-free reward computation. No variant has a field for ground truth: label-free rewards
 * are computed from a structure that does not contain it at all.
 */
export type LabelFreeRequest =
  | VoteRewardRequest
  | FrozenPeerRequest
  | IntuitorRequest
  | RentRequest
  | RandomRequest;

/** Rewards for a cohort, plus the labels the rewards were computed against. */
export interface RewardResult {
  /** `rewards[n][b*K + k]`. */
  rewards: number[][];
  /** `trainedLabels[n][b]`: label agent n was rewarded against (`null` = unlabeled); `null` for label-less methods. */
  trainedLabels: (string | null)[][] | null;
  /** `votes[n][b]`: each agent's OWN vote, for co-rl, co-rl-frozen and ttrl; `null` otherwise. */
  votes: Vote[][] | null;
  /** co-rl-frozen only: `teacherVotes[n][b]`, the vote of agent n's frozen base copy. */
  teacherVotes?: Vote[][];
  /** `candidates[n][b]`: every answer that earned a reward, when a peer teacher may accept several. */
  candidates?: string[][][];
}

/**
 * Predecessor of agent n on the directed ring: (n - 1) mod N. Agent 0 is graded by agent N-1;
 * with N = 2 the two agents grade each other.
 * @throws for N < 2 (an agent must never grade itself) or n outside [0, N)
 */
export function ringPredecessor(n: number, N: number): number {
  assertInt('N', N, 1);
  if (N < 2) throw new Error('ring predecessor needs N >= 2 agents: with N = 1 the agent would grade itself');
  assertInt('n', n, 0);
  if (n >= N) throw new Error(`agent index ${n} out of range for N = ${N}`);
  return (n - 1 + N) % N;
}

/**
 * Binary match rewards of one agent: r[b*K+k] = 1 iff answer is non-null, label[b] is non-null and they are
 * equal; so every completion of an unlabeled prompt gets 0.
 * @param answers one agent's answers, index b*K + k
 * @param labels one label per prompt (`null` = unlabeled)
 */
export function matchRewards(
  answers: readonly Answer[],
  labels: readonly (string | null)[],
  K: number,
): number[] {
  assertInt('K', K, 1);
  if (answers.length !== labels.length * K) {
    throw new Error(`expected ${labels.length}*${K} answers, got ${answers.length}`);
  }
  return answers.map((a, i) => {
    const label = labels[Math.floor(i / K)];
    return a !== null && label !== null && a === label ? 1 : 0;
  });
}

function checkCohort(c: CohortAnswers): void {
  assertInt('B', c.B, 1);
  assertInt('K', c.K, 1);
  if (c.answers.length < 1) throw new Error('cohort has no agents');
  c.answers.forEach((a, n) => {
    if (a.length !== c.B * c.K)
      throw new Error(`agent ${n}: expected B*K = ${c.B * c.K} answers, got ${a.length}`);
  });
}

/**
 * Co-RL labels: agent n is trained on its ring predecessor's vote.
 * @param votes `votes[n][b]` own votes of every agent
 * @returns `labels[n][b]` = `votes[ringPredecessor(n, N)][b].vote`
 * @throws for N = 1
 */
export function coRlLabels(votes: readonly (readonly Vote[])[]): (string | null)[][] {
  const N = votes.length;
  if (N < 2) {
    throw new Error(
      `co-rl is undefined for N = ${N}: each agent must be graded by a different agent (ring predecessor). ` +
        'Use N >= 2, or ttrl for a single self-rewarding agent.',
    );
  }
  return votes.map((_, n) => voteLabels(votes[ringPredecessor(n, N)]));
}

/**
 * Rewards and trained labels of a label-free method. Ground truth cannot be passed in.
 * - `co-rl`: 1 if the answer equals the ring predecessor's vote (0 for all K if it is unlabeled); N = 1 throws.
 * - `co-rl-frozen`: as co-rl, but against the predecessor's FROZEN base copy's vote (see frozenPeerRewards).
 * - `ttrl`: 1 if the answer equals the agent's own vote.
 * - `intuitor`: per-completion mean over masked tokens of the given per-token self-certainty.
 * - `rent`: minus the per-completion mean over masked tokens of the given per-token entropy.
 * - `random`: Bernoulli(0.5) per completion, `rand() < 0.5 ? 1 : 0` from each agent's own stream.
 */
export function labelFreeRewards(req: LabelFreeRequest): RewardResult {
  switch (req.method) {
    case 'co-rl':
    case 'ttrl': {
      const { cohort } = req;
      checkCohort(cohort);
      const votes = cohortVotes(cohort.answers, cohort.B, cohort.K, req.tau ?? 0);
      if (req.method === 'co-rl' && req.teacher && req.teacher !== 'ring')
        return { ...peerTeacherRewards(cohort.answers, votes.map(voteLabels), cohort.K, req.teacher), votes };
      const trainedLabels = req.method === 'co-rl' ? coRlLabels(votes) : votes.map(voteLabels);
      const rewards = cohort.answers.map((a, n) => matchRewards(a, trainedLabels[n], cohort.K));
      return { rewards, trainedLabels, votes };
    }
    case 'co-rl-frozen':
      return frozenPeerRewards(req);
    case 'intuitor':
      return {
        rewards: req.selfCertainty.map((t) => Array.from(maskedRowMeans(t))),
        trainedLabels: null,
        votes: null,
      };
    case 'rent':
      return {
        // `0 - h` rather than `-h` so that a zero-entropy completion gets +0, not -0.
        rewards: req.entropy.map((t) => Array.from(maskedRowMeans(t), (h) => 0 - h)),
        trainedLabels: null,
        votes: null,
      };
    case 'random': {
      if (req.counts.length !== req.rands.length) throw new Error('random: need one stream per agent');
      const rewards = req.counts.map((c, n) => {
        assertInt('count', c, 0);
        return randomRewards(c, req.rands[n]);
      });
      return { rewards, trainedLabels: null, votes: null };
    }
    default: {
      const never: never = req;
      throw new Error(`unknown label-free method ${(never as { method: string }).method}`);
    }
  }
}

/**
 * The co-rl-frozen control: agent n gets 1 for a completion equal to the vote of its ring predecessor's
 * frozen base copy (0 for all K when that vote is unlabeled); the votes are taken with the same rule
 * (ties to the first in rollout order, threshold tau). Peer teachers 'strict_majority' and 'union' combine
 * the frozen peers' votes; N = 1 and 'self_plus_peers' throw.
 */
export function frozenPeerRewards(req: FrozenPeerRequest): RewardResult {
  const { cohort, frozen } = req;
  checkCohort(cohort);
  checkCohort(frozen);
  const N = cohort.answers.length;
  if (frozen.B !== cohort.B || frozen.K !== cohort.K || frozen.answers.length !== N)
    throw new Error(
      `co-rl-frozen: the frozen answers must match the trained ones (B ${cohort.B}, K ${cohort.K}, N ${N}), got B ${frozen.B}, K ${frozen.K}, N ${frozen.answers.length}`,
    );
  const teacher = req.teacher ?? 'ring';
  const problem = frozenTeacherProblem(teacher, N);
  if (problem) throw new Error(`co-rl-frozen: ${problem}`);
  const tau = req.tau ?? 0;
  const votes = cohortVotes(cohort.answers, cohort.B, cohort.K, tau);
  const teacherVotes = cohortVotes(frozen.answers, frozen.B, frozen.K, tau);
  if (teacher !== 'ring')
    return {
      ...peerTeacherRewards(cohort.answers, teacherVotes.map(voteLabels), cohort.K, teacher),
      votes,
      teacherVotes,
    };
  const trainedLabels = coRlLabels(teacherVotes);
  const rewards = cohort.answers.map((a, n) => matchRewards(a, trainedLabels[n], cohort.K));
  return { rewards, trainedLabels, votes, teacherVotes };
}

/** `count` Bernoulli(0.5) rewards drawn from `rand` (uniform in [0, 1)): 1 iff rand() < 0.5. */
export function randomRewards(count: number, rand: () => number): number[] {
  const out: number[] = [];
  for (let i = 0; i < count; i++) out.push(rand() < 0.5 ? 1 : 0);
  return out;
}

/**
 * GT-Reward baseline: 1 iff an agent's answer equals the ground truth of its prompt. The ONLY reward
 * that reads ground truth.
 * @param truth ground-truth answer per prompt, length B
 */
export function groundTruthRewards(cohort: CohortAnswers, truth: readonly string[]): RewardResult {
  checkCohort(cohort);
  if (truth.length !== cohort.B)
    throw new Error(`expected ${cohort.B} ground-truth answers, got ${truth.length}`);
  const labels = [...truth];
  return {
    rewards: cohort.answers.map((a) => matchRewards(a, labels, cohort.K)),
    trainedLabels: cohort.answers.map(() => [...labels]),
    votes: null,
  };
}
