// Pure data of the live phase portrait (docs/method.md ("Theory") on the real cohort): per held-out problem and
// evaluation, the point (pA(x), pB(x)) from the eval record's portraitRight counts (S samples per agent at
// the rollout temperature), the side of the separatrix pA + pB = 1 each problem started on, and counts.
import type { EvalRecord } from '../../rl/records';

/** Which side of pA + pB = 1 a point lies on ('on': exactly on the line). */
export type Side = 'above' | 'below' | 'on';

/** One problem at one evaluation. */
export interface Dot {
  /** Index of the held-out problem. */
  problem: number;
  pA: number;
  pB: number;
}

/** The portrait's frames for one method and one pair of agents. */
export interface PortraitSeries {
  /** Agent ids of the pair (x axis, y axis). */
  pair: [string, string];
  /** Samples per agent behind each p (S). */
  samples: number;
  /** The evaluations that carry portrait counts, in step order. */
  frames: { step: number; dots: Dot[] }[];
  /** Per problem, its side at the first frame. */
  startSide: Side[];
}

/** Counts at one frame: problems above, below and on the separatrix, and those now on the other side than they started. */
export interface PortraitCounts {
  above: number;
  below: number;
  on: number;
  /** Started strictly above and now strictly below, or the other way round. */
  crossed: number;
  crossedUp: number;
  crossedDown: number;
}

/** Side of a point; a tolerance keeps p sums like 3/8 + 5/8 on the line. */
export function sideOf(pA: number, pB: number): Side {
  const s = pA + pB - 1;
  return s > 1e-9 ? 'above' : s < -1e-9 ? 'below' : 'on';
}

/** Every pair (i < j) of agent ids, as "A-B" labels and index pairs. */
export function agentPairs(ids: readonly string[]): { label: string; a: string; b: string }[] {
  const out: { label: string; a: string; b: string }[] = [];
  for (let i = 0; i < ids.length; i++)
    for (let j = i + 1; j < ids.length; j++) out.push({ label: `${ids[i]}-${ids[j]}`, a: ids[i], b: ids[j] });
  return out;
}

/** Agent ids that carry portrait counts in a method's evaluations (from the first such record). */
export function portraitAgents(evals: readonly EvalRecord[]): string[] {
  const r = evals.find((e) => e.portraitSamples && e.agents.some((a) => a.portraitRight));
  return r ? r.agents.filter((a) => a.portraitRight).map((a) => a.agent) : [];
}

/**
 * The frames of the pair (a, b) over a method's evaluations: each evaluation with counts for both agents
 * gives one dot per held-out problem. Null when no evaluation carries them (portrait samples off, or a
 * run recorded before the portrait existed).
 */
export function portraitSeries(evals: readonly EvalRecord[], a: string, b: string): PortraitSeries | null {
  const frames: PortraitSeries['frames'] = [];
  let samples = 0;
  for (const e of evals) {
    const ra = e.agents.find((x) => x.agent === a)?.portraitRight;
    const rb = e.agents.find((x) => x.agent === b)?.portraitRight;
    const S = e.portraitSamples ?? 0;
    if (!ra || !rb || S <= 0 || ra.length !== rb.length) continue;
    samples = S;
    frames.push({ step: e.step, dots: ra.map((c, i) => ({ problem: i, pA: c / S, pB: rb[i] / S })) });
  }
  if (frames.length === 0) return null;
  const startSide = frames[0].dots.map((d) => sideOf(d.pA, d.pB));
  return { pair: [a, b], samples, frames, startSide };
}

/** Counts of one frame against the start sides. */
export function portraitCounts(dots: readonly Dot[], startSide: readonly Side[]): PortraitCounts {
  const c: PortraitCounts = { above: 0, below: 0, on: 0, crossed: 0, crossedUp: 0, crossedDown: 0 };
  for (const d of dots) {
    const now = sideOf(d.pA, d.pB);
    c[now]++;
    const was = startSide[d.problem];
    if (was === 'below' && now === 'above') c.crossedUp++;
    if (was === 'above' && now === 'below') c.crossedDown++;
  }
  c.crossed = c.crossedUp + c.crossedDown;
  return c;
}

/** Problems whose point differs between two frames. */
export function movedBetween(x: readonly Dot[], y: readonly Dot[]): number {
  let n = 0;
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i].pA !== y[i].pA || x[i].pB !== y[i].pB) n++;
  return n;
}

/**
 * A small fixed offset per problem (a fraction of one 1/S step, never more than half of it) so problems at
 * the same point stay visible as a cluster; the point's true value is kept for the readout.
 */
export function jitter(problem: number, samples: number): [number, number] {
  const h = (k: number) => {
    let x = Math.imul(problem + 1, 0x9e3779b1) ^ k;
    x = Math.imul(x ^ (x >>> 15), 0x85ebca6b);
    return ((x ^ (x >>> 13)) >>> 0) / 0x100000000 - 0.5;
  };
  const w = 0.7 / Math.max(1, samples);
  return [h(0x51) * w, h(0xa7) * w];
}
