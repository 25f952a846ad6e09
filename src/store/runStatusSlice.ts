// Store slice: the training run's status as the worker reports it (phase, step counter, progress line),
// the config the run started with, the speed, and the last live change. Plain data only.
import type { StateCreator } from 'zustand';
import type { ExperimentConfig } from '../rl/config';
import type { TrainPhase } from '../worker/protocol';

export interface RunStatus {
  phase: TrainPhase;
  /** Lock steps completed (every method). */
  step: number;
  totalSteps: number;
  /** What the worker is doing now (loading checkpoints, stepping, evaluating), or the error. */
  message: string;
  /** The run the status belongs to (0 = none yet). */
  runId: number;
  /** The config the current run started with (null before the first start). */
  config: ExperimentConfig | null;
  /** A note on the last live change, e.g. "lr 0.0003 from step 13". */
  liveNote: string;
  /** The latest fault the worker handled (a divergence, a lost GPU device), for the warning banner; null/absent: none. */
  /** Share (0-1) of the loading work done when the worker knows it (pretraining), else undefined. */
  work?: number;
  /** Notices of the run's base agents built on demand (from the in-page cache, pretrained, damaged entries rebuilt). */
  notices?: string[];
  /** Model workers the lock step trains in (absent or 1: every model in the training worker; the methods then run one after another). */
  workers?: number;
  guard?: { kind: 'diverged' | 'deviceLost' | 'recovered' | 'ignored'; step: number; message: string } | null;
}

export interface RunStatusSlice {
  runStatus: RunStatus;
  /** Pause between lock steps in ms (0 = full speed). */
  speedMs: number;
  setRunStatus(patch: Partial<RunStatus>): void;
  setSpeed(ms: number): void;
}

export const IDLE_STATUS: Readonly<RunStatus> = {
  phase: 'idle',
  step: 0,
  totalSteps: 0,
  message: 'Pick a cohort and methods, then press Start.',
  runId: 0,
  config: null,
  liveNote: '',
};

export const createRunStatusSlice: StateCreator<RunStatusSlice, [], [], RunStatusSlice> = (set) => ({
  runStatus: { ...IDLE_STATUS },
  speedMs: 0,
  setRunStatus: (patch) => set((s) => ({ runStatus: { ...s.runStatus, ...patch } })),
  setSpeed: (speedMs) => set({ speedMs }),
});
