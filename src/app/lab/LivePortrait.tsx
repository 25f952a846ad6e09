// The Train view's live phase portrait (issue 15, docs/method.md ("Theory") on the real cohort): at every evaluation
// each held-out problem is a dot at (pA(x), pB(x)) over the Theory view's vector field and separatrix,
// with counts above / below the line and of problems that crossed it since the first evaluation.
import { useState } from 'react';
import type { RewardMethod } from '../../rl/rewards';
import { useStore } from '../../store/store';
import { METHOD_LABEL } from '../train/chartData';
import { ArrowheadDefs, Background, F, Field } from '../theory/PhasePortrait';
import { frameSize } from '../theory/portraitGeometry';
import { agentPairs, movedBetween, portraitAgents, portraitCounts, portraitSeries } from './portraitData';
import { PortraitDots } from './PortraitDots';
import { Toggle } from './controls';
import '../theory/theory.css';
import '../train/overlap.css'; // its panel head (title left, controls right)
import './lab.css';

const { width: W, height: H } = frameSize(F);

export default function LivePortrait() {
  const metrics = useStore((s) => s.metrics);
  const K = useStore((s) => s.runStatus.config?.train.samples ?? s.runSettings.samples);
  const [method, setMethod] = useState<RewardMethod | null>(null);
  const [pairLabel, setPairLabel] = useState<string | null>(null);
  const [trails, setTrails] = useState(false);
  const [pinned, setPinned] = useState<number | null>(null); // null: follow the latest evaluation

  const methods = metrics.methods.filter((m) => (metrics.evals[m] ?? []).some((e) => e.portraitSamples));
  const m =
    method && methods.includes(method) ? method : (methods.find((x) => x === 'co-rl') ?? methods[0] ?? null);
  const evals = m ? (metrics.evals[m] ?? []) : [];
  const pairs = agentPairs(portraitAgents(evals));
  const pair = pairs.find((p) => p.label === pairLabel) ?? pairs[0] ?? null;
  // cheap (problems x evaluations points), and the panel re-renders only when the records change
  const series = pair ? portraitSeries(evals, pair.a, pair.b) : null;
  const n = series?.frames.length ?? 0;
  const at = pinned === null || pinned >= n ? n - 1 : pinned;
  const counts = series && n ? portraitCounts(series.frames[at].dots, series.startSide) : null;
  const moved = series && at > 0 ? movedBetween(series.frames[at - 1].dots, series.frames[at].dots) : 0;

  return (
    <section
      className="panel live-portrait"
      data-testid="live-portrait"
      aria-labelledby="live-portrait-title"
    >
      <div className="overlap-head">
        <h3 id="live-portrait-title">Live phase portrait of the cohort</h3>
        <div className="lab-controls">
          <label>
            Method{' '}
            <select
              data-testid="lp-method"
              value={m ?? ''}
              disabled={methods.length < 2}
              onChange={(e) => setMethod(e.target.value as RewardMethod)}
            >
              {methods.length === 0 && <option value="">—</option>}
              {methods.map((x) => (
                <option key={x} value={x}>
                  {METHOD_LABEL[x]}
                </option>
              ))}
            </select>
          </label>
          {pairs.length > 1 && (
            <label>
              Pair{' '}
              <select
                data-testid="lp-pair"
                value={pair?.label ?? ''}
                onChange={(e) => setPairLabel(e.target.value)}
              >
                {pairs.map((p) => (
                  <option key={p.label} value={p.label}>
                    {p.a} × {p.b}
                  </option>
                ))}
              </select>
            </label>
          )}
          <Toggle label="trails" testId="lp-trails" checked={trails} onChange={setTrails} />
        </div>
      </div>
      <p className="caption">
        Each dot is one held-out problem x at (pA(x), pB(x)): the share of S samples per agent at the rollout
        temperature that answer it right. Blue dots started above the separatrix pA + pB = 1 (the theory says
        both agents then learn it), red ones below. Arrows: the two-agent Co-RL field for K = {K}.
      </p>
      {!series && (
        <p className="muted small" data-testid="lp-empty">
          Appears after the first evaluation of a run with portrait samples S ≥ 1 (Hyperparameters).
        </p>
      )}
      {series && counts && (
        <>
          <svg
            className="portrait live"
            viewBox={`0 0 ${W} ${H}`}
            role="img"
            data-testid="live-portrait-svg"
            aria-label={`Held-out problems of ${METHOD_LABEL[m!]} at step ${series.frames[at].step}: ${counts.above} above the separatrix, ${counts.below} below.`}
          >
            <ArrowheadDefs />
            <Background />
            <Field K={K} />
            <PortraitDots frame={F} series={series} at={at} trails={trails} />
          </svg>
          <div
            className="lp-counts"
            data-testid="lp-counts"
            data-above={counts.above}
            data-below={counts.below}
            data-crossed={counts.crossed}
            data-moved={moved}
          >
            <span>
              step <strong>{series.frames[at].step}</strong>
            </span>
            <span className="up">
              above <strong>{counts.above}</strong>
            </span>
            <span className="down">
              below <strong>{counts.below}</strong>
            </span>
            {counts.on > 0 && (
              <span>
                on the line <strong>{counts.on}</strong>
              </span>
            )}
            <span>
              crossed <strong>{counts.crossed}</strong> (↑ {counts.crossedUp}, ↓ {counts.crossedDown})
            </span>
            <span className="muted">moved since the last evaluation: {moved}</span>
          </div>
          {n > 1 && (
            <label className="lp-scrub">
              Evaluation{' '}
              <input
                type="range"
                min={0}
                max={n - 1}
                value={at}
                data-testid="lp-eval"
                onChange={(e) => setPinned(Number(e.target.value) >= n - 1 ? null : Number(e.target.value))}
              />{' '}
              {at + 1} of {n}
              {pinned === null ? ' (following the latest)' : ''}
            </label>
          )}
        </>
      )}
    </section>
  );
}
