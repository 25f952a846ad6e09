// Live line chart of the supervised demo's training loss (recharts).
import { CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { useStore } from '../../store/store';

export function LossChart() {
  const losses = useStore((s) => s.losses);
  return (
    <div className="chart" data-testid="loss-chart" data-points={losses.length}>
      <h3>Training loss (cross-entropy on answer tokens)</h3>
      <ResponsiveContainer width="100%" height={260}>
        <LineChart data={losses} margin={{ top: 8, right: 16, bottom: 8, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" />
          <XAxis
            dataKey="step"
            type="number"
            domain={['dataMin', 'dataMax']}
            label={{ value: 'step', position: 'insideBottomRight', offset: -4 }}
          />
          <YAxis domain={[0, 'auto']} label={{ value: 'loss (nats)', angle: -90, position: 'insideLeft' }} />
          <Tooltip formatter={(v) => Number(v).toFixed(4)} />
          <Line type="monotone" dataKey="loss" stroke="#2563eb" dot={false} isAnimationActive={false} />
        </LineChart>
      </ResponsiveContainer>
    </div>
  );
}
