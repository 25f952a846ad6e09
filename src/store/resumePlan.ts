// What a reload does with a run saved in IndexedDB (pure, so Node tests cover it): which runs resume,
// from which step, paused or running, and which records stay (those up to the snapshot's step; the
// worker recomputes the rest exactly, so nothing is drawn twice and nothing is missing).
import type { RunMetrics } from '../formats/runMetrics';
import { validateRunFile, type RunFile, type SavedPhase } from '../formats/runFile';
import type { RunSettings } from '../formats/runSettings';
import type { PersistState } from './persistSlice';
import { settingsFromQuery } from '../formats/urlConfig';

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

/**
 * The settings a link sets to other values than a saved run's (`used`: the fields the link gave, as
 * settingsFromQuery reads them). A tab opened from such a link asked for that run, not the saved one; a link
 * that only mirrors the saved run's settings (the tab's own address) conflicts with nothing.
 */
export function linkConflicts(
  link: { settings: RunSettings; used: readonly (keyof RunSettings)[] },
  saved: RunSettings,
): (keyof RunSettings)[] {
  return link.used.filter((k) => JSON.stringify(link.settings[k]) !== JSON.stringify(saved[k]));
}

/** The notice of a saved run a link passed over: the persist notice, not ok (its `key` is added by the caller). */
export type PassedOverNotice = Omit<NonNullable<PersistState['notice']>, 'key'> & { ok: false };

/**
 * Whether a tab's own saved run gives way to the link the tab was opened with, and the notice that says so:
 * only when the tab was navigated to the link ('navigate': a link or the address bar, not 'reload' nor
 * 'back_forward'), the saved run would resume, and the link sets some setting otherwise (linkConflicts).
 * Null: resume as before. `when` formats the saved time for the notice.
 */
export function linkOverRun(
  link: { settings: RunSettings; used: readonly (keyof RunSettings)[] },
  savedRun: unknown,
  navigation: string,
  when: (iso: string) => string = (iso) => iso,
): PassedOverNotice | null {
  if (link.used.length === 0 || navigation !== 'navigate') return null;
  const v = validateRunFile(savedRun);
  if (!v.ok || !RESUMABLE_PHASES.includes(v.run.phase ?? 'done')) return null; // resume() reports an unreadable run
  const differ = linkConflicts(link, v.run.settings);
  if (!differ.length) return null;
  const savedAt = when(v.run.savedAt);
  return {
    step: 0,
    savedAt,
    ok: false,
    text:
      `This tab's run (preset ${v.run.settings.preset}, saved at ${savedAt}, resumable from step ` +
      `${v.run.snapshot?.step ?? 0}) was not resumed: ` +
      `the page was opened from a link that sets ${differ.join(', ')} otherwise. It stays saved in this browser.`,
  };
}

/**
 * The run settings a page's query gives, as the Train view reads them (shareBridge.ts): none for an engine-demo
 * link (`autostart`: its steps= and backend= are the demo's, not a run's).
 */
export function linkSettings(search: string): {
  settings: RunSettings;
  used: (keyof RunSettings)[];
} {
  if (new URLSearchParams(search).has('autostart'))
    return { settings: settingsFromQuery('').settings, used: [] };
  const { settings, used } = settingsFromQuery(search);
  return { settings, used };
}
