// One live chart of the Train view (recharts): methods overlaid on shared axes, colour per method and
// dash per agent, hover tooltip, an HTML legend whose entries toggle their series, a one-line caption.
// Redraws are staggered per chart (useStaggered) to keep main-thread tasks short.
import { memo, useEffect, useMemo, useState } from 'react';
import { flushSync } from 'react-dom';
import {
  CartesianGrid,
  Line,
  LineChart,
  ReferenceDot,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { useStore } from '../../store/store';
import { smoothChart } from '../lab/smoothing';
import { maxOf, niceCeil, niceTicks, type ChartData, type SeriesDef } from './chartData';
import { makeStagger } from './stagger';

/** A marked point of a chart. */
export interface Mark {
  key: string;
  x: number;
  y: number;
  colour: string;
}

interface Props {
  /** Test id suffix: the container is data-testid="chart-<name>". */
  name: string;
  title: string;
  /** How to read the chart, one line. */
  caption: string;
  data: ChartData;
  /** Top of the y axis (e.g. 1 for shares); default: a round number at or above the shown lines' maximum. */
  yMax?: number;
  xLabel?: string;
  /** Points to mark with a dot (e.g. each method's peak). */
  marks?: readonly Mark[];
  /** Position in the grid: new data is drawn `slot` x STAGGER_MS later, each chart in its own task. */
  slot?: number;
}

/** The x axis of a per-step chart (shared with the compare view's charts). */
export const stepAxis = (label: string) =>
  ({
    dataKey: 'step',
    type: 'number',
    domain: ['dataMin', 'dataMax'],
    allowDecimals: false,
    tick: { fontSize: 11 },
    label: { value: label, position: 'insideBottomRight', offset: -8, fontSize: 11 },
  }) as const;

/** Delay between the charts' redraws, so a new step never draws every chart in one long task. */
export const STAGGER_MS = 20;

/**
 * `value`, updated `delayMs` after it changes, in a task of its own (flushSync inside a timer): the
 * charts of a step redraw one after another instead of all at once. At most once per `delayMs`, and never
 * starved by data arriving faster than that (src/app/train/stagger.ts).
 */
function useStaggered<T>(value: T, delayMs: number): T {
  const [shown, setShown] = useState(value);
  const [stagger] = useState(() => makeStagger<T>(delayMs, (v) => flushSync(() => setShown(v))));
  useEffect(() => {
    if (shown !== value) stagger.push(value);
  }, [value, shown, stagger]);
  useEffect(() => () => stagger.cancel(), [stagger]);
  return shown;
}

function Swatch({ s }: { s: SeriesDef }) {
  return (
    <svg width="26" height="10" aria-hidden="true">
      <line
        x1="1"
        y1="5"
        x2="25"
        y2="5"
        stroke={s.colour}
        strokeWidth={Math.min(s.width + 0.5, 5)}
        strokeOpacity={s.opacity}
        strokeDasharray={s.dash || undefined}
      />
    </svg>
  );
}

/** Axis tick text: 3 significant digits, tiny values in exponent form. */
const tick = (v: number): string =>
  v === 0 ? '0' : Math.abs(v) < 0.001 ? v.toExponential(0) : String(Number(v.toPrecision(3)));
const fmt = (v: unknown): string =>
  typeof v !== 'number'
    ? '–'
    : Math.abs(v) >= 100
      ? v.toFixed(1)
      : v !== 0 && Math.abs(v) < 0.01
        ? v.toExponential(2)
        : v.toFixed(3);

function MetricChartImpl({
  name,
  title,
  caption,
  data: latest,
  yMax,
  xLabel = 'step',
  marks: latestMarks,
  slot = 0,
}: Props) {
  const data = useStaggered(latest, slot * STAGGER_MS);
  const marks = useStaggered(latestMarks, slot * STAGGER_MS);
  const [hidden, setHidden] = useState<ReadonlySet<string>>(() => new Set());
  // smoothing (the Smoothing slider) changes the drawn lines only: raw faint, smoothed bold (TensorBoard)
  const w = useStore((s) => s.smoothing);
  const drawn = useMemo(() => smoothChart(data, w), [data, w]);
  const lines = useMemo(
    () => [
      ...drawn.raw.map((s, i) => ({
        s,
        base: data.series[i].key,
        cls: drawn.smooth.length ? 'line-raw' : 'line',
      })),
      ...drawn.smooth.map((s, i) => ({ s, base: data.series[i].key, cls: 'line-smooth' })),
    ],
    [drawn, data],
  );
  const top = useMemo(
    () =>
      yMax ??
      niceCeil(
        maxOf(
          data.rows,
          data.series.filter((x) => !hidden.has(x.key)).map((x) => x.key),
        ),
      ),
    [yMax, data, hidden],
  );
  const domain = useMemo((): [number, number] => [0, top], [top]);
  const ticks = useMemo(() => niceTicks(top), [top]);
  const toggle = (key: string) =>
    setHidden((h) => {
      const next = new Set(h);
      if (!next.delete(key)) next.add(key);
      return next;
    });
  return (
    <figure
      className="metric-chart chart"
      data-testid={`chart-${name}`}
      data-points={data.points}
      data-smoothing={w}
    >
      <h3>{title}</h3>
      <ResponsiveContainer width="100%" height={220}>
        <LineChart data={drawn.rows} margin={{ top: 8, right: 12, bottom: 14, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="#e5e7eb" />
          <XAxis {...stepAxis(xLabel)} />
          <YAxis domain={domain} ticks={ticks} width={44} tick={{ fontSize: 11 }} tickFormatter={tick} />
          <Tooltip
            formatter={(v) => fmt(v)}
            labelFormatter={(l) => `${xLabel} ${String(l)}`}
            contentStyle={{ fontSize: 12, padding: '4px 8px' }}
            itemStyle={{ padding: 0 }}
          />
          {lines.map(({ s, base, cls }) => (
            <Line
              key={s.key}
              className={cls}
              dataKey={s.key}
              name={s.label}
              type="linear"
              stroke={s.colour}
              strokeWidth={s.width}
              strokeOpacity={s.opacity}
              strokeDasharray={s.dash || undefined}
              dot={data.points === 1 ? { r: 2 } : false}
              connectNulls
              hide={hidden.has(base)}
              isAnimationActive={false}
            />
          ))}
          {marks?.map((m) => (
            <ReferenceDot
              key={m.key}
              x={m.x}
              y={m.y}
              r={5}
              fill={m.colour}
              stroke="#fff"
              ifOverflow="extendDomain"
            />
          ))}
        </LineChart>
      </ResponsiveContainer>
      <ul className="series-legend" aria-label={`${title}: series (click to hide or show)`}>
        {data.series.map((s) => (
          <li key={s.key}>
            <button
              type="button"
              className={hidden.has(s.key) ? 'series off' : 'series'}
              aria-pressed={!hidden.has(s.key)}
              onClick={() => toggle(s.key)}
            >
              <Swatch s={s} /> {s.label}
            </button>
          </li>
        ))}
      </ul>
      <figcaption className="caption">{caption}</figcaption>
    </figure>
  );
}

export const MetricChart = memo(MetricChartImpl);
