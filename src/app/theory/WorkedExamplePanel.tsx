// The worked example of docs/method.md ("Theory"): (0.9, 0.2) on half the prompts and (0.2, 0.9) on the other half.
import { CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { ODE_T_END, fmtP, type WorkedSummary } from './theoryModel';
import { ChartLegend, evenTicks } from './ChartLegend';

interface Props {
  K: number;
  worked: WorkedSummary;
}

export const SELF_COLOUR = '#dc2626';
export const CORL_COLOUR = '#2563eb';

export function WorkedExamplePanel({ K, worked }: Props) {
  const { self, coRl, series, horizon } = worked;
  return (
    <section className="card worked" aria-labelledby="worked-title">
      <h2 id="worked-title">Worked example: complementary agents</h2>
      <p className="small">
        Agent A is right with p = 0.9 on half the prompts and 0.2 on the other half; agent B is the mirror
        image (0.2, then 0.9). Both start at mean accuracy 0.55. Both halves lie above the separatrix (0.9 +
        0.2 = 1.1 &gt; 1).
      </p>
      <table className="worked-table">
        <caption>
          ODE with K = {K}: accuracy at t = {ODE_T_END}
        </caption>
        <thead>
          <tr>
            <th scope="col">method</th>
            <th scope="col">agent A</th>
            <th scope="col">agent B</th>
            <th scope="col">mean</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <th scope="row" title="each agent rewarded by its own vote">
              <span className="swatch line self" /> Self-rewarding
            </th>
            <td>{fmtP(self.accA, 2)}</td>
            <td>{fmtP(self.accB, 2)}</td>
            <td className="big" data-testid="worked-self">
              {fmtP(self.mean, 2)}
            </td>
          </tr>
          <tr>
            <th scope="row" title="each agent rewarded by the other's vote">
              <span className="swatch line corl" /> Co-RL
            </th>
            <td>{fmtP(coRl.accA, 2)}</td>
            <td>{fmtP(coRl.accB, 2)}</td>
            <td className="big" data-testid="worked-corl">
              {fmtP(coRl.mean, 2)}
            </td>
          </tr>
        </tbody>
      </table>
      <p className="small muted">
        Alone, each agent keeps its strong half (→ 1) and loses its weak half (→ 0): 0.5. Graded by its peer,
        each agent is pulled up on its weak half by the other&apos;s correct majority: 1.0.
      </p>
      <h3>Mean accuracy over time</h3>
      <ChartLegend
        items={[
          { label: 'Co-RL', colour: CORL_COLOUR, style: 'solid' },
          { label: 'Self-rewarding', colour: SELF_COLOUR, style: 'dashed' },
        ]}
      />
      <div className="chart-box" data-testid="worked-chart" data-points={series.length}>
        <ResponsiveContainer width="100%" height={220}>
          <LineChart data={series} margin={{ top: 8, right: 16, bottom: 16, left: 0 }}>
            <CartesianGrid strokeDasharray="3 3" />
            <XAxis
              dataKey="t"
              type="number"
              domain={[0, horizon]}
              ticks={evenTicks(horizon)}
              allowDataOverflow
              label={{ value: 'ODE time t', position: 'insideBottom', offset: -8 }}
            />
            <YAxis domain={[0, 1]} ticks={[0, 0.25, 0.5, 0.75, 1]} width={48} />
            <Tooltip
              formatter={(v) => Number(v).toFixed(3)}
              labelFormatter={(t) => `t = ${Number(t).toFixed(1)}`}
            />
            <Line
              name="Self-rewarding"
              dataKey="self"
              stroke={SELF_COLOUR}
              strokeDasharray="6 3"
              dot={false}
              strokeWidth={2}
              isAnimationActive={false}
            />
            <Line
              name="Co-RL"
              dataKey="coRl"
              stroke={CORL_COLOUR}
              dot={false}
              strokeWidth={2}
              isAnimationActive={false}
            />
          </LineChart>
        </ResponsiveContainer>
      </div>
    </section>
  );
}
