// The pre-registered verdict per preset (docs/sweeps.md, "Registered sweeps"): from the pair-mean
// accuracy of the base agents and after training per preset, base seed, RL seed and method, each
// method's base, final and gain with a 95% t-interval over base-seed means (the RL seeds of a base seed
// averaged first), Co-RL minus co-rl-frozen paired by base seed, and shown / refuted / inconclusive /
// out of regime by the registered thresholds. Pure: method names are plain strings.
import { tQuantile } from './tdist';

/** One run: one method trained from one base seed's agents with one RL seed. Accuracies in [0, 1]. */
export interface VerdictRun {
  preset: string;
  baseSeed: string;
  rlSeed: number;
  method: string;
  base: number;
  final: number;
}

/** A mean with its 95% t-interval over n base seeds (lo / hi null when n < 2). */
export interface Interval {
  mean: number;
  sd: number;
  n: number;
  lo: number | null;
  hi: number | null;
}

export interface MethodFigures {
  base: Interval;
  final: Interval;
  gain: Interval;
  /** The base seeds it ran on, with the number of RL seeds of each. */
  seeds: Record<string, number>;
}

export type Verdict = 'shown' | 'refuted' | 'inconclusive' | 'out of regime';

export interface PresetFigures {
  preset: string;
  methods: Record<string, MethodFigures>;
  /** Co-RL gain minus co-rl-frozen gain, paired by base seed (the base seeds that ran both). */
  coRlMinusFrozen: Interval | null;
}

export interface PresetVerdict extends PresetFigures {
  verdict: Verdict;
  /** The comparisons the verdict rests on, in words and points. */
  why: string;
  /** Shortfalls of the design (fewer than 3 base seeds, fewer than 2 RL seeds, a method missing). */
  notes: string[];
  /**
   * For a preset out of regime: what the rule would say had its gates passed, reported beside the
   * registered verdict and not as evidence (experiments/regime/PREREG.md, "Thresholds").
   */
  ifGatesPassed?: { verdict: Exclude<Verdict, 'out of regime'>; why: string };
}

/** The registered thresholds (docs/sweeps.md). */
export const THRESHOLDS = {
  /** Co-RL's mean gain must be at least this share of GT's mean gain for "shown". */
  gtShare: 0.3,
  /** "refuted": the upper bound of Co-RL's gain interval is below this (+1 point). */
  refuteBelow: 0.01,
  /** The two-sided confidence level of every interval. */
  level: 0.95,
};
/** The methods the verdict reads; any other method's figures are reported beside them. */
export const VERDICT_METHODS = { coRl: 'co-rl', gt: 'gt', frozen: 'co-rl-frozen' };
/** The design the registration asks for (below it the verdict still stands, with a note). */
export const DESIGN = { baseSeeds: 3, rlSeeds: 2 };

/** Mean and 95% t-interval of some numbers (one per base seed). */
export function tInterval(xs: readonly number[]): Interval {
  const n = xs.length;
  if (!n) throw new Error('tInterval: no values');
  const mean = xs.reduce((a, b) => a + b, 0) / n;
  if (n < 2) return { mean, sd: 0, n, lo: null, hi: null };
  const sd = Math.sqrt(xs.reduce((a, b) => a + (b - mean) ** 2, 0) / (n - 1));
  const half = tQuantile(1 - (1 - THRESHOLDS.level) / 2, n - 1) * (sd / Math.sqrt(n));
  return { mean, sd, n, lo: mean - half, hi: mean + half };
}

const avg = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
const pts = (x: number | null): string => (x === null ? '–' : `${x >= 0 ? '+' : ''}${(100 * x).toFixed(1)}`);
/** "+2.1 [+0.3, +3.9]" in points. */
export const intervalText = (i: Interval | null | undefined): string =>
  i ? `${pts(i.mean)} [${pts(i.lo)}, ${pts(i.hi)}]` : '–';

/** Every run must be unique by (preset, base seed, RL seed, method) and finite in [0, 1]. */
function checkRuns(runs: readonly VerdictRun[]): void {
  const seen = new Set<string>();
  const errs: string[] = [];
  for (const r of runs) {
    const k = JSON.stringify([r.preset, r.baseSeed, r.rlSeed, r.method]);
    if (seen.has(k))
      errs.push(`${r.preset} base seed ${r.baseSeed} RL seed ${r.rlSeed} ${r.method}: given twice`);
    seen.add(k);
    for (const f of ['base', 'final'] as const)
      if (!(Number.isFinite(r[f]) && r[f] >= 0 && r[f] <= 1))
        errs.push(
          `${r.preset} base seed ${r.baseSeed} RL seed ${r.rlSeed} ${r.method}: ${f} must be an accuracy in [0, 1], got ${r[f]}`,
        );
  }
  if (errs.length) throw new Error(`verdict inputs: ${errs.join('; ')}`);
}

/** Per base seed, the mean over its RL seeds of f(run). */
function perBaseSeed(runs: VerdictRun[], f: (r: VerdictRun) => number): Map<string, number> {
  const by = new Map<string, number[]>();
  for (const r of runs) by.set(r.baseSeed, [...(by.get(r.baseSeed) ?? []), f(r)]);
  return new Map([...by].map(([s, xs]) => [s, avg(xs)]));
}

/** The figures of one preset's runs. */
export function presetFigures(preset: string, runs: readonly VerdictRun[]): PresetFigures {
  checkRuns(runs);
  const mine = runs.filter((r) => r.preset === preset);
  const methods: Record<string, MethodFigures> = {};
  const gains = new Map<string, Map<string, number>>();
  for (const m of [...new Set(mine.map((r) => r.method))]) {
    const rs = mine.filter((r) => r.method === m);
    const g = perBaseSeed(rs, (r) => r.final - r.base);
    gains.set(m, g);
    const seeds: Record<string, number> = {};
    for (const r of rs) seeds[r.baseSeed] = (seeds[r.baseSeed] ?? 0) + 1;
    methods[m] = {
      base: tInterval([...perBaseSeed(rs, (r) => r.base).values()]),
      final: tInterval([...perBaseSeed(rs, (r) => r.final).values()]),
      gain: tInterval([...g.values()]),
      seeds,
    };
  }
  const co = gains.get(VERDICT_METHODS.coRl);
  const fr = gains.get(VERDICT_METHODS.frozen);
  const paired = co && fr ? [...co.keys()].filter((s) => fr.has(s)).map((s) => co.get(s)! - fr.get(s)!) : [];
  return { preset, methods, coRlMinusFrozen: paired.length ? tInterval(paired) : null };
}

/** The verdict of one preset's figures; `failedGate` when the preset failed a regime gate. */
export function verdictOf(f: PresetFigures, failedGate: boolean): PresetVerdict {
  const notes: string[] = [];
  for (const m of Object.values(VERDICT_METHODS)) if (!f.methods[m]) notes.push(`no ${m} runs`);
  for (const [m, x] of Object.entries(f.methods)) {
    const n = Object.keys(x.seeds).length;
    if (n < DESIGN.baseSeeds)
      notes.push(`${m}: ${n} base seed${n === 1 ? '' : 's'} (the design asks ${DESIGN.baseSeeds})`);
    const few = Object.entries(x.seeds).filter(([, k]) => k < DESIGN.rlSeeds);
    if (few.length)
      notes.push(
        `${m}: fewer than ${DESIGN.rlSeeds} RL seeds for base seed ${few.map(([s]) => s).join(', ')}`,
      );
  }
  const co = f.methods[VERDICT_METHODS.coRl]?.gain;
  const gt = f.methods[VERDICT_METHODS.gt]?.gain;
  const d = f.coRlMinusFrozen;
  const done = (verdict: Verdict, why: string): PresetVerdict => ({ ...f, verdict, why, notes });
  if (failedGate) {
    const would = verdictOf(f, false) as PresetVerdict & { verdict: Exclude<Verdict, 'out of regime'> };
    return {
      ...done('out of regime', 'the preset failed a regime gate: not evidence either way'),
      ifGatesPassed: { verdict: would.verdict, why: would.why },
    };
  }
  const tests = [
    `Co-RL gain ${intervalText(co)} (lower bound > 0: ${co?.lo != null && co.lo > 0 ? 'yes' : 'no'})`,
    `Co-RL mean gain ${pts(co?.mean ?? null)} vs ${THRESHOLDS.gtShare} x GT's ${pts(gt?.mean ?? null)} (${co && gt && co.mean >= THRESHOLDS.gtShare * gt.mean ? 'yes' : 'no'})`,
    `Co-RL minus co-rl-frozen ${intervalText(d)} (lower bound > 0: ${d?.lo != null && d.lo > 0 ? 'yes' : 'no'})`,
  ];
  const shown =
    co?.lo != null &&
    co.lo > 0 &&
    !!gt &&
    co.mean >= THRESHOLDS.gtShare * gt.mean &&
    d?.lo != null &&
    d.lo > 0;
  const refuted = co?.hi != null && co.hi < THRESHOLDS.refuteBelow;
  if (shown)
    return done(
      'shown',
      `${tests.join('; ')}${refuted ? `; the gain's upper bound is also below ${pts(THRESHOLDS.refuteBelow)}: a real but small gain (shown is checked first)` : ''}`,
    );
  if (refuted)
    return done(
      'refuted',
      `gates passed; Co-RL gain ${intervalText(co)}: upper bound below ${pts(THRESHOLDS.refuteBelow)}`,
    );
  return done('inconclusive', tests.join('; '));
}

/** Verdicts of every preset in `runs`, in order of first appearance; `failedGates` names those that failed. */
export function verdicts(runs: readonly VerdictRun[], failedGates: ReadonlySet<string>): PresetVerdict[] {
  checkRuns(runs);
  return [...new Set(runs.map((r) => r.preset))].map((p) =>
    verdictOf(presetFigures(p, runs), failedGates.has(p)),
  );
}
