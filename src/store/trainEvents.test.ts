// Tests for folding training-worker events into the store: runs start over, records append per method,
// late events of a replaced run are ignored, the last status wins, live changes are noted.
import { describe, expect, it } from 'vitest';
import { DEFAULT_EVAL, DEFAULT_TRAIN, type ExperimentConfig } from '../rl/config';
import type { EvalRecord, StepRecord } from '../rl/records';
import type { RewardMethod } from '../rl/rewards';
import { appendRecords, EMPTY_METRICS } from './metricsSlice';
import { IDLE_STATUS } from './runStatusSlice';
import { foldTrainEvents } from './trainEvents';

const config: ExperimentConfig = {
  name: 'x',
  seed: 1,
  steps: 5,
  methods: ['co-rl', 'ttrl'],
  cohort: { preset: 'paper-demo' },
  task: null,
  train: { ...DEFAULT_TRAIN },
  eval: { ...DEFAULT_EVAL },
};
const step = (method: RewardMethod, s: number): StepRecord =>
  ({
    method,
    step: s,
    agents: [],
    pairs: [],
    timing: { rollout: 0, forward: 0, update: 0, total: 0 },
  }) as StepRecord;
const ev = (method: RewardMethod, s: number): EvalRecord =>
  ({ method, step: s, agents: [] }) as unknown as EvalRecord;

describe('foldTrainEvents', () => {
  const start = { runStatus: { ...IDLE_STATUS }, metrics: { ...EMPTY_METRICS } };

  it('starts a run, appends records per method and keeps the last status', () => {
    const r = foldTrainEvents(start, [
      { type: 'engine', backend: 'webgpu', adapter: 'x', fallbackReason: '' },
      { type: 'run', runId: 1, config },
      { type: 'eval', runId: 1, record: ev('co-rl', 0) },
      { type: 'step', runId: 1, record: step('co-rl', 1) },
      { type: 'step', runId: 1, record: step('ttrl', 1) },
      { type: 'status', runId: 1, phase: 'running', step: 1, totalSteps: 5, message: 'm' },
    ]);
    expect(r.engine?.adapter).toBe('x');
    expect(r.metrics.methods).toEqual(['co-rl', 'ttrl']);
    expect(r.metrics.steps['co-rl']!.map((x) => x.step)).toEqual([1]);
    expect(r.metrics.steps.ttrl!.map((x) => x.step)).toEqual([1]);
    expect(r.metrics.evals['co-rl']).toHaveLength(1);
    expect(r.runStatus).toMatchObject({ phase: 'running', step: 1, totalSteps: 5, runId: 1, message: 'm' });

    const r2 = foldTrainEvents(r, [
      { type: 'step', runId: 1, record: step('co-rl', 2) },
      { type: 'live', runId: 1, params: { lr: 0.001 } },
    ]);
    expect(r2.metrics.steps['co-rl']!.map((x) => x.step)).toEqual([1, 2]);
    expect(r2.metrics.steps.ttrl).toBe(r.metrics.steps.ttrl); // untouched methods keep their arrays
    expect(r2.runStatus.liveNote).toBe('learning rate 0.001 from step 2');
    expect(r2.runStatus.config!.train.lr).toBe(0.001);
  });

  it('a new run drops the old records, and late events of the old run are ignored', () => {
    const r = foldTrainEvents(start, [
      { type: 'run', runId: 1, config },
      { type: 'step', runId: 1, record: step('co-rl', 1) },
      { type: 'run', runId: 2, config },
      { type: 'step', runId: 1, record: step('co-rl', 2) },
      { type: 'status', runId: 1, phase: 'running', step: 2, totalSteps: 5, message: 'old' },
      { type: 'step', runId: 2, record: step('ttrl', 1) },
    ]);
    expect(r.metrics.runId).toBe(2);
    expect(r.metrics.steps['co-rl']).toBeUndefined();
    expect(r.metrics.steps.ttrl).toHaveLength(1);
    expect(r.runStatus.phase).toBe('loading');
    const e = foldTrainEvents(r, [{ type: 'error', runId: 0, message: 'worker failed' }]);
    expect(e.runStatus).toMatchObject({ phase: 'error', message: 'worker failed' });
  });

  it('appendRecords returns the same object when nothing is added', () => {
    const m = { ...EMPTY_METRICS };
    expect(appendRecords(m, [], [])).toBe(m);
  });
});
