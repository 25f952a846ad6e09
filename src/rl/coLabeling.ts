// Co-RL teachers for N >= 3 and the co-labeling diagnostics of the public Co-RL code (docs/method.md ("Extensions from the public code"),
// an extension, not in the paper): strict_majority / self_plus_peers / union teachers built from all
// peers' votes, and per step supervision fraction, peer tie rate, unanimous rate, supervision contains
// truth (measurement only) and the own vote's oracle accuracy. Teachers never see ground truth.
import { assertInt } from './stats';
import { majorityVote } from './vote';

/** Who grades agent n under co-rl: the paper's ring predecessor, or a teacher made from all peers. */
export type TeacherMode = 'ring' | 'strict_majority' | 'self_plus_peers' | 'union';

/** Every teacher mode; 'ring' (the paper) first and default. */
export const TEACHER_MODES: readonly TeacherMode[] = ['ring', 'strict_majority', 'self_plus_peers', 'union'];

/** One line per mode, for the settings and the docs. */
export const TEACHER_HELP: Record<TeacherMode, string> = {
  ring: 'ring predecessor (the paper): agent n is graded by agent n-1',
  strict_majority:
    'strict majority of the peers’ votes; a tie leaves the prompt unlabelled (extension, not in the paper)',
  self_plus_peers:
    'strict majority of the peers; the agent’s own vote breaks a tie (extension, not in the paper)',
  union: 'rewarded when the answer matches any peer’s vote (extension, not in the paper)',
};

/**
 * Why `mode` cannot run with N agents, or null when it can. The peer teachers need N >= 3: with two
 * agents there is one peer and every peer teacher is the ring.
 */
export function teacherModeProblem(mode: string, N: number): string | null {
  if (!(TEACHER_MODES as readonly string[]).includes(mode))
    return `must be one of ${TEACHER_MODES.map((m) => `'${m}'`).join(' | ')}, got ${JSON.stringify(mode)}`;
  if (mode !== 'ring' && N < 3) {
    return `teacher '${mode}' needs N >= 3 agents (it combines the votes of several peers; with N = ${N} an agent has ${N - 1} peer${N === 2 ? '' : 's'}, so use 'ring')`;
  }
  return null;
}

/**
 * Why `mode` cannot grade co-rl-frozen (the distillation control) with N agents, or null when it can.
 * As teacherModeProblem, and N >= 2; 'self_plus_peers' is refused: its tie-break is the agent's own vote,
 * which would mix the trained agent into a teacher that must stay frozen.
 */
export function frozenTeacherProblem(mode: string, N: number): string | null {
  if (N < 2)
    return `co-rl-frozen needs N >= 2 agents (each is graded by a peer's frozen base copy, never its own); got N = ${N}`;
  if (mode === 'self_plus_peers')
    return "teacher 'self_plus_peers' is not available for co-rl-frozen (its tie-break is the agent's own, trained vote, so the teacher would not be frozen); use 'ring', 'strict_majority' or 'union'";
  return teacherModeProblem(mode, N);
}

/** Agent n's peers in ring order: n-1, n-2, ... (mod N), never n itself. */
export function peersOf(n: number, N: number): number[] {
  assertInt('N', N, 1);
  assertInt('n', n, 0);
  if (n >= N) throw new Error(`agent index ${n} out of range for N = ${N}`);
  return Array.from({ length: N - 1 }, (_, i) => (n - 1 - i + N) % N);
}

/**
 * The strict majority of some votes: the answer held by more than half of the LABELED votes (null votes
 * are no vote), else null (a tie, or nothing labeled). With two votes both must agree.
 */
export function strictMajority(votes: readonly (string | null)[]): string | null {
  const v = majorityVote(votes); // null votes are unparseable answers to it: never counted
  return v.parseable > 0 && v.count * 2 > v.parseable ? v.vote : null;
}

/** What each agent is rewarded against under a teacher: the accepted answers per agent and prompt. */
export interface Supervision {
  /** `candidates[n][b]`: answers that earn agent n a reward on prompt b (empty = unlabeled). */
  candidates: string[][][];
  /** `labels[n][b]`: the single trained label (union: the first candidate in ring order), null when none. */
  labels: (string | null)[][];
}

/** Candidates of agent n on one prompt under a peer teacher, from the peers' votes (ring order) and its own. */
function peerCandidates(
  mode: Exclude<TeacherMode, 'ring'>,
  peers: readonly (string | null)[],
  own: string | null,
): string[] {
  if (mode === 'union') return [...new Set(peers.filter((v): v is string => v !== null))];
  const maj = strictMajority(peers);
  if (maj !== null) return [maj];
  // a tie: the own vote breaks it when it is one of the tied top answers
  if (
    mode === 'self_plus_peers' &&
    own !== null &&
    peers.filter((p) => p === own).length === majorityVote(peers).count
  )
    return [own];
  return [];
}

/**
 * The supervision of every agent from the cohort's own votes. `ring`: the predecessor's vote (N >= 2);
 * the peer teachers: from all peers' votes (N >= 3, else throws with the reason).
 * @param own `own[n][b]`: agent n's own vote on prompt b (null = unlabeled)
 */
export function teacherSupervision(
  own: readonly (readonly (string | null)[])[],
  mode: TeacherMode,
): Supervision {
  const N = own.length;
  if (N < 2)
    throw new Error(`co-rl is undefined for N = ${N}: each agent must be graded by a different agent`);
  const problem = teacherModeProblem(mode, N);
  if (problem) throw new Error(problem);
  const B = own[0].length;
  if (own.some((v) => v.length !== B)) throw new Error('every agent needs one vote per prompt');
  const candidates = own.map((mine, n) => {
    const peers = peersOf(n, N);
    return mine.map((v, b) => {
      if (mode === 'ring') return own[peers[0]][b] === null ? [] : [own[peers[0]][b] as string];
      return peerCandidates(
        mode,
        peers.map((p) => own[p][b]),
        v,
      );
    });
  });
  return { candidates, labels: candidates.map((c) => c.map((x) => x[0] ?? null)) };
}

/**
 * Binary rewards against candidate sets: r[b*K+k] = 1 iff the answer is non-null and among the
 * candidates of prompt b (so every completion of an unlabeled prompt gets 0).
 */
export function candidateRewards(
  answers: readonly (string | null)[],
  candidates: readonly (readonly string[])[],
  K: number,
): number[] {
  assertInt('K', K, 1);
  if (answers.length !== candidates.length * K)
    throw new Error(`expected ${candidates.length}*${K} answers, got ${answers.length}`);
  return answers.map((a, i) => (a !== null && candidates[Math.floor(i / K)].includes(a) ? 1 : 0));
}

/**
 * Co-RL rewards under a peer teacher (N >= 3): each agent's completions against its candidates.
 * @param answers `answers[n][b*K + k]`
 * @param own `own[n][b]`: every agent's own vote
 */
export function peerTeacherRewards(
  answers: readonly (readonly (string | null)[])[],
  own: readonly (readonly (string | null)[])[],
  K: number,
  mode: TeacherMode,
) {
  const sup = teacherSupervision(own, mode);
  return {
    rewards: answers.map((a, n) => candidateRewards(a, sup.candidates[n], K)),
    trainedLabels: sup.labels,
    candidates: sup.candidates,
  };
}
