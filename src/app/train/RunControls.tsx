// Start / Pause / Resume / Step / Reset, the speed, and the progress of the run (loading checkpoints,
// stepping, evaluating) with the first step's figures (data-first-step: the same seed gives the same step).
import { BuildNotices } from './BuildNotices';
import { useMemo, useState } from 'react';
import { useStore } from '../../store/store';
import {
  pauseTraining,
  resetTraining,
  resumeTraining,
  setTrainingSpeed,
  startTraining,
  stepTraining,
} from '../../store/trainBridge';
import type { ExperimentConfig } from '../../rl/config';
import { toExperimentConfig, type RunSettings } from '../../formats/runSettings';
import { firstStepSummary, METHOD_LABEL } from './chartData';
import type { StepRecord } from '../../rl/records';
import type { RunMetrics } from '../../formats/runMetrics';
import { throughput, throughputText } from './throughput';

const SPEEDS = [
  { ms: 0, label: 'full speed' },
  { ms: 250, label: '0.25 s between steps' },
  { ms: 1000, label: '1 s between steps' },
  { ms: 3000, label: '3 s between steps' },
];

/** Settings that differ from the running run's config, other than the live ones. */
function pendingChanges(settings: RunSettings, c: ExperimentConfig | null): boolean {
  if (!c) return false;
  const want = toExperimentConfig(settings);
  const strip = (x: typeof want) =>
    JSON.stringify({ ...x, name: '', train: { ...x.train, lr: 0, temperature: 0 } });
  return strip(want) !== strip(c);
}

/** "Co-RL A 0.00, B 0.19 · TTRL ..." : each method's step-1 reward means. */
function firstStepText(m: RunMetrics): string {
  return m.methods
    .map((meth) => [meth, m.steps[meth]?.[0]] as const)
    .filter((x): x is readonly [(typeof x)[0], StepRecord] => !!x[1])
    .map(
      ([meth, r]) =>
        `${METHOD_LABEL[meth]} ${r.agents.map((a) => `${a.agent} ${a.rewardMean.toFixed(2)}`).join(', ')}`,
    )
    .join(' · ');
}

/**
 * A progress bar's fill at `frac` (0..1): a horizontal scale of a full-width fill, which changes no layout,
 * and no eased transition. The bar moves a few times a second, and an eased width (0.2 s) laid the page out
 * and painted it on every frame of it: 10-15% of a core on the main thread and 5% on the compositor, taken
 * from the builds of in-page pretraining on 2 cores; eased by transform it still cost 10%
 * (docs/performance-sittings.md).
 */
const barFill = (frac: number) => ({ transform: `scaleX(${Math.min(1, Math.max(0, frac))})` });

export function RunControls({ canStart }: { canStart: boolean }) {
  const st = useStore((s) => s.runStatus);
  const speed = useStore((s) => s.speedMs);
  const metrics = useStore((s) => s.metrics);
  const settings = useStore((s) => s.runSettings);
  const [refused, setRefused] = useState('');
  const first = useMemo(() => firstStepSummary(metrics), [metrics]);
  const firstText = useMemo(() => firstStepText(metrics), [metrics]);
  const pending = useMemo(() => pendingChanges(settings, st.config), [settings, st.config]);
  const perAgent = st.config ? st.config.train.batchPrompts * st.config.train.samples : 0;
  const workers = st.workers ?? 1;
  const speedNow = useMemo(
    () => (perAgent ? throughput(metrics, perAgent, 5, workers) : null),
    [metrics, perAgent, workers],
  );
  const { phase } = st;
  const active = phase === 'running' || phase === 'paused' || phase === 'loading';
  const frac = st.totalSteps ? st.step / st.totalSteps : 0;
  /** Pretraining's progress while loading, when the worker reports it. */
  const work = phase === 'loading' && st.work !== undefined ? Math.min(1, Math.max(0, st.work)) : null;

  const start = () => {
    const problems = startTraining();
    setRefused(Object.keys(problems).length ? 'Fix the fields marked in red first.' : '');
  };
  return (
    <section className="panel run-controls" aria-label="Run controls">
      <div className="buttons">
        <button
          type="button"
          className="primary"
          data-testid="train-start"
          onClick={start}
          disabled={!canStart || phase === 'loading'}
        >
          {active ? 'Restart' : 'Start'}
        </button>
        {phase === 'paused' ? (
          <button type="button" data-testid="train-resume" onClick={resumeTraining}>
            Resume
          </button>
        ) : (
          <button
            type="button"
            data-testid="train-pause"
            onClick={pauseTraining}
            disabled={phase !== 'running'}
          >
            Pause
          </button>
        )}
        <button
          type="button"
          data-testid="train-step"
          onClick={stepTraining}
          disabled={phase !== 'paused'}
          title="one step of every method, then pause"
        >
          Step
        </button>
        <button
          type="button"
          data-testid="train-reset"
          onClick={resetTraining}
          disabled={!st.config || phase === 'loading'}
          title="back to the base agents and the run seed"
        >
          Reset
        </button>
        <label className="speed">
          Speed{' '}
          <select
            data-testid="train-speed"
            value={speed}
            onChange={(e) => setTrainingSpeed(Number(e.target.value))}
          >
            {SPEEDS.map((s) => (
              <option key={s.ms} value={s.ms}>
                {s.label}
              </option>
            ))}
          </select>
        </label>
      </div>
      <div
        className="progress"
        data-testid="train-status"
        data-phase={phase}
        data-step={st.step}
        data-work={work ?? undefined}
      >
        {work !== null ? (
          <div
            className="bar"
            role="progressbar"
            aria-label="pretraining"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={Math.round(work * 100)}
          >
            <div className="fill loading-work" style={barFill(work)} />
          </div>
        ) : (
          <div
            className="bar"
            role="progressbar"
            aria-valuemin={0}
            aria-valuemax={st.totalSteps}
            aria-valuenow={st.step}
          >
            <div className={`fill ${phase}`} style={barFill(phase === 'loading' ? 0 : frac)} />
          </div>
        )}
        <p className="status-line">
          <span className={`phase ${phase}`}>{phase}</span>{' '}
          {st.totalSteps > 0 && (
            <span>
              step {st.step} / {st.totalSteps} ·{' '}
            </span>
          )}
          <span className={phase === 'error' ? 'error' : undefined}>{st.message}</span>
          {speedNow && (
            <span
              className="throughput"
              data-testid="throughput"
              data-ms-per-step={speedNow.msPerStep.toFixed(1)}
              title={`compute time of the last ${speedNow.steps} lock step(s), every method; evaluations not included`}
            >
              {' '}
              · {throughputText(speedNow)}
            </span>
          )}
        </p>
        <BuildNotices />
        {refused && <p className="error small">{refused}</p>}
        {st.liveNote && <p className="small muted">Changed live: {st.liveNote}.</p>}
        {pending && active && (
          <p className="small muted" data-testid="pending">
            Settings changed: press Restart to apply them (learning rate and temperature apply live).
          </p>
        )}
        <p className="small muted first-step" data-testid="first-step" data-first-step={first}>
          {first
            ? `Step 1 reward means: ${firstText} (the same seed gives the same first step)`
            : 'Step 1 figures appear here.'}
        </p>
      </div>
    </section>
  );
}
