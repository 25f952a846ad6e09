// Folds a batch of training-worker events (in arrival order) into the run status and the metrics: a
// 'run' event starts over, records are appended once per batch, the last status wins. Pure.
import type { EngineEvent, TrainEvent } from '../worker/protocol';
import { appendRecords } from './metricsSlice';
import { type RunMetrics } from '../formats/runMetrics';
import { trimMetrics } from './resumePlan';
import type { RunStatus } from './runStatusSlice';
import type { EvalRecord, StepRecord } from '../rl/records';

export interface TrainState {
  runStatus: RunStatus;
  metrics: RunMetrics;
}

/** The state after `events`, and the last engine report among them (null if none). */
export function foldTrainEvents(
  prev: TrainState,
  events: readonly TrainEvent[],
): TrainState & { engine: EngineEvent | null } {
  let status = prev.runStatus;
  let metrics = prev.metrics;
  let engine: EngineEvent | null = null;
  let steps: StepRecord[] = [];
  let evals: EvalRecord[] = [];
  const flush = () => {
    metrics = appendRecords(metrics, steps, evals);
    steps = [];
    evals = [];
  };
  for (const e of events) {
    if (e.type === 'engine') {
      engine = e;
      continue;
    }
    if (e.type === 'run') {
      steps = [];
      evals = [];
      const from = e.resumeFrom;
      // a resumed run keeps the records up to its snapshot's step (put back by the persist bridge)
      const keep = from !== undefined && metrics.methods.join() === e.config.methods.join();
      metrics = keep
        ? { ...trimMetrics(metrics, from), runId: e.runId }
        : { runId: e.runId, methods: [...e.config.methods], steps: {}, evals: {} };
      status = {
        ...status,
        runId: e.runId,
        config: e.config,
        phase: 'loading',
        step: from ?? 0,
        totalSteps: e.config.steps,
        message: 'Starting…',
        liveNote: '',
        guard: null,
        notices: [],
        workers: 1,
      };
      continue;
    }
    // a late event of a run that was replaced (runId 0: the worker itself failed, always shown)
    if (!('runId' in e)) continue; // the regime check's answers (src/store/regimeBridge.ts)
    if (e.runId !== metrics.runId && !(e.type === 'error' && e.runId === 0)) continue;
    switch (e.type) {
      case 'step':
        steps.push(e.record);
        break;
      case 'runRegime':
        flush();
        metrics = { ...metrics, regime: e.report };
        break;
      case 'eval':
        evals.push(e.record);
        break;
      case 'status':
        status = {
          ...status,
          phase: e.phase,
          step: e.step,
          totalSteps: e.totalSteps,
          message: e.message,
          work: e.work,
        };
        break;
      case 'live': {
        const parts = Object.entries(e.params).map(([k, v]) => `${k === 'lr' ? 'learning rate' : k} ${v}`);
        const config = status.config
          ? { ...status.config, train: { ...status.config.train, ...e.params } }
          : null;
        if (parts.length)
          status = { ...status, config, liveNote: `${parts.join(', ')} from step ${status.step + 1}` };
        break;
      }
      case 'pool':
        status = { ...status, workers: e.workers };
        break;
      case 'notice':
        status = { ...status, notices: [...(status.notices ?? []), e.message] };
        break;
      case 'error':
        status = { ...status, phase: 'error', message: e.message };
        break;
      case 'fault': // the banner (src/app/train/GuardNotice.tsx) shows the latest
        status = { ...status, guard: { kind: e.kind, step: e.step, message: e.message } };
        break;
    }
  }
  flush();
  return { runStatus: status, metrics, engine };
}
