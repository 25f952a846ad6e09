// One chart of the compare view (recharts): per shown run or seed group a line in its colour; a seed
// group's line is the mean over its runs with a shaded min-max band. With smoothing above 0 the
// smoothed mean (and band) is drawn bold over the faint raw mean (TensorBoard's convention).
import { memo, useMemo } from 'react';
import {
  Area,
  CartesianGrid,
  ComposedChart,
  Line,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import type { RewardMethod } from '../../rl/rewards';
import { niceCeil, niceTicks } from '../train/chartData';
import { stepAxis } from '../train/MetricChart';
import { compareRows, smoothCompareRows, type CompareMetric, type RunGroup } from './compareData';

interface Props {
  metric: CompareMetric;
  groups: RunGroup[];
  method: RewardMethod;
  smoothing: number;
}

const fmt = (v: unknown): string =>
  Array.isArray(v)
    ? `${fmt(v[0])} – ${fmt(v[1])}`
    : typeof v !== 'number'
      ? '–'
      : Math.abs(v) >= 100
        ? v.toFixed(1)
        : v.toFixed(3);

function top(rows: ReturnType<typeof compareRows>): number {
  let m = 0;
  for (const r of rows)
    for (const [k, v] of Object.entries(r)) {
      if (k === 'step') continue;
      for (const x of Array.isArray(v) ? v : [v])
        if (typeof x === 'number' && Number.isFinite(x) && x > m) m = x;
    }
  return niceCeil(m);
}

function CompareChartImpl({ metric, groups, method, smoothing }: Props) {
  const raw = useMemo(() => compareRows(groups, metric, method), [groups, metric, method]);
  const rows = useMemo(() => smoothCompareRows(raw, groups, smoothing), [raw, groups, smoothing]);
  const yTop = metric.yMax ?? top(raw);
  const sm = smoothing > 0;
  const bands = groups.filter((g) => g.runs.length > 1);
  return (
    <figure
      className="chart compare-chart"
      data-testid={`compare-${metric.id}`}
      data-points={raw.length}
      data-bands={bands.length}
      data-lines={groups.length}
      data-smoothing={smoothing}
    >
      <h3>{metric.title}</h3>
      <ResponsiveContainer width="100%" height={220}>
        <ComposedChart data={rows} margin={{ top: 8, right: 12, bottom: 14, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="#e5e7eb" />
          <XAxis {...stepAxis('step')} />
          <YAxis domain={[0, yTop]} ticks={niceTicks(yTop)} width={44} tick={{ fontSize: 11 }} />
          <Tooltip
            formatter={(v) => fmt(v)}
            labelFormatter={(l) => `step ${String(l)}`}
            contentStyle={{ fontSize: 12, padding: '4px 8px' }}
          />
          {bands.map((g) => (
            <Area
              key={`${g.key}:band`}
              className="compare-band"
              dataKey={`${g.key}:band${sm ? '~smooth' : ''}`}
              name={`${g.label} min–max`}
              stroke="none"
              fill={g.colour}
              fillOpacity={0.18}
              connectNulls
              isAnimationActive={false}
              activeDot={false}
            />
          ))}
          {groups.map((g) => (
            <Line
              key={g.key}
              className={sm ? 'line-raw' : 'line'}
              dataKey={g.key}
              name={sm ? `${g.label} (raw)` : g.label}
              stroke={g.colour}
              strokeWidth={sm ? 1 : 2}
              strokeOpacity={sm ? 0.3 : 1}
              dot={raw.length === 1 ? { r: 2 } : false}
              connectNulls
              isAnimationActive={false}
            />
          ))}
          {sm &&
            groups.map((g) => (
              <Line
                key={`${g.key}~smooth`}
                className="line-smooth"
                dataKey={`${g.key}~smooth`}
                name={g.label}
                stroke={g.colour}
                strokeWidth={2.5}
                dot={false}
                connectNulls
                isAnimationActive={false}
              />
            ))}
        </ComposedChart>
      </ResponsiveContainer>
    </figure>
  );
}

export const CompareChart = memo(CompareChartImpl);
