// The typed message protocol between the page and its workers, commands in, events out: the engine
// demo's (WorkerCommand / WorkerEvent) and the training playground's (TrainCommand / TrainEvent).
import type { PretrainRecipe } from '../cohort/familySpec';
import type { ExperimentConfig } from '../rl/config';
import type { EvalRecord, StepRecord } from '../rl/records';
import type { StepInspection } from '../rl/inspection';
import type { RewardMethod } from '../rl/rewards';
import type { RegimeReport } from '../rl/regime/measure';
import type { CarriedTaskFile } from '../tasks/file/carried';

/** Commands the page sends to the demo worker. */
export type WorkerCommand =
  | { type: 'startDemo'; steps: number; backend: 'auto' | 'webgpu' | 'cpu'; seed: number }
  | { type: 'stop' };

/** Where training runs: the WebGPU adapter, or the CPU backend and why. Posted by both workers. */
/** `note`: how backend 'auto' decided when it measured a software adapter (src/engine/autoSelect.ts), else absent. */
export type EngineEvent = {
  type: 'engine';
  backend: 'webgpu' | 'wasm' | 'cpu';
  adapter: string;
  fallbackReason: string;
  note?: string;
};

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
      backend: 'auto' | 'webgpu' | 'wasm' | 'cpu';
      delayMs: number;
      paused?: boolean;
      /** The app's base URL as the page sees it (checkpoints are fetched relative to it). */
      baseUrl?: string;
      /** Pretrain the preset's base agents here (src/cohort pretrainPreset) instead of loading the
       * shipped checkpoints; `recipe` overrides the families' recipes (tests use tiny ones). For an
       * agent-list cohort, `paths` names the agents' checkpoint paths to pretrain (pretrainAgent;
       * default: every agent's); the others are read as usual. */
      pretrain?: { recipe?: Partial<PretrainRecipe>; paths?: string[] };
      /** Checkpoint bytes by path (files imported in the page); they stand in for files at those paths. */
      checkpoints?: Record<string, ArrayBuffer>;
      /** The task file a file task config names (dropped in the page): loaded, checked and registered here first. */
      taskFile?: CarriedTaskFile;
      /** Continue a saved run: restore `snapshot` (a 'snapshot' event's bytes of this config) and go on
       * from lock step `step` (no base evaluation; the evaluation schedule and step counter continue). */
      resume?: { step: number; snapshot: ArrayBuffer };
      /** The Train view's regime check of these base agents (a 'regime' event's report): reused as the
       * run's step-0 regime report when its settings match the config's (eval.regime problems, K, T). */
      regime?: RegimeReport;
      /** Model workers of the lock step (src/rl/pool; wasm and cpu engines; 1..64, default 1 = every model
       * in the training worker). The metrics are the same to the bit for any size. */
      workers?: number;
      /** Post a 'snapshot' event every this many lock steps (default 5; 0 = only at pause and done). */
      snapshotEvery?: number;
      /** Test hooks (docs/architecture-runtime.md "Faults"): honour 'debugLoseDevice' (also honoured in a dev
       * build) and `injectNaN` (only with debug). Never set by the app in a production build. */
      debug?: boolean;
      /** With `debug`: NaN written into `agent`'s gradient of `method` at lock step `step` (the numerical guard's test). */
      injectNaN?: { method: RewardMethod; agent: string; step: number };
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
  | { type: 'speed'; delayMs: number }
  /** The inspector's requests (answered between lock steps): see InspectCommand. */
  | InspectCommand
  /** Every method's agents as checkpoint files, between lock steps (answered with 'checkpoints'). */
  | { type: 'exportCheckpoints' }
  | RegimeCommand
  /** Test hook: destroy the WebGPU device now, as a driver reset would (only with the start command's
   * `debug`, or in a dev build; else answered with a 'fault' event of kind 'ignored'). */
  | { type: 'debugLoseDevice' }
  /** Test hook: stop the pool's last model worker now, as a crash would (honoured as debugLoseDevice is;
   * without model workers answered with a 'fault' event of kind 'ignored'). */
  | { type: 'debugKillModelWorker' }
  /** Test hook (dev builds only): backend 'auto' sees a hardware adapter named `adapter` whose measurement
   * gives these rates (src/worker/fakeAdapter.ts); the current backend is dropped so the next run selects. */
  | { type: 'debugFakeAdapter'; adapter: string; gpuRate: number; cpuRate: number };

/**
 * The regime check (docs/method.md, "The regime") of `config`'s base agents on `problems` validation
 * problems at the config's rollout K (train.samples) and temperature, seed 1: answered with 'regime' (or
 * 'regimeError'), with 'regimeStatus' lines meanwhile. Runs between lock steps; reads checkpoints as a
 * start command would (`baseUrl`, `pretrain`, `checkpoints`, agents by axes built into the page's cache).
 */
export type RegimeCommand = {
  type: 'regime';
  /** Echoed in the answers (the page keeps only its latest request's). */
  requestId: number;
  config: ExperimentConfig;
  backend: 'auto' | 'webgpu' | 'wasm' | 'cpu';
  problems: number;
  baseUrl?: string;
  pretrain?: { recipe?: Partial<PretrainRecipe>; paths?: string[] };
  checkpoints?: Record<string, ArrayBuffer>;
  /** As the start command's. */
  taskFile?: CarriedTaskFile;
};

/** Answers to RegimeCommand, and the run's own step-0 report ('runRegime'). Reports are plain data. */
export type RegimeEvent =
  | { type: 'regimeStatus'; requestId: number; message: string }
  | {
      type: 'regime';
      requestId: number;
      report: RegimeReport;
      /** The engine it was measured on ('webgpu', 'wasm' or 'cpu'). */
      backend: string;
      seconds: number;
    }
  | { type: 'regimeError'; requestId: number; message: string }
  /** The run's regime check at step 0 (eval.regime > 0): `reused` when it is the page's own check. */
  | { type: 'runRegime'; runId: number; report: RegimeReport; reused: boolean };

/** The latest step of `method` in full (answered with an 'inspection' event; null before step 1). */
export type InspectRequest = { type: 'inspect'; method: RewardMethod };
/** Attention of block `layer` (every head) of the latest step's prompt + completion `sample` of `agent`. */
export type AttentionRequest = {
  type: 'attention';
  method: RewardMethod;
  agent: string;
  prompt: number;
  sample: number;
  layer: number;
};
export type InspectCommand = InspectRequest | AttentionRequest;

/** Answers to InspectCommand. A bad request gets 'inspectError' (the run goes on untouched). */
export type InspectEvent =
  | { type: 'inspection'; runId: number; method: RewardMethod; inspection: StepInspection | null }
  | (Omit<AttentionRequest, 'type'> & {
      type: 'attention';
      runId: number;
      step: number;
      tokens: string[];
      promptTokens: number;
      heads: number;
      probs: number[];
    })
  | { type: 'inspectError'; runId: number; request: InspectCommand; message: string };

/** What the training worker is doing. */
export type TrainPhase = 'idle' | 'loading' | 'running' | 'paused' | 'done' | 'error';

/** Events the training worker posts back. Records are plain data (structured-cloned). */
export type TrainEvent =
  | EngineEvent
  /** A run (re)starts from the base agents: drop earlier records (with `resumeFrom`: a saved run
   * continues after that lock step; keep the records up to it). */
  | { type: 'run'; runId: number; config: ExperimentConfig; resumeFrom?: number }
  | {
      type: 'status';
      runId: number;
      phase: TrainPhase;
      step: number;
      totalSteps: number;
      message: string;
      /** Share (0-1) of the loading work done, when it is known (pretraining in the browser). */
      work?: number;
    }
  | { type: 'step'; runId: number; record: StepRecord }
  | { type: 'eval'; runId: number; record: EvalRecord }
  | { type: 'live'; runId: number; params: LiveParams }
  | { type: 'error'; runId: number; message: string }
  /** A line kept beside the run while it lasts: where a base agent built on demand came from (the in-page
   * cache, or pretrained now), or a damaged cache entry that was rebuilt (src/worker/axisBuilds.ts). */
  | { type: 'notice'; runId: number; message: string }
  /** How many model workers the run's lock step trains in (1: every model in the training worker; src/rl/pool). */
  | { type: 'pool'; runId: number; workers: number }
  /** The run met a fault and handled it (docs/architecture-runtime.md "Faults"): 'diverged' (a NaN/inf; the lock
   * step was rolled back and the run paused), 'deviceLost' (recreating the device and reloading the
   * agents), 'recovered' (running again on the new device). `step`: the lock step the run is back at. */
  | {
      type: 'fault';
      runId: number;
      kind: 'diverged' | 'deviceLost' | 'recovered' | 'ignored';
      step: number;
      message: string;
    }
  | PersistEvent
  | InspectEvent
  | RegimeEvent;

/** A file the worker made for download. `bytes` is transferred. */
export interface WorkerFile {
  method: string;
  agent: string;
  /** File name, e.g. "co-rl-A-step12.ckpt". */
  name: string;
  bytes: ArrayBuffer;
}

/** Resumable state and exports (src/rl/snapshot.ts, src/model/checkpoint.ts); bytes are transferred. */
export type PersistEvent =
  /** Every method's trainer state after lock step `step` (src/rl/snapshot.ts); `phase` is what the run
   * does next ('running', 'paused' or 'done'); `seconds` how long taking it took in the worker. */
  | {
      type: 'snapshot';
      runId: number;
      step: number;
      phase: 'running' | 'paused' | 'done';
      bytes: ArrayBuffer;
      seconds: number;
    }
  | { type: 'snapshotError'; runId: number; step: number; message: string }
  /** Answer to 'exportCheckpoints': one CORLCKPT file per method per agent (empty with `message` if no run is loaded). */
  | { type: 'checkpoints'; runId: number; step: number; files: WorkerFile[]; message: string };
