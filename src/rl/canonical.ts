// The canonical metric JSON of a run: every step and evaluation record with the wall-clock fields
// (StepRecord.timing, EvalRecord.seconds) left out, keys in a fixed order. Two runs with the same config
// and seed on the same backend produce the same bytes (issue 7, determinism); wall-clock figures can
// never be equal between runs, so they are not part of it.
import type { EvalRecord, StepRecord } from './records';

/** Stable JSON: object keys sorted, numbers as JSON writes them (NaN/inf are not valid records). */
export function stable(v: unknown): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v) ?? 'null';
  if (Array.isArray(v)) return `[${v.map(stable).join(',')}]`;
  const o = v as Record<string, unknown>;
  const keys = Object.keys(o)
    .filter((k) => o[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${stable(o[k])}`).join(',')}}`;
}

/** The records without their wall-clock fields. */
export function withoutTiming(
  steps: readonly StepRecord[],
  evals: readonly EvalRecord[],
): { steps: unknown[]; evals: unknown[] } {
  return {
    steps: steps.map(({ timing: _t, ...rest }) => rest),
    evals: evals.map(({ seconds: _s, ...rest }) => rest),
  };
}

/** The canonical metric JSON of `steps` and `evals` (in the order given). */
export function canonicalMetricsJson(steps: readonly StepRecord[], evals: readonly EvalRecord[]): string {
  return stable(withoutTiming(steps, evals));
}
