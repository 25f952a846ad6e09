// Store slice: every StepRecord and EvalRecord of the current run, per method, append-only (new arrays on
// each batched append so selectors see the change; the bridge appends at most once per animation frame).
import type { StateCreator } from 'zustand';
import type { EvalRecord, StepRecord } from '../rl/records';
import type { RewardMethod } from '../rl/rewards';
import type { RunMetrics } from '../formats/runMetrics';

export interface MetricsSlice {
  metrics: RunMetrics;
  /** Drop all records: a new run (or a reset) of `methods` begins. */
  beginMetrics(runId: number, methods: RewardMethod[]): void;
  /** Append a batch of records (any methods, in arrival order). */
  appendMetrics(steps: readonly StepRecord[], evals: readonly EvalRecord[]): void;
}

export const EMPTY_METRICS: Readonly<RunMetrics> = { runId: 0, methods: [], steps: {}, evals: {} };

/** `m` with `steps` and `evals` appended (one of the last step replaces it); only what changed gets new objects. */
export function appendRecords(
  m: RunMetrics,
  steps: readonly StepRecord[],
  evals: readonly EvalRecord[],
): RunMetrics {
  const add = <T extends { method: RewardMethod; step: number }>(
    from: Partial<Record<RewardMethod, T[]>>,
    recs: readonly T[],
  ) => {
    if (recs.length === 0) return from;
    const into = { ...from };
    const touched = new Map<RewardMethod, T[]>();
    for (const r of recs) {
      let arr = touched.get(r.method);
      if (!arr) touched.set(r.method, (arr = [...(into[r.method] ?? [])]));
      // a record of the step the list ends with replaces it (the base evaluation, then with its portrait counts)
      if (arr.length && arr[arr.length - 1].step === r.step) arr[arr.length - 1] = r;
      else arr.push(r);
    }
    for (const [k, v] of touched) into[k] = v;
    return into;
  };
  if (steps.length === 0 && evals.length === 0) return m;
  return { ...m, steps: add(m.steps, steps), evals: add(m.evals, evals) };
}

export const createMetricsSlice: StateCreator<MetricsSlice, [], [], MetricsSlice> = (set) => ({
  metrics: { ...EMPTY_METRICS },
  beginMetrics: (runId, methods) => set({ metrics: { runId, methods: [...methods], steps: {}, evals: {} } }),
  appendMetrics: (steps, evals) => set((s) => ({ metrics: appendRecords(s.metrics, steps, evals) })),
});
