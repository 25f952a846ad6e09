// Exponential smoothing of chart lines, TensorBoard's convention (its scalar dashboard): a debiased
// exponential moving average with weight w in [0, 1), drawn bold over the faint raw line. Smoothing
// changes only what is drawn: the rows are copied, the records never touched.
import type { ChartData, Row, SeriesDef } from '../train/chartData';

/** The most smoothing the slider offers (TensorBoard's 0.999 makes a line flat on short runs). */
export const MAX_SMOOTHING = 0.99;

/**
 * The debiased EMA of `ys` with weight `w` (TensorBoard: last = last * w + (1 - w) * y, divided by
 * 1 - w^n after n finite points). Nulls and non-finite values stay as they are and do not count.
 */
export function emaSmooth(ys: readonly (number | null)[], w: number): (number | null)[] {
  if (!(w > 0)) return [...ys];
  let last = 0;
  let n = 0;
  return ys.map((y) => {
    if (y === null || !Number.isFinite(y)) return y;
    last = last * w + (1 - w) * y;
    n++;
    return last / (1 - w ** n);
  });
}

/** Column of the smoothed copy of a series. */
export const smoothKey = (key: string): string => `${key}~smooth`;

/**
 * The chart's rows with a smoothed column beside every series' raw one (the raw columns unchanged), and
 * the lines to draw: raw ones faint and thin, smoothed ones in the series' own style. At w = 0 the chart
 * is returned as it is (one line per series, as without smoothing).
 */
export function smoothChart(
  data: ChartData,
  w: number,
): { rows: Row[]; raw: SeriesDef[]; smooth: SeriesDef[] } {
  if (!(w > 0)) return { rows: data.rows, raw: data.series, smooth: [] };
  const rows = data.rows.map((r) => ({ ...r }));
  for (const s of data.series) {
    const sm = emaSmooth(
      data.rows.map((r) => r[s.key] ?? null),
      w,
    );
    rows.forEach((r, i) => (r[smoothKey(s.key)] = sm[i]));
  }
  const raw = data.series.map((s) => ({
    ...s,
    width: 1,
    opacity: Math.min(0.3, s.opacity),
    label: `${s.label} (raw)`,
  }));
  const smooth = data.series.map((s) => ({ ...s, key: smoothKey(s.key) }));
  return { rows, raw, smooth };
}
