// Compact cell records: what a sweep's report, gate B and the registered test read, small enough to commit,
// so a grid interrupted on one machine resumes from the repository on the next (docs/sweeps.md, "Committed
// cell records"). The full record stays beside it in DIR/full/<id>.json, which git leaves out.
import { canonicalMetricsJson } from '../../rl/canonical';
import type { ExperimentResult } from '../../rl/experiment';
import type { StepRecord } from '../../rl/records';
import { sha16 } from '../../util/sha256';

/** Step records kept: step 1, every STEP_EVERY-th step and each method's last. */
export const STEP_EVERY = 25;

/** What a compact record keeps of what it dropped. */
export interface CompactInfo {
  /** Step records kept: 1, every `stepEvery`-th and each method's last. */
  stepEvery: number;
  /** sha16 of the full record's canonical metric JSON (the report's metricsHash; byte-identity checks). */
  metricsHash: string;
  /** Per method, the largest agent-mean KL to the base over every step (gate B's rule), null when never estimated. */
  maxMeanKl: Record<string, number | null>;
}

const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;

/** The largest agent-mean KL over the step records of `method` (null when none has a KL). */
export function maxMeanKl(steps: readonly StepRecord[], method: string): number | null {
  let m: number | null = null;
  for (const s of steps) {
    if (s.method !== method) continue;
    const kl = s.agents.map((a) => a.kl).filter((k): k is number => k !== null);
    if (kl.length) m = Math.max(m ?? -Infinity, mean(kl));
  }
  return m;
}

/**
 * The compact form of a full experiment result: every summary and evaluation (per-problem answers only in
 * the first step-0 evaluation, which the error-overlap view reads; the right/wrong string everywhere), the
 * step records thinned to 1, every STEP_EVERY-th and each method's last, and what the thinning drops.
 */
export function compactResult(r: ExperimentResult): { result: ExperimentResult; compact: CompactInfo } {
  const last = new Map<string, number>();
  for (const s of r.steps) last.set(s.method, Math.max(last.get(s.method) ?? 0, s.step));
  const steps = r.steps.filter(
    (s) => s.step === 1 || s.step % STEP_EVERY === 0 || s.step === last.get(s.method),
  );
  const firstBase = r.evals.findIndex((e) => e.step === 0);
  const evals = r.evals.map((e, i) =>
    i === firstBase
      ? e
      : {
          ...e,
          agents: e.agents.map((a) => {
            const { greedyAnswers: _a, portraitRight: _p, ...rest } = a;
            return rest;
          }),
        },
  );
  const methods = [...new Set(r.steps.map((s) => s.method))];
  return {
    result: { ...r, steps, evals },
    compact: {
      stepEvery: STEP_EVERY,
      metricsHash: sha16(canonicalMetricsJson(r.steps, r.evals)),
      maxMeanKl: Object.fromEntries(methods.map((m) => [m, maxMeanKl(r.steps, m)])),
    },
  };
}
