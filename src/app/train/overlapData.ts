// Pure data of the Train view's error-overlap panel (docs/method.md ("Diversity and error overlap")): from the greedy answers and 0/1
// correctness that each held-out evaluation records per agent, every pair's four cells, Cohen's kappa,
// c, u and w, for the base agents (step 0) and for the latest evaluation of a chosen method.
import { pairOverlap, type AgentScores, type PairOverlap } from '../../analysis/overlap';
import type { EvalRecord } from '../../rl/records';
import type { RewardMethod } from '../../rl/rewards';
import type { RunMetrics } from '../../formats/runMetrics';

/** One pair of agents at one evaluation. */
export interface OverlapPair {
  a: string;
  b: string;
  overlap: PairOverlap;
}

/** The overlap of every pair of a cohort at one evaluation. */
export interface OverlapSnapshot {
  method: RewardMethod;
  step: number;
  /** Held-out problems scored. */
  problems: number;
  /** Agent ids and their greedy accuracies, in cohort order. */
  agents: { id: string; accuracy: number }[];
  /** Every unordered pair i < j, in the order (0,1), (0,2), ..., (1,2), ... */
  pairs: OverlapPair[];
}

/** A snapshot, or why the evaluation cannot give one. */
export type SnapshotResult = { ok: true; snapshot: OverlapSnapshot } | { ok: false; reason: string };

/** Per problem right/wrong from a '0'/'1' string of length `n`; null if it is not one. */
export function decodeBits(bits: unknown, n: number): boolean[] | null {
  if (typeof bits !== 'string' || bits.length !== n || !/^[01]*$/.test(bits)) return null;
  return [...bits].map((c) => c === '1');
}

/** Each agent's per-problem scores from an evaluation record, or why they are missing or malformed. */
export function evalScores(rec: EvalRecord): AgentScores[] | string {
  const n = rec.problems;
  if (!(Number.isInteger(n) && n > 0)) return `the evaluation at step ${rec.step} scored no problems`;
  const out: AgentScores[] = [];
  for (const a of rec.agents) {
    if (a.greedyAnswers === undefined || a.greedyCorrect === undefined)
      return `the evaluation at step ${rec.step} has no per-problem answers for agent ${a.agent} (recorded by an older version)`;
    const correct = decodeBits(a.greedyCorrect, n);
    const answers = a.greedyAnswers;
    const answersOk =
      Array.isArray(answers) &&
      answers.length === n &&
      answers.every((x) => x === null || typeof x === 'string');
    if (!correct || !answersOk)
      return `the evaluation at step ${rec.step} has malformed per-problem answers for agent ${a.agent} (expected ${n} answers and ${n} 0/1 marks)`;
    out.push({ name: a.agent, correct, answers });
  }
  if (out.length < 2) return 'error overlap needs at least 2 agents';
  return out;
}

/** The overlap of every pair at evaluation `rec`. */
export function overlapSnapshot(rec: EvalRecord): SnapshotResult {
  const scores = evalScores(rec);
  if (typeof scores === 'string') return { ok: false, reason: scores };
  const pairs: OverlapPair[] = [];
  for (let i = 0; i < scores.length; i++)
    for (let j = i + 1; j < scores.length; j++)
      pairs.push({ a: scores[i].name!, b: scores[j].name!, overlap: pairOverlap(scores[i], scores[j]) });
  return {
    ok: true,
    snapshot: {
      method: rec.method,
      step: rec.step,
      problems: rec.problems,
      agents: rec.agents.map((a, i) => ({
        id: a.agent,
        accuracy: scores[i].correct.filter(Boolean).length / rec.problems,
      })),
      pairs,
    },
  };
}

/** What the overlap panel shows. */
export interface OverlapViewData {
  /** Methods with at least one evaluation, in display order. */
  methods: RewardMethod[];
  /** The method "now" shows: the chosen one if it has evaluations, else the first that does; null if none. */
  method: RewardMethod | null;
  /** The base agents (the step-0 evaluation); null until it arrives. */
  before: SnapshotResult | null;
  /** The latest evaluation of `method`; null until there is one. */
  now: SnapshotResult | null;
}

/** The panel's data from the run's evaluations, for the method the user picked (null: the first). */
export function overlapViewData(m: RunMetrics, chosen: RewardMethod | null): OverlapViewData {
  const methods = m.methods.filter((x) => (m.evals[x]?.length ?? 0) > 0);
  const method = chosen !== null && methods.includes(chosen) ? chosen : (methods[0] ?? null);
  if (method === null) return { methods, method, before: null, now: null };
  const evals = m.evals[method]!;
  // every method starts from the same base agents, so any method's step-0 evaluation will do
  const base: EvalRecord | undefined =
    evals.find((e) => e.step === 0) ??
    methods.map((x) => m.evals[x]!.find((e) => e.step === 0)).find(Boolean);
  return {
    methods,
    method,
    before: base ? overlapSnapshot(base) : null,
    now: overlapSnapshot(evals[evals.length - 1]),
  };
}
