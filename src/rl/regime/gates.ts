// Gates A1-A5 of the regime check (docs/method.md, "The regime"): whether a base cohort's votes carry a
// signal label-free RL can act on, measured before any RL, and one plain sentence of what follows. The
// thresholds are fixed here, before any test run, and never moved after seeing results.
import { REACH_MIN_PROBLEMS, type AgentRegime, type PairRegime, type RegimeFigures } from './figures';

export type GateId = 'A1' | 'A2' | 'A3' | 'A4' | 'A5';
export type GateStatus = 'pass' | 'fail' | 'not measurable';

/** The gate thresholds (docs/method.md). */
export const GATES = {
  A1: { what: 'greedy accuracy per agent', lo: 0.3, hi: 0.7 },
  A2: { what: 'maj@K minus greedy per agent', min: 0 },
  A3: {
    what: 'reach: right samples where the peer vote is right and the own vote wrong (mean over pairs)',
    min: 0.15,
  },
  A4: { what: 'spread: share of problems with 0 < p(x) < 1 from S samples, per agent', min: 0.4 },
  A5: { what: 'seed-only kappa per agent (one checkpoint sampled twice at T = 0.8)', lo: 0.45, hi: 0.65 },
} as const;

export interface Gate {
  id: GateId;
  what: string;
  status: GateStatus;
  /** The measured values, e.g. "R 0.512, D 0.731". */
  detail: string;
}

export interface RegimeVerdict {
  gates: Gate[];
  /** True when every gate passes. */
  inRegime: boolean;
  /** What follows, in one plain sentence. */
  sentence: string;
}

const f3 = (x: number): string => (Number.isNaN(x) ? 'n/a' : x.toFixed(3));
const pct = (x: number): string => `${Math.round(x * 100)}%`;

/** The directed pairs training would use: each agent graded by its ring predecessor (N = 2: both ways). */
export function ringPairs(f: RegimeFigures): PairRegime[] {
  const ids = f.agents.map((a) => a.id);
  return ids.map((id, n) => {
    const peer = ids[(n - 1 + ids.length) % ids.length];
    return f.pairs.find((p) => p.learner === id && p.peer === peer)!;
  });
}

function perAgent(
  id: GateId,
  f: RegimeFigures,
  value: (a: AgentRegime) => number,
  ok: (x: number) => boolean,
): Gate {
  const vals = f.agents.map((a) => [a.id, value(a)] as const);
  return {
    id,
    what: GATES[id].what,
    status: vals.every(([, v]) => ok(v)) ? 'pass' : 'fail',
    detail: vals.map(([a, v]) => `${a} ${f3(v)}`).join(', '),
  };
}

function reachGate(f: RegimeFigures): Gate {
  const what = GATES.A3.what;
  if (f.agents.length < 2)
    return {
      id: 'A3',
      what,
      status: 'not measurable',
      detail: 'needs a pair: a one-agent cohort has no peer',
    };
  const pairs = ringPairs(f);
  const detail = pairs
    .map(
      (p) =>
        `${p.learner}<-${p.peer} ${p.reach ? f3(p.reach.value) : 'n/a'} (${p.reachProblems} problems${p.reachMeasurable ? '' : ', not measurable'})`,
    )
    .join(', ');
  if (pairs.some((p) => !p.reachMeasurable))
    return {
      id: 'A3',
      what,
      status: 'not measurable',
      detail: `${detail}; each pair needs >= ${REACH_MIN_PROBLEMS} problems`,
    };
  const m = pairs.reduce((a, p) => a + p.reach!.value, 0) / pairs.length;
  return { id: 'A3', what, status: m >= GATES.A3.min ? 'pass' : 'fail', detail: `mean ${f3(m)}: ${detail}` };
}

/** Gates A1-A5 and the sentence. */
export function regimeGates(f: RegimeFigures): RegimeVerdict {
  const { A1, A2, A4, A5 } = GATES;
  const gates: Gate[] = [
    perAgent(
      'A1',
      f,
      (a) => a.greedy.value,
      (x) => x >= A1.lo && x <= A1.hi,
    ),
    perAgent(
      'A2',
      f,
      (a) => a.majMinusGreedy.value,
      (x) => x >= A2.min,
    ),
    reachGate(f),
    perAgent(
      'A4',
      f,
      (a) => a.spread.value,
      (x) => x >= A4.min,
    ),
    perAgent(
      'A5',
      f,
      (a) => a.seedOnlyKappa.value,
      (x) => x >= A5.lo && x <= A5.hi,
    ),
  ];
  const inRegime = gates.every((g) => g.status === 'pass');
  return { gates, inRegime, sentence: regimeSentence(f, gates) };
}

const avg = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;

/** One plain sentence: the first reason the label-free signal is missing, or that it is there. */
export function regimeSentence(f: RegimeFigures, gates: readonly Gate[]): string {
  const failed = gates.filter((g) => g.status !== 'pass').map((g) => g.id);
  const also = (id: GateId): string => {
    const rest = failed.filter((g) => g !== id);
    return rest.length ? ` (gates ${rest.join(', ')} fail too)` : '';
  };
  const same = avg(f.agents.map((a) => a.voteIsGreedy.value));
  const spread = avg(f.agents.map((a) => a.spread.value));
  if (failed.length === 0)
    return `Every gate passes: votes differ from greedy answers on ${pct(1 - same)} of problems and ${pct(spread)} of problems have 0 < p(x) < 1, so the votes carry a signal label-free RL can act on; this cohort can test the claim.`;
  if (same >= 0.9 && failed.includes('A4'))
    return `Votes equal greedy answers on ${pct(same)} of problems and only ${pct(spread)} have 0 < p(x) < 1: these agents answer by rote, so label-free RL can only distil here${also('A4')}.`;
  if (failed.includes('A2')) {
    const worst = f.agents.reduce((a, b) => (b.majMinusGreedy.value < a.majMinusGreedy.value ? b : a));
    return `The vote of K = ${f.K} samples is ${(-worst.majMinusGreedy.value * 100).toFixed(1)} points below greedy decoding for ${worst.id}: sampling at this temperature is noisier than the agents' best answer, so a peer's vote teaches less than greedy decoding already knows${also('A2')}.`;
  }
  if (failed.includes('A3')) {
    if (f.agents.length < 2)
      return `A one-agent cohort has no peer to learn from: reach (A3) needs a pair; the other gates are measured on the agent alone${also('A3')}.`;
    const rs = ringPairs(f);
    if (rs.some((p) => !p.reachMeasurable))
      return `Too few problems where a peer's vote is right and the agent's own vote wrong to measure reach (A3 needs >= 100 per pair): use more problems or a more complementary cohort${also('A3')}.`;
    return `Where a peer's vote is right and the agent's own vote wrong, only ${pct(avg(rs.map((p) => p.reach!.value)))} of the agent's samples are right: Co-RL has little gradient exactly where a peer could teach${also('A3')}.`;
  }
  if (failed.includes('A1'))
    return `Greedy accuracy lies outside [0.30, 0.70] (${gates[0].detail}): too little headroom, or too weak a start, for RL to show a difference${also('A1')}.`;
  if (failed.includes('A5')) {
    // the agent furthest outside the band names the reason (a mean of two agents can sit inside it)
    const off = (k: number): number => Math.max(GATES.A5.lo - k, k - GATES.A5.hi);
    const worst = f.agents.reduce((a, b) =>
      off(b.seedOnlyKappa.value) > off(a.seedOnlyKappa.value) ? b : a,
    );
    const k = worst.seedOnlyKappa.value;
    return k > GATES.A5.hi
      ? `One checkpoint of ${worst.id} sampled twice agrees at kappa ${f3(k)} (above 0.65): its errors are fixed answers, not a distribution a vote can correct${also('A5')}.`
      : `One checkpoint of ${worst.id} sampled twice agrees at only kappa ${f3(k)} (below 0.45): its errors are sampling noise, not the systematic errors of the paper's models${also('A5')}.`;
  }
  return `Only ${pct(spread)} of problems have 0 < p(x) < 1 (A4 needs 40%): most problems are always right or always wrong, so most rollout groups carry no gradient${also('A4')}.`;
}
