// What a reload does with a run saved in IndexedDB (pure, so Node tests cover it): which runs resume,
// from which step, paused or running, and which records stay (those up to the snapshot's step; the
// worker recomputes the rest exactly, so nothing is drawn twice and nothing is missing).
import type { RunMetrics } from '../formats/runMetrics';
import type { RunFile, SavedPhase } from '../formats/runFile';

/** Phases after which a reload continues the run. */
export const RESUMABLE_PHASES: readonly SavedPhase[] = ['loading', 'running', 'paused'];

export type ResumePlan =
  | { kind: 'none'; reason: string }
  /** Restore `metrics` at once and restart the worker from the snapshot at `step`. */
  | { kind: 'resume'; step: number; paused: boolean; metrics: Omit<RunMetrics, 'runId'>; missing: string[] }
  /** No snapshot yet (the run was still loading): start the same config again from the base agents. */
  | { kind: 'restart'; paused: boolean };

/** `m` with only the step and evaluation records of lock steps <= `step`. */
export function trimMetrics<M extends Omit<RunMetrics, 'runId'>>(m: M, step: number): M {
  const keep = <T extends { step: number }>(per: Partial<Record<string, T[]>>) =>
    Object.fromEntries(Object.entries(per).map(([k, v]) => [k, (v ?? []).filter((r) => r.step <= step)]));
  return { ...m, steps: keep(m.steps), evals: keep(m.evals) } as M;
}

/** Records a resume from `step` would lack: per method, the step numbers 1..step with no record (or two). */
export function missingSteps(m: Omit<RunMetrics, 'runId'>, step: number): string[] {
  const out: string[] = [];
  for (const method of m.methods) {
    const seen = new Map<number, number>();
    for (const r of m.steps[method] ?? []) seen.set(r.step, (seen.get(r.step) ?? 0) + 1);
    const gaps: number[] = [];
    const twice: number[] = [];
    for (let s = 1; s <= step; s++) {
      const n = seen.get(s) ?? 0;
      if (n === 0) gaps.push(s);
      else if (n > 1) twice.push(s);
    }
    if (gaps.length) out.push(`${method}: no record of step${gaps.length > 1 ? 's' : ''} ${gaps.join(', ')}`);
    if (twice.length)
      out.push(`${method}: step${twice.length > 1 ? 's' : ''} ${twice.join(', ')} recorded twice`);
  }
  return out;
}

/** What to do with a saved run on load; `hasSnapshot` says whether its snapshot bytes were found. */
export function planResume(run: RunFile, hasSnapshot: boolean): ResumePlan {
  const phase = run.phase ?? 'done';
  if (!RESUMABLE_PHASES.includes(phase))
    return {
      kind: 'none',
      reason: `the saved run is ${phase === 'done' ? 'finished' : `in phase ${phase}`}`,
    };
  const paused = phase === 'paused';
  if (!run.snapshot) return { kind: 'restart', paused };
  if (!hasSnapshot)
    return {
      kind: 'none',
      reason: `the snapshot of step ${run.snapshot.step} is missing from the browser's storage`,
    };
  const step = run.snapshot.step;
  if (step > run.config.steps)
    return {
      kind: 'none',
      reason: `the snapshot's step ${step} is beyond the run's ${run.config.steps} steps`,
    };
  const metrics = trimMetrics(run.metrics, step);
  return { kind: 'resume', step, paused, metrics, missing: missingSteps(metrics, step) };
}
