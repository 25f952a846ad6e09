// Pure helpers of the theory view (docs/method.md ("Theory")): memoised ODE runs, end points, horizons, chart series.
import {
  simulateCoRl,
  simulateSelfRewarding,
  workedExample,
  finalState,
  type Trajectory,
} from '../../analysis/theory';
import type { TheoryPoint } from '../../store/theorySlice';

/** Odd K values offered by the K control. */
export const K_OPTIONS: readonly number[] = [1, 3, 5, 7, 9, 11, 15, 21];
/** ODE integration: end time, RK4 step, and recorded spacing (0.5 time units). */
export const ODE_T_END = 200;
export const ODE_DT = 0.25;
const RECORD_EVERY = 2;
const ODE = { tEnd: ODE_T_END, dt: ODE_DT, recordEvery: RECORD_EVERY };

/** Co-RL and self-rewarding runs of the two-agent system from one start. */
export interface TrajectoryResult {
  start: TheoryPoint;
  K: number;
  /** Co-RL: the agents grade each other. States are [pA, pB]. */
  coRl: Trajectory;
  /** Self-rewarding: each agent alone from its own start. States are [pA, pB]. */
  self: Trajectory;
  coRlEnd: [number, number];
  selfEnd: [number, number];
}

/** A tiny least-recently-used memo keyed by strings. */
export function lruMemo<T>(limit: number, compute: (key: string) => T): (key: string) => T {
  const cache = new Map<string, T>();
  return (key) => {
    if (cache.has(key)) {
      const v = cache.get(key)!;
      cache.delete(key);
      cache.set(key, v);
      return v;
    }
    const v = compute(key);
    cache.set(key, v);
    if (cache.size > limit) cache.delete(cache.keys().next().value!);
    return v;
  };
}

const trajectoryMemo = lruMemo(64, (key) => {
  const [K, pA, pB] = key.split('|').map(Number);
  const coRl = simulateCoRl(pA, pB, { K, ...ODE });
  const self = simulateSelfRewarding([pA, pB], { K, ...ODE });
  return {
    start: { pA, pB },
    K,
    coRl,
    self,
    coRlEnd: finalState(coRl) as [number, number],
    selfEnd: finalState(self) as [number, number],
  } satisfies TrajectoryResult;
});

/** Co-RL and self-rewarding trajectories from `start` with K votes (eta = 1, t in [0, 200]); memoised. */
export function computeTrajectory(start: TheoryPoint, K: number): TrajectoryResult {
  return trajectoryMemo(`${K}|${start.pA}|${start.pB}`);
}

/** Summary of the worked example at one K, plus its mean-accuracy curves. */
export interface WorkedSummary {
  self: { accA: number; accB: number; mean: number };
  coRl: { accA: number; accB: number; mean: number };
  /** Mean accuracy over both agents and both prompt halves, over time. */
  series: { t: number; self: number; coRl: number }[];
  horizon: number;
}

const meanOver = (trs: [Trajectory, Trajectory], i: number): number =>
  (trs[0].y[i][0] + trs[0].y[i][1] + trs[1].y[i][0] + trs[1].y[i][1]) / 4;

const workedMemo = lruMemo(16, (key) => {
  const w = workedExample({ K: Number(key), ...ODE });
  const s = w.selfRewarding.halves;
  const c = w.coRl.halves;
  const horizon = Math.max(horizonFor(s[0]), horizonFor(s[1]), horizonFor(c[0]), horizonFor(c[1]));
  const series = s[0].t
    .map((t, i) => ({ t, self: meanOver(s, i), coRl: meanOver(c, i) }))
    .filter((p) => p.t <= horizon);
  const pick = ({ accA, accB, mean }: { accA: number; accB: number; mean: number }) => ({ accA, accB, mean });
  return { self: pick(w.selfRewarding), coRl: pick(w.coRl), series, horizon } satisfies WorkedSummary;
});

/** The worked example of docs/method.md ("Theory") at K votes; memoised. */
export function computeWorked(K: number): WorkedSummary {
  return workedMemo(String(K));
}

/**
 * Settling time of a trajectory: the first recorded time after which every state stays within `tol`
 * of the final state (0 if it never leaves that band).
 */
export function settleTime(tr: Trajectory, tol = 0.02): number {
  const f = finalState(tr);
  for (let i = tr.y.length - 1; i >= 0; i--) {
    if (tr.y[i].some((v, j) => Math.abs(v - f[j]) > tol)) return tr.t[Math.min(i + 1, tr.t.length - 1)];
  }
  return 0;
}

const NICE = [10, 20, 30, 40, 50, 60, 80, 100, 120, 150, 200];

/** A tidy time horizon for plotting a trajectory: about 1.4x its settling time, rounded up, in [10, 200]. */
export function horizonFor(tr: Trajectory): number {
  const want = 1.4 * settleTime(tr);
  return NICE.find((n) => n >= want) ?? NICE[NICE.length - 1];
}

/** Chart rows {t, a, b} of a two-agent trajectory up to time `tMax`. */
export function toSeries(tr: Trajectory, tMax = Infinity): { t: number; a: number; b: number }[] {
  const out: { t: number; a: number; b: number }[] = [];
  for (let i = 0; i < tr.t.length && tr.t[i] <= tMax; i++)
    out.push({ t: tr.t[i], a: tr.y[i][0], b: tr.y[i][1] });
  return out;
}

/** A probability shown to `digits` decimals. */
export const fmtP = (x: number, digits = 3): string => x.toFixed(digits);

/** A pair shown as "(0.998, 0.997)". */
export const fmtPair = (a: number, b: number, digits = 3): string =>
  `(${fmtP(a, digits)}, ${fmtP(b, digits)})`;

/** Parse a typed probability ("0.3", ".3", "0,3"); null unless it is a number in [0, 1]. */
export function parseProb(text: string): number | null {
  const t = text.trim().replace(',', '.');
  if (t === '' || !/^[0-9]*\.?[0-9]*$/.test(t)) return null;
  const x = Number(t);
  return Number.isFinite(x) && x >= 0 && x <= 1 ? x : null;
}

/** Where a start lies relative to the separatrix pA + pB = 1, in words. */
export function separatrixSide(p: TheoryPoint): 'above' | 'below' | 'on' {
  const s = p.pA + p.pB - 1;
  return Math.abs(s) < 1e-9 ? 'on' : s > 0 ? 'above' : 'below';
}
