// The regime figures of a base cohort (docs/method.md, "The regime"): from each agent's greedy answers,
// S samples per problem at the rollout temperature (the first K are one rollout group) and two independent
// single samples at T = 0.8, compute per agent greedy, sampled, maj@K and pass@K accuracy, the vote's gain
// over greedy, spread (0 < p(x) < 1 from S samples), vote-share calibration (AUROC), the zero-std share of
// rollout groups, how often the vote equals the greedy answer, and seed-only kappa; per ordered pair the
// reach (gate A3) and the overlap. Pure: no model, no sampling.
import { pairOverlap, type AgentScores } from '../../analysis/overlap';
import { hashString } from '../../util/rng';
import { majorityVote, type Answer } from '../vote';
import { auroc, bootstrap, meanInterval, wilson, type Estimate } from './stats';

/** What was drawn from one agent on the P problems (same order for every agent). */
export interface AgentDraws {
  id: string;
  /** Greedy decoding. */
  greedy: AgentScores;
  /** `samples[i]`: S >= K answers to problem i at the rollout temperature, in draw order. */
  samples: readonly (readonly Answer[])[];
  /** `sampleCorrect[i][s]`: whether samples[i][s] is right. */
  sampleCorrect: readonly (readonly boolean[])[];
  /** Two independent single samples of the same checkpoint at T = 0.8 (the seed-only pair). */
  seedOnly: readonly [AgentScores, AgentScores];
}

/** Reach needs at least this many qualifying problems (else "not measurable"). */
export const REACH_MIN_PROBLEMS = 100;

/** Per-agent figures. */
export interface AgentRegime {
  id: string;
  greedy: Estimate;
  /** Mean over problems of the share of the K rollout samples that are right. */
  sampled: Estimate;
  /** Majority vote of the K samples (ties to the first in draw order; no parseable answer = wrong). */
  majK: Estimate;
  /** maj@K minus greedy, per problem (-1, 0, 1), averaged. */
  majMinusGreedy: Estimate;
  /** At least one of the K samples right. */
  passK: Estimate;
  /** Share of problems with 0 < p(x) < 1 from all S samples (gate A4). */
  spread: Estimate;
  /** AUROC of the winning vote's share against the vote being right (labeled problems). */
  voteAuroc: Estimate;
  /** Share of rollout groups (K samples) whose ground-truth rewards are all equal: no gradient even for GT. */
  zeroStd: Estimate;
  /** Share of problems where the K-sample vote equals the greedy answer. */
  voteIsGreedy: Estimate;
  /** Cohen's kappa between two single samples of this checkpoint at T = 0.8 (gate A5). */
  seedOnlyKappa: Estimate;
}

/** Figures of an ordered pair: `learner` trained on `peer`'s votes. */
export interface PairRegime {
  learner: string;
  peer: string;
  /** Gate A3: on problems where the peer's vote is right and the learner's own vote wrong, the learner's share of right samples (null when none qualify). */
  reach: Estimate | null;
  /** Whether at least REACH_MIN_PROBLEMS problems qualify (else the gate reads "not measurable"). */
  reachMeasurable: boolean;
  /** Problems that qualify for reach. */
  reachProblems: number;
  /** Share of the learner's groups with all K rewards equal under the peer-vote (Co-RL) reward. */
  peerZeroStd: Estimate;
  /** Overlap of the two agents' greedy answers, and of one sample each at T = 0.8. */
  kappaGreedy: number;
  cGreedy: number;
  kappaSampled: number;
  cSampled: number;
}

export interface RegimeFigures {
  problems: number;
  K: number;
  S: number;
  agents: AgentRegime[];
  /** Every ordered pair (learner, peer). */
  pairs: PairRegime[];
}

const count = (xs: readonly boolean[]): number => xs.filter(Boolean).length;

function agentFigures(
  d: AgentDraws,
  K: number,
  P: number,
): AgentRegime & { votes: Answer[]; voteRight: boolean[] } {
  const votes: Answer[] = [];
  const voteRight: boolean[] = [];
  const pK: number[] = [];
  const diff: number[] = [];
  const shares: number[] = [];
  const labeledRight: boolean[] = [];
  let pass = 0;
  let spread = 0;
  let zero = 0;
  let same = 0;
  for (let i = 0; i < P; i++) {
    const group = d.samples[i].slice(0, K);
    const right = d.sampleCorrect[i].slice(0, K);
    const v = majorityVote(group);
    const vr = v.vote !== null && right[group.indexOf(v.vote)];
    votes.push(v.vote);
    voteRight.push(vr);
    const k = count(right);
    pK.push(k / K);
    diff.push((vr ? 1 : 0) - (d.greedy.correct[i] ? 1 : 0));
    if (v.vote !== null) {
      shares.push(v.share);
      labeledRight.push(vr);
    }
    if (k > 0) pass++;
    if (k === 0 || k === K) zero++;
    const all = count(d.sampleCorrect[i]);
    if (all > 0 && all < d.sampleCorrect[i].length) spread++;
    if (v.vote !== null && v.vote === d.greedy.answers[i]) same++;
  }
  const seed = hashString(`regime|${d.id}`);
  const [s1, s2] = d.seedOnly;
  return {
    id: d.id,
    greedy: wilson(count(d.greedy.correct), P),
    sampled: meanInterval(pK),
    majK: wilson(count(voteRight), P),
    majMinusGreedy: meanInterval(diff),
    passK: wilson(pass, P),
    spread: wilson(spread, P),
    voteAuroc: bootstrap(
      shares.length,
      (ix) =>
        auroc(
          ix.map((i) => shares[i]),
          ix.map((i) => labeledRight[i]),
        ),
      seed,
    ),
    zeroStd: wilson(zero, P),
    voteIsGreedy: wilson(same, P),
    seedOnlyKappa: bootstrap(P, (ix) => subsetKappa(s1, s2, ix), seed + 1),
    votes,
    voteRight,
  };
}

/** Kappa of two score lists restricted to the problems `ix` (with repeats). */
function subsetKappa(a: AgentScores, b: AgentScores, ix: readonly number[]): number {
  return pairOverlap(
    { correct: ix.map((i) => a.correct[i]), answers: ix.map((i) => a.answers[i]) },
    { correct: ix.map((i) => b.correct[i]), answers: ix.map((i) => b.answers[i]) },
  ).kappa;
}

/**
 * The regime figures of a cohort. `K` is the rollout group size (>= 2); every agent must have been drawn on
 * the same P problems with at least K samples each.
 */
export function regimeFigures(draws: readonly AgentDraws[], K: number): RegimeFigures {
  if (draws.length === 0) throw new Error('regime: no agents');
  if (!(Number.isInteger(K) && K >= 2)) throw new Error(`regime: K must be an integer >= 2, got ${K}`);
  const P = draws[0].greedy.correct.length;
  if (P === 0) throw new Error('regime: no problems');
  for (const d of draws) {
    if (d.greedy.correct.length !== P || d.samples.length !== P || d.sampleCorrect.length !== P)
      throw new Error(`regime: agent ${d.id} was drawn on another number of problems than ${draws[0].id}`);
    if (d.samples.some((s, i) => s.length < K || d.sampleCorrect[i].length !== s.length))
      throw new Error(`regime: agent ${d.id} has fewer than K = ${K} samples on some problem`);
  }
  const S = Math.min(...draws.flatMap((d) => d.samples.map((s) => s.length)));
  const per = draws.map((d) => agentFigures(d, K, P));
  const pairs: PairRegime[] = [];
  for (let l = 0; l < draws.length; l++) {
    for (let p = 0; p < draws.length; p++) {
      if (l === p) continue;
      const reachVals: number[] = [];
      let peerZero = 0;
      for (let i = 0; i < P; i++) {
        const pv = per[p].votes[i];
        const rewards = draws[l].samples[i].slice(0, K).map((a) => (pv !== null && a === pv ? 1 : 0));
        if (rewards.every((r) => r === rewards[0])) peerZero++;
        if (per[p].voteRight[i] && !per[l].voteRight[i])
          reachVals.push(count(draws[l].sampleCorrect[i].slice(0, K)) / K);
      }
      const g = pairOverlap(draws[l].greedy, draws[p].greedy);
      const s = pairOverlap(draws[l].seedOnly[0], draws[p].seedOnly[0]);
      pairs.push({
        learner: draws[l].id,
        peer: draws[p].id,
        reach: reachVals.length ? meanInterval(reachVals) : null,
        reachMeasurable: reachVals.length >= REACH_MIN_PROBLEMS,
        reachProblems: reachVals.length,
        peerZeroStd: wilson(peerZero, P),
        kappaGreedy: g.kappa,
        cGreedy: g.c,
        kappaSampled: s.kappa,
        cSampled: s.c,
      });
    }
  }
  const agents = per.map(({ votes: _v, voteRight: _r, ...a }) => a);
  return { problems: P, K, S, agents, pairs };
}
