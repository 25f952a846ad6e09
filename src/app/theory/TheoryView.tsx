// The Theory view (docs/method.md ("Theory")): phase portrait with trajectories, K control, worked example, tabular agents.
import { useDeferredValue, useMemo, useState } from 'react';
import { useStore } from '../../store/store';
import { PhasePortrait } from './PhasePortrait';
import { TrajectoryPanel } from './TrajectoryPanel';
import { WorkedExamplePanel } from './WorkedExamplePanel';
import { TabularPanel } from './TabularPanel';
import { computeTrajectory, computeWorked } from './theoryModel';
import { latestRunSeries } from '../lab/latestRunDots';
import { PortraitDots } from '../lab/PortraitDots';
import { F } from './PhasePortrait';
import './theory.css';

export function TheoryView() {
  const K = useStore((s) => s.theoryK);
  const starts = useStore((s) => s.theoryStarts);
  const setK = useStore((s) => s.setTheoryK);
  const addStart = useStore((s) => s.addTheoryStart);
  const clearStarts = useStore((s) => s.clearTheoryStarts);
  // The heavy ODE work follows K a render later, so the K control itself always reacts at once.
  const dK = useDeferredValue(K);
  const trajectories = useMemo(() => starts.map((p) => computeTrajectory(p, dK)), [starts, dK]);
  const worked = useMemo(() => computeWorked(dK), [dK]);
  const latest = trajectories.at(-1) ?? null;
  const start = starts.at(-1)!;
  const metrics = useStore((s) => s.metrics);
  const run = useMemo(() => latestRunSeries(metrics), [metrics]);
  const [showRun, setShowRun] = useState(true);
  const runFrame = run ? run.series.frames.length - 1 : 0;
  const overlay =
    run && showRun ? <PortraitDots frame={F} series={run.series} at={runFrame} trails={false} /> : null;

  return (
    <div className="theory">
      <section className="intro" aria-labelledby="theory-title">
        <h2 id="theory-title">Why peers beat self-grading: the two-agent picture</h2>
        <p>
          Reduce one prompt to two outcomes, right or wrong. Agent A answers right with probability pA, agent
          B with pB. Each samples K answers and takes a majority vote. In <strong>Co-RL</strong> each agent is
          rewarded for agreeing with the <em>other&apos;s</em> vote, so A moves up exactly when B&apos;s vote
          tends to be right (pB &gt; ½), and vice versa. The arrows show that flow:{' '}
          <span className="formula">dpA/dt = q_K(pA)·φ_K(pB), dpB/dt = q_K(pB)·φ_K(pA)</span>. Everything
          above the line pA + pB = 1 ends with both agents right; everything below, both wrong.
        </p>
      </section>
      <div className="theory-grid">
        <div className="card portrait-card">
          <PhasePortrait K={dK} trajectories={trajectories} onPick={addStart} overlay={overlay} />
          {run && (
            <label className="run-dots-toggle" data-testid="theory-run-dots">
              <input type="checkbox" checked={showRun} onChange={(e) => setShowRun(e.target.checked)} /> Show
              the latest run&apos;s held-out problems ({run.method}, {run.series.pair.join(' × ')}, step{' '}
              {run.series.frames[runFrame].step}): blue started above the line, red below
            </label>
          )}
          <ul className="legend" aria-label="Legend">
            <li>
              <span className="swatch arrow" /> Co-RL vector field (direction; longer = faster)
            </li>
            <li>
              <span className="swatch line traj" /> Co-RL trajectory (RK4), ● its end
            </li>
            <li>
              <span className="swatch line self" /> Self-rewarding from the same start, ■ its end
            </li>
            <li>
              <span className="swatch line separatrix" /> Separatrix pA + pB = 1
            </li>
          </ul>
        </div>
        <div className="side-column">
          <TrajectoryPanel
            K={K}
            onK={setK}
            latest={latest}
            start={start}
            onDraw={addStart}
            onClear={clearStarts}
            canClear={starts.length > 1}
          />
          <WorkedExamplePanel K={dK} worked={worked} />
        </div>
      </div>
      <TabularPanel K={dK} start={start} />
    </div>
  );
}
