// Store slice of the Train view's regime check (docs/method.md, "The regime"): the latest check of the
// cohort's base agents as plain data (a RegimeReport, never a model), which settings it was measured at
// (so the panel can say when it no longer matches), and its progress. The worker runs it: ./regimeBridge.ts.
import type { StateCreator } from 'zustand';
import type { RegimeReport } from '../rl/regime/measure';
import { toExperimentConfig, type RunSettings } from '../formats/runSettings';

export interface RegimeCheckState {
  phase: 'idle' | 'running' | 'done' | 'error';
  /** The latest request's id (answers to older ones are dropped). */
  requestId: number;
  /** The settings key the check was asked for (regimeKey of ./regimeBridge.ts). */
  key: string;
  report: RegimeReport | null;
  /** The engine it ran on, and how long it took. */
  backend: string;
  seconds: number;
  /** Progress line, or the error. */
  message: string;
}

export const IDLE_REGIME: RegimeCheckState = {
  phase: 'idle',
  requestId: 0,
  key: '',
  report: null,
  backend: '',
  seconds: 0,
  message: '',
};

export interface RegimeSlice {
  regimeCheck: RegimeCheckState;
  setRegimeCheck(patch: Partial<RegimeCheckState>): void;
}

export const createRegimeSlice: StateCreator<RegimeSlice, [], [], RegimeSlice> = (set) => ({
  regimeCheck: IDLE_REGIME,
  setRegimeCheck: (patch) => set((s) => ({ regimeCheck: { ...s.regimeCheck, ...patch } })),
});

/** What a regime check depends on in the settings: the cohort and task, K, T, the problem count, the engine. */
export function regimeKey(s: RunSettings): string {
  const c = toExperimentConfig(s);
  return JSON.stringify([
    c.cohort,
    c.task,
    c.train.samples,
    c.train.temperature,
    s.regimeProblems,
    s.pretrainHere,
    s.backend,
  ]);
}

/** The panel's report when it was measured at these settings (what a start may reuse), else undefined. */
export function matchingRegime(r: RegimeCheckState, s: RunSettings): RegimeReport | undefined {
  return r.phase === 'done' && r.report && r.key === regimeKey(s) ? r.report : undefined;
}
