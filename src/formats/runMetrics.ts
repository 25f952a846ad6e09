// The records of one run, per method (src/rl/records.ts): what the store's metrics slice holds while a run
// goes (src/store/metricsSlice.ts) and what a run file and the compare view carry.
import type { EvalRecord, StepRecord } from '../rl/records';
import type { RewardMethod } from '../rl/rewards';
import type { RegimeReport } from '../rl/regime/measure';

export interface RunMetrics {
  /** The run these records belong to. */
  runId: number;
  /** Methods in display order. */
  methods: RewardMethod[];
  /** Per method: its step records in step order. */
  steps: Partial<Record<RewardMethod, StepRecord[]>>;
  /** Per method: its evaluations in step order (step 0 = the base agents). */
  evals: Partial<Record<RewardMethod, EvalRecord[]>>;
  /** The regime check of the base agents at step 0 (the Regime panel's when it matches, or eval.regime > 0; the run file's `regime`). */
  regime?: RegimeReport;
}
