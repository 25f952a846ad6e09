// Error-overlap diversity metrics for agent pairs (docs/method.md ("Diversity and error overlap")): four cells, Cohen's kappa, c, u, w.

/** One agent scored single-sample on the same P problems (same order for every agent). */
export interface AgentScores {
  /** Optional display name. */
  name?: string;
  /** Whether the agent's answer to problem i was right. */
  correct: readonly boolean[];
  /** The agent's extracted answer to problem i (null = unparseable). */
  answers: readonly (string | null)[];
}

/** Overlap statistics of one pair of agents on P problems. Shares are fractions of P. */
export interface PairOverlap {
  /** Number of problems P (> 0). */
  n: number;
  /** Counts of the four cells. */
  counts: { bothRight: number; onlyA: number; onlyB: number; bothWrong: number };
  /** Accuracy of A and of B. */
  accA: number;
  accB: number;
  /** Observed agreement on right/wrong labels: (bothRight + bothWrong) / P. */
  observedAgreement: number;
  /** Chance agreement: accA*accB + (1-accA)(1-accB). */
  expectedAgreement: number;
  /**
   * Cohen's kappa on right/wrong labels: (observed - expected) / (1 - expected).
   * Degenerate case: when expected agreement is exactly 1 (both agents always right, or both always
   * wrong), observed agreement is necessarily 1 too and kappa is DEFINED AS 1 (perfect agreement);
   * `kappaDegenerate` is then true so callers can flag it. Otherwise kappa is the ordinary formula
   * (e.g. one agent always right and the other not gives kappa = 0).
   */
  kappa: number;
  /** True when expected agreement is 1 and kappa was set to 1 by convention. */
  kappaDegenerate: boolean;
  /** Complementarity c: share where exactly one agent is right. */
  c: number;
  /** Oracle accuracy u: share where at least one agent is right. */
  u: number;
  /** Wrong-agreement w: share where both are wrong AND gave the same non-null answer. */
  w: number;
}

function checkScores(s: AgentScores, label: string): void {
  if (s.correct.length !== s.answers.length) {
    throw new Error(`${label}: correct has ${s.correct.length} entries but answers has ${s.answers.length}`);
  }
}

/** Overlap statistics of agents A and B on the same problems. Throws on length mismatch or P = 0. */
export function pairOverlap(a: AgentScores, b: AgentScores): PairOverlap {
  checkScores(a, a.name ?? 'agent A');
  checkScores(b, b.name ?? 'agent B');
  const n = a.correct.length;
  if (b.correct.length !== n)
    throw new Error(`agents scored on different numbers of problems: ${n} vs ${b.correct.length}`);
  if (n === 0) throw new Error('pairOverlap needs at least one problem');
  let bothRight = 0;
  let onlyA = 0;
  let onlyB = 0;
  let bothWrong = 0;
  let sameWrong = 0;
  for (let i = 0; i < n; i++) {
    const ra = a.correct[i];
    const rb = b.correct[i];
    if (ra && rb) bothRight++;
    else if (ra) onlyA++;
    else if (rb) onlyB++;
    else {
      bothWrong++;
      const x = a.answers[i];
      if (x !== null && x === b.answers[i]) sameWrong++;
    }
  }
  const rightA = bothRight + onlyA;
  const rightB = bothRight + onlyB;
  const accA = rightA / n;
  const accB = rightB / n;
  const observed = (bothRight + bothWrong) / n;
  // Detect the degenerate case from integer counts (exact), not from floating-point expected agreement.
  const degenerate = (rightA === n && rightB === n) || (rightA === 0 && rightB === 0);
  const expected = degenerate ? 1 : accA * accB + (1 - accA) * (1 - accB);
  const kappa = degenerate ? 1 : (observed - expected) / (1 - expected);
  return {
    n,
    counts: { bothRight, onlyA, onlyB, bothWrong },
    accA,
    accB,
    observedAgreement: observed,
    expectedAgreement: expected,
    kappa,
    kappaDegenerate: degenerate,
    c: (onlyA + onlyB) / n,
    u: (bothRight + onlyA + onlyB) / n,
    w: sameWrong / n,
  };
}

/** All-pairs overlap of N agents. Matrices are N x N and symmetric; entry [i][i] is an agent with itself. */
export interface OverlapMatrix {
  names: string[];
  /** Accuracy per agent. */
  accuracy: number[];
  kappa: number[][];
  c: number[][];
  u: number[][];
  w: number[][];
  /** Every unordered pair i < j with its full statistics. */
  pairs: { i: number; j: number; overlap: PairOverlap }[];
}

/**
 * Overlap statistics of all pairs of N >= 1 agents scored on the same problems. The diagonal compares
 * an agent with itself (kappa 1, c 0, u = accuracy, w = share wrong with a non-null answer).
 */
export function overlapMatrix(agents: readonly AgentScores[]): OverlapMatrix {
  if (agents.length === 0) throw new Error('overlapMatrix needs at least one agent');
  const n = agents.length;
  const square = (): number[][] => Array.from({ length: n }, () => new Array<number>(n).fill(0));
  const out: OverlapMatrix = {
    names: agents.map((a, i) => a.name ?? `agent ${i}`),
    accuracy: [],
    kappa: square(),
    c: square(),
    u: square(),
    w: square(),
    pairs: [],
  };
  for (let i = 0; i < n; i++) {
    for (let j = i; j < n; j++) {
      const o = pairOverlap(agents[i], agents[j]);
      for (const [x, y] of [
        [i, j],
        [j, i],
      ]) {
        out.kappa[x][y] = o.kappa;
        out.c[x][y] = o.c;
        out.u[x][y] = o.u;
        out.w[x][y] = o.w;
      }
      if (i === j) out.accuracy.push(o.accA);
      else out.pairs.push({ i, j, overlap: o });
    }
  }
  return out;
}
