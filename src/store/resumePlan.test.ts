// What a reload does with a saved run: which phases resume, from which step, paused or running; records
// after the snapshot's step are dropped (the worker recomputes them); gaps and duplicates are named; the
// store keeps the restored records when the worker's resumed run begins; the saved phase round-trips
// through the run-file validator.
import { describe, expect, it } from 'vitest';
import { DEFAULT_EVAL, DEFAULT_TRAIN, type ExperimentConfig } from '../rl/config';
import type { EvalRecord, StepRecord } from '../rl/records';
import type { RewardMethod } from '../rl/rewards';
import type { RunMetrics } from '../formats/runMetrics';
import {
  linkConflicts,
  linkOverRun,
  linkSettings,
  missingSteps,
  planResume,
  trimMetrics,
} from './resumePlan';
import { mergeQuery, settingsFromQuery } from '../formats/urlConfig';
import { DEFAULT_RUN_SETTINGS } from '../formats/runSettings';
import { RUN_FILE_FORMAT, RUN_FILE_VERSION, validateRunFile, type RunFile } from '../formats/runFile';
import { IDLE_STATUS } from './runStatusSlice';
import { foldTrainEvents } from './trainEvents';

const config: ExperimentConfig = {
  name: 'x',
  seed: 1,
  steps: 10,
  methods: ['co-rl', 'ttrl'],
  cohort: { preset: 'paper-demo' },
  task: null,
  train: { ...DEFAULT_TRAIN },
  eval: { ...DEFAULT_EVAL, every: 2 },
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
const range = (a: number, b: number) => Array.from({ length: b - a + 1 }, (_, i) => a + i);

/** Records of steps 1..n (evaluations at 0 and every 2) for both methods. */
function metricsTo(n: number): Omit<RunMetrics, 'runId'> {
  const methods: RewardMethod[] = ['co-rl', 'ttrl'];
  return {
    methods,
    steps: Object.fromEntries(methods.map((m) => [m, range(1, n).map((s) => step(m, s))])),
    evals: Object.fromEntries(
      methods.map((m) => [
        m,
        range(0, n)
          .filter((s) => s % 2 === 0)
          .map((s) => ev(m, s)),
      ]),
    ),
  };
}

const saved = (o: Partial<RunFile>): RunFile => ({
  format: RUN_FILE_FORMAT,
  version: RUN_FILE_VERSION,
  name: 'autosave',
  savedAt: '2025-01-01T00:00:00.000Z',
  settings: { ...DEFAULT_RUN_SETTINGS },
  config,
  metrics: metricsTo(7),
  step: 7,
  snapshot: { step: 5, key: 'k' },
  phase: 'running',
  ...o,
});

describe('planResume', () => {
  it('resumes running and paused runs from the snapshot, keeping only the records up to its step', () => {
    const p = planResume(saved({}), true);
    expect(p).toMatchObject({ kind: 'resume', step: 5, paused: false, missing: [] });
    if (p.kind !== 'resume') throw new Error('unreachable');
    expect(p.metrics.steps['co-rl']!.map((r) => r.step)).toEqual([1, 2, 3, 4, 5]);
    expect(p.metrics.steps.ttrl!.map((r) => r.step)).toEqual([1, 2, 3, 4, 5]);
    expect(p.metrics.evals['co-rl']!.map((r) => r.step)).toEqual([0, 2, 4]); // the step-6 evaluation is recomputed
    expect(planResume(saved({ phase: 'paused' }), true)).toMatchObject({
      kind: 'resume',
      step: 5,
      paused: true,
    });
    expect(planResume(saved({ phase: 'loading' }), true)).toMatchObject({ kind: 'resume', paused: false });
  });

  it('does not resume finished, failed or idle runs, nor runs whose snapshot bytes are gone', () => {
    expect(planResume(saved({ phase: 'done' }), true)).toEqual({
      kind: 'none',
      reason: 'the saved run is finished',
    });
    expect(planResume(saved({ phase: 'error' }), true)).toEqual({
      kind: 'none',
      reason: 'the saved run is in phase error',
    });
    expect(planResume(saved({ phase: undefined }), true).kind).toBe('none');
    expect(planResume(saved({ phase: 'idle' }), true).kind).toBe('none');
    expect(planResume(saved({}), false)).toEqual({
      kind: 'none',
      reason: "the snapshot of step 5 is missing from the browser's storage",
    });
    expect(planResume(saved({ snapshot: { step: 11, key: 'k' } }), true).kind).toBe('none');
  });

  it('starts a run over that was saved before its first snapshot', () => {
    expect(
      planResume(saved({ snapshot: undefined, phase: 'loading', metrics: metricsTo(0), step: 0 }), false),
    ).toEqual({ kind: 'restart', paused: false });
  });

  it('names missing and doubled step records', () => {
    const m = metricsTo(6);
    m.steps['co-rl'] = m.steps['co-rl']!.filter((r) => r.step !== 3 && r.step !== 4);
    m.steps.ttrl = [...m.steps.ttrl!, step('ttrl', 2)];
    expect(missingSteps(m, 5)).toEqual(['co-rl: no record of steps 3, 4', 'ttrl: step 2 recorded twice']);
    expect(missingSteps(metricsTo(6), 6)).toEqual([]);
    expect(missingSteps(metricsTo(4), 5)).toEqual([
      'co-rl: no record of step 5',
      'ttrl: no record of step 5',
    ]);
  });

  it('trimMetrics leaves the input alone', () => {
    const m = metricsTo(4);
    const t = trimMetrics(m, 2);
    expect(t.steps['co-rl']!.length).toBe(2);
    expect(m.steps['co-rl']!.length).toBe(4);
  });

  it('the saved phase passes the run-file validator, a bad one is named', () => {
    const ok = validateRunFile(
      JSON.parse(JSON.stringify(saved({ metrics: { methods: ['co-rl', 'ttrl'], steps: {}, evals: {} } }))),
    );
    expect(ok.ok).toBe(true);
    const bad = validateRunFile(
      JSON.parse(
        JSON.stringify(
          saved({
            phase: 'sleeping' as never,
            metrics: { methods: ['co-rl', 'ttrl'], steps: {}, evals: {} },
          }),
        ),
      ),
    );
    expect(bad.ok).toBe(false);
    if (!bad.ok)
      expect(bad.errors).toContain(
        'phase: must be one of idle, loading, running, paused, done, error, got "sleeping"',
      );
  });
});

describe('foldTrainEvents with a resumed run', () => {
  it('keeps the restored records up to the resume step and continues the step counter', () => {
    const restored = {
      runStatus: { ...IDLE_STATUS, phase: 'loading' as const, step: 5 },
      metrics: { runId: 0, ...metricsTo(7) },
    };
    const r = foldTrainEvents(restored, [
      { type: 'run', runId: 1, config, resumeFrom: 5 },
      { type: 'step', runId: 1, record: step('co-rl', 6) },
      { type: 'step', runId: 1, record: step('ttrl', 6) },
      { type: 'eval', runId: 1, record: ev('co-rl', 6) },
    ]);
    expect(r.metrics.runId).toBe(1);
    expect(r.runStatus.step).toBe(5);
    expect(r.metrics.steps['co-rl']!.map((x) => x.step)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(r.metrics.evals['co-rl']!.map((x) => x.step)).toEqual([0, 2, 4, 6]);
    // a start that is not a resume still starts over
    const fresh = foldTrainEvents(restored, [{ type: 'run', runId: 1, config }]);
    expect(fresh.metrics.steps).toEqual({});
  });
});

describe('linkOverRun: a link the tab is navigated to against its own saved run', () => {
  const link = (search: string) => settingsFromQuery(search);
  const run = saved({
    settings: { ...DEFAULT_RUN_SETTINGS, preset: 'paper-demo', steps: 40 },
    metrics: { methods: ['co-rl', 'ttrl'], steps: {}, evals: {} },
  });

  it('passes over the saved run when the link sets another preset, naming what differs', () => {
    const n = linkOverRun(link('?preset=ring&steps=40'), run, 'navigate');
    expect(n).not.toBeNull();
    expect(n!.ok).toBe(false);
    expect(n!.text).toContain(
      '(preset paper-demo, saved at 2025-01-01T00:00:00.000Z, resumable from step 5) was not resumed',
    );
    expect(n!.text).toContain('sets preset otherwise');
    expect(n!.text).not.toContain('steps'); // the link's steps equal the run's
  });

  it('resumes as before on a reload or back/forward, with no link, or when the link mirrors the run', () => {
    expect(linkOverRun(link('?preset=ring'), run, 'reload')).toBeNull();
    expect(linkOverRun(link('?preset=ring'), run, 'back_forward')).toBeNull();
    expect(linkOverRun(link(''), run, 'navigate')).toBeNull();
    // the tab's own address: the settings the run was started with, mirrored into the query
    expect(linkOverRun(link(mergeQuery('', run.settings)), run, 'navigate')).toBeNull();
  });

  it('leaves a run that would not resume anyway (finished, unreadable) to the usual path', () => {
    expect(linkOverRun(link('?preset=ring'), { ...run, phase: 'done' }, 'navigate')).toBeNull();
    expect(linkOverRun(link('?preset=ring'), { hello: 1 }, 'navigate')).toBeNull();
  });

  it('linkConflicts lists only the fields the link gives with another value', () => {
    const l = link('?preset=ring&steps=40&samples=3');
    expect(l.used.sort()).toEqual(['preset', 'samples', 'steps']);
    expect(linkConflicts(l, run.settings).sort()).toEqual(
      DEFAULT_RUN_SETTINGS.samples === 3 ? ['preset'] : ['preset', 'samples'],
    );
  });
});

describe('linkSettings: the run settings of a page query', () => {
  it('are the link settings, except for an engine-demo link (autostart), which sets no run', () => {
    expect(linkSettings('?preset=ring&steps=40').used.sort()).toEqual(['preset', 'steps']);
    expect(linkSettings('?autostart=1&steps=40&backend=cpu')).toEqual({
      settings: settingsFromQuery('').settings,
      used: [],
    });
    // so a tab's own saved run is not passed over for a demo link
    const run = saved({ metrics: { methods: ['co-rl', 'ttrl'], steps: {}, evals: {} } });
    expect(linkOverRun(linkSettings('?autostart=1&steps=3'), run, 'navigate')).toBeNull();
    expect(linkOverRun(linkSettings('?steps=3'), run, 'navigate')).not.toBeNull();
  });
});
