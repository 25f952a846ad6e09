// Tabular agents (softmax over {right, wrong} per prompt, real GRPO from K samples) next to the ODE, same start.
import { useMemo } from 'react';
import { CartesianGrid, ComposedChart, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { useStore } from '../../store/store';
import { startTabularRun, stopTabularRun, tabularSteps } from '../../store/tabularBridge';
import type { TabularRunParams, TabularSettings, TheoryPoint } from '../../store/theorySlice';
import { ChartLegend, evenTicks } from './ChartLegend';
import { computeTrajectory, fmtPair, horizonFor, toSeries } from './theoryModel';

const A_COLOUR = '#2563eb';
const B_COLOUR = '#ea580c';
const PROMPT_OPTIONS = [50, 200, 1000];
const ETA_OPTIONS = [0.01, 0.02, 0.05, 0.1];
const METHOD_LABEL = { 'co-rl': 'Co-RL (grade each other)', ttrl: 'Self-rewarding (TTRL)' } as const;

interface Props {
  K: number;
  start: TheoryPoint;
}

/** The ODE that matches a run: Co-RL's coupled system or the self-rewarding one, and a horizon. */
function odeFor(start: TheoryPoint, K: number, method: TabularSettings['method']) {
  const r = computeTrajectory(start, K);
  const tr = method === 'co-rl' ? r.coRl : r.self;
  return { tr, horizon: horizonFor(tr) };
}

const sameRun = (p: TabularRunParams, start: TheoryPoint, K: number, s: TabularSettings): boolean =>
  p.start.pA === start.pA &&
  p.start.pB === start.pB &&
  p.K === K &&
  p.method === s.method &&
  p.prompts === s.prompts &&
  p.eta === s.eta &&
  p.seed === s.seed;

function Controls({ K, start }: Props) {
  const settings = useStore((s) => s.tabularSettings);
  const set = useStore((s) => s.setTabularSettings);
  const running = useStore((s) => s.tabularRun.status === 'running');
  const run = () => startTabularRun(start, K, settings, odeFor(start, K, settings.method).horizon);
  return (
    <div className="controls tabular-controls">
      <label>
        Method{' '}
        <select
          data-testid="tab-method"
          value={settings.method}
          onChange={(e) => set({ method: e.target.value as TabularSettings['method'] })}
        >
          {(['co-rl', 'ttrl'] as const).map((m) => (
            <option key={m} value={m}>
              {METHOD_LABEL[m]}
            </option>
          ))}
        </select>
      </label>
      <label>
        Prompts{' '}
        <select value={settings.prompts} onChange={(e) => set({ prompts: Number(e.target.value) })}>
          {PROMPT_OPTIONS.map((n) => (
            <option key={n}>{n}</option>
          ))}
        </select>
      </label>
      <label>
        Step size η{' '}
        <select value={settings.eta} onChange={(e) => set({ eta: Number(e.target.value) })}>
          {ETA_OPTIONS.map((n) => (
            <option key={n}>{n}</option>
          ))}
        </select>
      </label>
      <label>
        Seed{' '}
        <input
          data-testid="tab-seed"
          type="number"
          min={0}
          step={1}
          value={settings.seed}
          onChange={(e) => set({ seed: Math.max(0, Math.floor(Number(e.target.value) || 0)) })}
        />
      </label>
      <button type="button" data-testid="tab-run" onClick={run} disabled={K < 3}>
        Run
      </button>
      <button type="button" onClick={stopTabularRun} disabled={!running}>
        Stop
      </button>
    </div>
  );
}

export function TabularPanel({ K, start }: Props) {
  const settings = useStore((s) => s.tabularSettings);
  const run = useStore((s) => s.tabularRun);
  // Plot the run's own setting (so ODE and simulation always match); before any run, the current one.
  const shown = run.params ?? { ...settings, start, K };
  const ode = useMemo(() => {
    const { tr, horizon } = odeFor(shown.start, shown.K, shown.method);
    const h = run.params?.horizon ?? horizon;
    return { series: toSeries(tr, h), horizon: h };
  }, [shown.start, shown.K, shown.method, run.params]);
  const stale = run.params !== null && !sameRun(run.params, start, K, settings);
  const steps = run.params?.steps ?? tabularSteps(ode.horizon, K, settings.eta);
  return (
    <section className="card tabular" aria-labelledby="tabular-title">
      <div className="tabular-text">
        <h2 id="tabular-title">Tabular agents next to the ODE</h2>
        <p className="small">
          Each agent holds, for every prompt, a softmax over {'{right, wrong}'}. A step draws K samples per
          prompt, takes the votes, rewards each sample (Co-RL: does it match the <em>peer&apos;s</em> vote;
          TTRL: its <em>own</em> vote), and applies the real GRPO update. Its mean p(right) over the prompts
          is plotted against the ODE from the same start; one step counts as η·√(K(K−1)) units of ODE time.
        </p>
        <Controls K={K} start={start} />
        {K < 3 && <p className="small error">The tabular simulation needs K ≥ 2 (choose K ≥ 3).</p>}
        <p className="small status-line" data-testid="tabular-status" data-status={run.status}>
          {run.status === 'idle' &&
            `Press Run: ${steps} steps from ${fmtPair(start.pA, start.pB, 2)} with K = ${K}.`}
          {run.status === 'running' && `Running… step ${run.stepsDone} of ${steps}`}
          {run.status === 'done' &&
            `Done${run.message === 'stopped' ? ' (stopped)' : ''}: ${run.stepsDone} steps, ${METHOD_LABEL[shown.method]}, start ${fmtPair(shown.start.pA, shown.start.pB, 2)}, K = ${shown.K}, ${shown.prompts} prompts, η = ${shown.eta}, seed ${shown.seed}. Final mean p: ${fmtPair(run.points.at(-1)!.a, run.points.at(-1)!.b)}.`}
          {run.status === 'error' && <span className="error">Error: {run.message}</span>}
          {stale && run.status !== 'running' && (
            <strong> The controls changed: press Run to simulate the current setting.</strong>
          )}
        </p>
        <p className="small muted">
          Solid: the ODE (expected dynamics, infinitely many prompts). Dotted: one stochastic run. Near the
          separatrix single prompts can fall either way, so the mean over prompts may stop short of 0 or 1.
          Smaller η follows the ODE more closely.
        </p>
      </div>
      <div className="tabular-chart-col">
        <h3>Mean p(right) of each agent</h3>
        <ChartLegend
          items={[
            { label: 'ODE: agent A', colour: A_COLOUR, style: 'solid' },
            { label: 'ODE: agent B', colour: B_COLOUR, style: 'solid' },
            { label: 'Tabular run: agent A', colour: A_COLOUR, style: 'dotted' },
            { label: 'Tabular run: agent B', colour: B_COLOUR, style: 'dotted' },
          ]}
        />
        <div className="chart-box" data-testid="tabular-chart" data-points={run.points.length}>
          <ResponsiveContainer width="100%" height={260}>
            <ComposedChart margin={{ top: 8, right: 16, bottom: 16, left: 0 }}>
              <CartesianGrid strokeDasharray="3 3" />
              <XAxis
                dataKey="t"
                type="number"
                domain={[0, ode.horizon]}
                ticks={evenTicks(ode.horizon)}
                allowDataOverflow
                allowDuplicatedCategory={false}
                label={{ value: 'ODE time t', position: 'insideBottom', offset: -8 }}
              />
              <YAxis domain={[0, 1]} ticks={[0, 0.25, 0.5, 0.75, 1]} width={48} />
              <Tooltip
                formatter={(v) => Number(v).toFixed(3)}
                labelFormatter={(t) => `t = ${Number(t).toFixed(1)}`}
              />
              <Line
                data={ode.series}
                name="ODE: agent A"
                dataKey="a"
                stroke={A_COLOUR}
                strokeWidth={2}
                dot={false}
                isAnimationActive={false}
              />
              <Line
                data={ode.series}
                name="ODE: agent B"
                dataKey="b"
                stroke={B_COLOUR}
                strokeWidth={2}
                dot={false}
                isAnimationActive={false}
              />
              {run.points.length > 1 && (
                <Line
                  data={run.points}
                  name="Tabular run: agent A"
                  dataKey="a"
                  stroke={A_COLOUR}
                  strokeDasharray="2 3"
                  strokeWidth={2}
                  dot={{ r: 1.5 }}
                  isAnimationActive={false}
                />
              )}
              {run.points.length > 1 && (
                <Line
                  data={run.points}
                  name="Tabular run: agent B"
                  dataKey="b"
                  stroke={B_COLOUR}
                  strokeDasharray="2 3"
                  strokeWidth={2}
                  dot={{ r: 1.5 }}
                  isAnimationActive={false}
                />
              )}
            </ComposedChart>
          </ResponsiveContainer>
        </div>
      </div>
    </section>
  );
}
