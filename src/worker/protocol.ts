// The typed message protocol between the page and its workers, commands in, events out: the engine
// demo's (WorkerCommand / WorkerEvent) and the training playground's (TrainCommand / TrainEvent).
import type { PretrainRecipe } from '../cohort/families';
import type { ExperimentConfig } from '../rl/config';
import type { EvalRecord, StepRecord } from '../rl/records';

/** Commands the page sends to the demo worker. */
export type WorkerCommand =
  | { type: 'startDemo'; steps: number; backend: 'auto' | 'webgpu' | 'cpu'; seed: number }
  | { type: 'stop' };

/** Where training runs: the WebGPU adapter, or the CPU backend and why. Posted by both workers. */
export type EngineEvent = { type: 'engine'; backend: 'webgpu' | 'cpu'; adapter: string; fallbackReason: string };

/** Events the demo worker posts back. */
export type WorkerEvent =
  | EngineEvent
  | { type: 'loss'; step: number; loss: number }
  | { type: 'done'; accuracy: number; seconds: number }
  | { type: 'error'; message: string };

/** Hyperparameters that change live, without a reset: they apply from the next step on. */
export interface LiveParams {
  /** AdamW learning rate. */
  lr?: number;
  /** Rollout sampling temperature. */
  temperature?: number;
}

/** Commands the page sends to the training worker. */
export type TrainCommand =
  /** Validate `config` (an experiment config: preset cohort, methods, train, eval), load the preset's base
   * checkpoints, evaluate the base agents, then step (or wait paused at step 0 when `paused`). */
  | {
      type: 'start';
      config: ExperimentConfig;
      backend: 'auto' | 'webgpu' | 'cpu';
      delayMs: number;
      paused?: boolean;
      /** The app's base URL as the page sees it (checkpoints are fetched relative to it). */
      baseUrl?: string;
      /** Pretrain the preset's base agents here (src/cohort pretrainPreset) instead of loading the
       * shipped checkpoints; `recipe` overrides the families' recipes (tests use tiny ones). */
      pretrain?: { recipe?: Partial<PretrainRecipe> };
    }
  /** Stop after the lock step in progress (every method finishes it). */
  | { type: 'pause' }
  | { type: 'resume' }
  /** Exactly one lock step of every method (plus its evaluation if due), then paused. */
  | { type: 'step' }
  /** Back to the base weights and the run seed: the same first step again. Waits paused at step 0. */
  | { type: 'reset' }
  | { type: 'live'; params: LiveParams }
  /** Pause between lock steps in ms (0 = as fast as possible). */
  | { type: 'speed'; delayMs: number };

/** What the training worker is doing. */
export type TrainPhase = 'idle' | 'loading' | 'running' | 'paused' | 'done' | 'error';

/** Events the training worker posts back. Records are plain data (structured-cloned). */
export type TrainEvent =
  | EngineEvent
  /** A run (re)starts from the base agents: drop earlier records. */
  | { type: 'run'; runId: number; config: ExperimentConfig }
  | { type: 'status'; runId: number; phase: TrainPhase; step: number; totalSteps: number; message: string }
  | { type: 'step'; runId: number; record: StepRecord }
  | { type: 'eval'; runId: number; record: EvalRecord }
  | { type: 'live'; runId: number; params: LiveParams }
  | { type: 'error'; runId: number; message: string };
