// The public Co-RL code's per-step co-labeling diagnostics (`co_labeling/*`, docs/method.md ("Extensions from the public code")), computed in the
// metrics AFTER the rewards: they read the ground truth for measurement only and never feed a reward.
import { peersOf, strictMajority, TEACHER_MODES, type TeacherMode } from './coLabeling';

/** One agent's co-labeling figures at one step. `null` where the denominator is empty. */
export interface CoLabelingAgentRecord {
  agent: string;
  /** Share of the B prompts with a usable label (a non-empty supervision). */
  supervisionFraction: number;
  /** Among prompts where every peer is labeled: share with no strict majority among the peers' votes. */
  peerTieRate: number | null;
  /** Among supervised prompts: share whose supervision holds the ground truth (diagnostic only). */
  supervisionContainsTruth: number | null;
  /** Among prompts the agent's own vote labels: share where it is the truth (the code's oracle_accuracy_me). */
  ownVoteAccuracy: number | null;
  /** Mean number of accepted answers over supervised prompts (1 except under the union teacher). */
  candidateSetSize: number | null;
}

/** The co-labeling diagnostics of one step of a label-based method. */
export interface CoLabelingRecord {
  /** The teacher the rewards used ('ring' for the paper's co-rl; ttrl and gt report 'ring' too, unused). */
  teacher: TeacherMode;
  /** Among prompts every agent labels: share where all agents' own votes are equal. */
  unanimousRate: number | null;
  agents: CoLabelingAgentRecord[];
}

/** Inputs: the votes, the supervision the rewards used, and the truth (measurement only). */
export interface CoLabelingInputs {
  teacher: TeacherMode;
  ids: readonly string[];
  /** `own[n][b]`: agent n's own vote (null = unlabeled). */
  own: readonly (readonly (string | null)[])[];
  /** `peerVotes[n][b]`: the vote agent n gives as a peer, when it is not `own` (co-rl-frozen: its frozen base copy's). */
  peerVotes?: readonly (readonly (string | null)[])[];
  /** `candidates[n][b]`: answers agent n was rewarded for on prompt b (empty = unsupervised). */
  candidates: readonly (readonly (readonly string[])[])[];
  /** Ground truth per prompt. */
  truth: readonly string[];
}

const ratio = (num: number, den: number): number | null => (den > 0 ? num / den : null);

function agentRecord(x: CoLabelingInputs, n: number): CoLabelingAgentRecord {
  const B = x.truth.length;
  const peers = x.own.length > 1 ? peersOf(n, x.own.length) : [];
  let supervised = 0,
    holdsTruth = 0,
    setSize = 0,
    allPeers = 0,
    ties = 0,
    ownLabeled = 0,
    ownRight = 0;
  for (let b = 0; b < B; b++) {
    const c = x.candidates[n][b];
    if (c.length > 0) {
      supervised++;
      setSize += c.length;
      if (c.includes(x.truth[b])) holdsTruth++;
    }
    const pv = peers.map((p) => (x.peerVotes ?? x.own)[p][b]);
    if (pv.length > 0 && pv.every((v) => v !== null)) {
      allPeers++;
      if (strictMajority(pv) === null) ties++;
    }
    const v = x.own[n][b];
    if (v !== null) {
      ownLabeled++;
      if (v === x.truth[b]) ownRight++;
    }
  }
  return {
    agent: x.ids[n],
    supervisionFraction: B > 0 ? supervised / B : 0,
    peerTieRate: ratio(ties, allPeers),
    supervisionContainsTruth: ratio(holdsTruth, supervised),
    ownVoteAccuracy: ratio(ownRight, ownLabeled),
    candidateSetSize: ratio(setSize, supervised),
  };
}

/** Every co-labeling diagnostic of one step. */
export function coLabelingDiagnostics(x: CoLabelingInputs): CoLabelingRecord {
  const N = x.own.length;
  const B = x.truth.length;
  if (x.ids.length !== N || x.candidates.length !== N)
    throw new Error('coLabelingDiagnostics: ids, votes and candidates need one entry per agent');
  if (x.peerVotes && (x.peerVotes.length !== N || x.peerVotes.some((v) => v.length !== B)))
    throw new Error(`coLabelingDiagnostics: peerVotes need ${N} agents of ${B} votes`);
  if (x.own.some((v) => v.length !== B) || x.candidates.some((c) => c.length !== B))
    throw new Error(`coLabelingDiagnostics: every agent needs ${B} votes and candidate sets`);
  let full = 0,
    same = 0;
  for (let b = 0; b < B; b++) {
    const votes = x.own.map((v) => v[b]);
    if (votes.some((v) => v === null)) continue;
    full++;
    if (votes.every((v) => v === votes[0])) same++;
  }
  return {
    teacher: x.teacher,
    unanimousRate: ratio(same, full),
    agents: x.own.map((_, n) => agentRecord(x, n)),
  };
}

/** Candidate sets from single trained labels (null = unlabeled → no candidate). */
export function labelsAsCandidates(labels: readonly (readonly (string | null)[])[]): string[][][] {
  return labels.map((ls) => ls.map((l) => (l === null ? [] : [l])));
}

/**
 * The step's co-labeling record of a label-based method (co-rl, co-rl-frozen, ttrl, gt), or undefined for the label-less
 * ones (intuitor, rent, random). The supervision is what the rewards used: the candidates when a peer
 * teacher gave them, else the trained labels; the peers' tie rate reads the teachers' votes (the frozen
 * base copies' under co-rl-frozen) when given.
 */
export function stepCoLabeling(
  teacher: TeacherMode,
  ids: readonly string[],
  own: readonly (readonly (string | null)[])[],
  res: {
    trainedLabels: (string | null)[][] | null;
    candidates?: string[][][];
    teacherVotes?: readonly (readonly { vote: string | null }[])[];
  },
  truth: readonly string[],
): CoLabelingRecord | undefined {
  if (!res.trainedLabels) return undefined;
  return coLabelingDiagnostics({
    teacher,
    ids,
    own,
    ...(res.teacherVotes ? { peerVotes: res.teacherVotes.map((v) => v.map((x) => x.vote)) } : {}),
    candidates: res.candidates ?? labelsAsCandidates(res.trainedLabels),
    truth,
  });
}

const AGENT_SHARES = [
  'supervisionFraction',
  'peerTieRate',
  'supervisionContainsTruth',
  'ownVoteAccuracy',
] as const;
const isShare = (v: unknown, nullable: boolean) =>
  (nullable && v === null) || (typeof v === 'number' && v >= 0 && v <= 1);

/** Problems with a record read from a file (`at` names it), each naming its field; [] when it is sound. */
export function coLabelingProblems(x: unknown, at: string): string[] {
  const out: string[] = [];
  const show = (v: unknown) => (JSON.stringify(v) ?? String(v)).slice(0, 60);
  if (typeof x !== 'object' || x === null || Array.isArray(x))
    return [`${at}: must be an object, got ${show(x)}`];
  const r = x as Record<string, unknown>;
  if (!(TEACHER_MODES as readonly unknown[]).includes(r.teacher))
    out.push(`${at}.teacher: must be one of ${TEACHER_MODES.join(', ')}, got ${show(r.teacher)}`);
  if (!isShare(r.unanimousRate, true))
    out.push(`${at}.unanimousRate: must be a share in [0, 1] or null, got ${show(r.unanimousRate)}`);
  if (!Array.isArray(r.agents)) return [...out, `${at}.agents: must be an array, got ${show(r.agents)}`];
  r.agents.forEach((a: unknown, i) => {
    const aat = `${at}.agents[${i}]`;
    if (typeof a !== 'object' || a === null)
      return void out.push(`${aat}: must be an object, got ${show(a)}`);
    const o = a as Record<string, unknown>;
    if (typeof o.agent !== 'string' || o.agent === '')
      out.push(`${aat}.agent: must be a non-empty string, got ${show(o.agent)}`);
    for (const k of AGENT_SHARES)
      if (!isShare(o[k], k !== 'supervisionFraction'))
        out.push(
          `${aat}.${k}: must be a share in [0, 1]${k === 'supervisionFraction' ? '' : ' or null'}, got ${show(o[k])}`,
        );
    const c = o.candidateSetSize;
    if (c !== null && !(typeof c === 'number' && Number.isFinite(c) && c >= 0))
      out.push(`${aat}.candidateSetSize: must be a number >= 0 or null, got ${show(c)}`);
  });
  return out;
}
