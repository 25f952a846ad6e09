// A sweep's groups (the cells that share one cohort, seeds aside) and the statistics the report gives
// for them; the claims (claims.ts) and the report (report.ts) both read them.

/** Mean, sample standard deviation, min, max and count of some numbers (null when there are none). */
export interface Stats {
  mean: number;
  sd: number;
  min: number;
  max: number;
  n: number;
}

export function stats(xs: readonly (number | null | undefined)[]): Stats | null {
  const v = xs.filter((x): x is number => typeof x === 'number' && Number.isFinite(x));
  if (!v.length) return null;
  const mean = v.reduce((a, b) => a + b, 0) / v.length;
  const sd = v.length > 1 ? Math.sqrt(v.reduce((a, b) => a + (b - mean) ** 2, 0) / (v.length - 1)) : 0;
  return { mean, sd, min: Math.min(...v), max: Math.max(...v), n: v.length };
}

export interface GroupEntry {
  index: number;
  label: string;
  agents: { id: string; family: string; size: string; seed: number }[];
  sameFamily: boolean;
  seeds: number[];
  cells: number[];
  /** Base agents' overlap on the held-out problems (greedy, step 0): mean over pairs, and each pair. */
  overlap: {
    kappa: number;
    c: number;
    u: number;
    w: number;
    pairs: { a: string; b: string; kappa: number; c: number; u: number; w: number }[];
  } | null;
  methods: Record<
    string,
    {
      gain: Stats | null;
      final: Stats | null;
      rewardStdEnd: Stats | null;
      trainedLabelEnd: Stats | null;
      agentGain: Record<string, Stats | null>;
    }
  >;
  /** Matched-budget ensembles (E samples per agent pooled, maj at the eval temperature). */
  ensembles: { base: Stats | null; ttrl: Stats | null; 'co-rl': Stats | null };
}
