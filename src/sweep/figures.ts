// The sweep report's PNGs, drawn with the plot code of `npm run plot` (src/plot/plotChart.ts): Co-RL's
// gain (and Co-RL minus TTRL) against base kappa, each method's gain per cohort, the matched-budget
// ensembles per cohort, and the normalised within-group reward std over training (paper Fig. 4b).
import { join } from 'node:path';
import { lineChartSvg, svgsToPngs, type ChartSpec, type Series } from '../plot/plotChart';
import { methodTitle } from '../rl/rewards';
import type { CellRecord } from '../formats/sweep/records';
import type { SweepReport } from '../formats/sweep/report';
import { METHOD_COLOURS as COLORS } from '../plot/colours';

const dots = (name: string, points: [number, number | null][], color = COLORS[name] ?? '#444'): Series => ({
  name,
  color,
  points,
  markers: true,
  line: false,
});

/** The x axis of a chart over cohorts 1..n: integer ticks, half a cohort of margin. */
const cohortAxis = (r: SweepReport): Pick<ChartSpec, 'xMin' | 'xMax' | 'xTicks'> => ({
  xMin: 0.5,
  xMax: r.groups.length + 0.5,
  xTicks: r.groups.map((g) => g.index + 1),
});

/** An x range 5% wider than `xs` on each side (dots at the edge stay whole). */
function padded(xs: number[]): Pick<ChartSpec, 'xMin' | 'xMax'> {
  const lo = Math.min(...xs);
  const hi = Math.max(...xs);
  const pad = (hi - lo) * 0.05 || 0.05;
  return { xMin: lo - pad, xMax: hi + pad };
}

function cohortLegend(r: SweepReport): string {
  return `cohorts: ${r.groups.map((g) => `${g.index + 1} = ${g.label}`).join(', ')}`.slice(0, 150);
}

/** The chart specs of a report (charts without any point are left out), by file name. */
export function reportCharts(r: SweepReport, records: readonly CellRecord[]): Record<string, ChartSpec> {
  const charts: Record<string, ChartSpec> = {};
  const withK = r.groups.filter((g) => g.overlap && g.methods['co-rl']?.gain);
  if (withK.length) {
    const both = withK.filter((g) => g.methods.ttrl?.gain);
    charts['kappa.png'] = {
      title: "Co-RL's held-out accuracy gain against the base agents' kappa",
      subtitle:
        "one dot per cohort (mean over seeds); kappa of the base agents' greedy errors, mean over pairs",
      xLabel: 'base kappa',
      ...padded(withK.map((g) => g.overlap!.kappa)),
      yLabel: 'gain (accuracy, final - base)',
      hLine: 0,
      series: [
        dots(
          'co-rl gain',
          withK.map((g) => [g.overlap!.kappa, g.methods['co-rl'].gain!.mean]),
          COLORS['co-rl'],
        ),
        dots(
          'co-rl minus ttrl',
          both.map((g) => [g.overlap!.kappa, g.methods['co-rl'].gain!.mean - g.methods.ttrl.gain!.mean]),
          COLORS.ttrl,
        ),
      ],
    };
  }
  const methods = [...new Set(r.groups.flatMap((g) => Object.keys(g.methods)))];
  if (r.groups.length) {
    charts['gains.png'] = {
      title: 'Held-out accuracy gain per cohort and method (mean over seeds)',
      subtitle: cohortLegend(r),
      xLabel: 'cohort',
      ...cohortAxis(r),
      yLabel: 'gain (accuracy, final - base)',
      hLine: 0,
      series: methods.map((m) =>
        dots(
          methodTitle(m),
          r.groups.filter((g) => g.methods[m]?.gain).map((g) => [g.index + 1, g.methods[m].gain!.mean]),
          COLORS[m] ?? '#444',
        ),
      ),
    };
    const ens = (k: 'base' | 'ttrl' | 'co-rl'): [number, number | null][] =>
      r.groups.filter((g) => g.ensembles[k]).map((g) => [g.index + 1, g.ensembles[k]!.mean]);
    charts['ensembles.png'] = {
      title: 'Matched-budget ensembles: pooled majority, final (base: step 0)',
      subtitle: cohortLegend(r),
      xLabel: 'cohort',
      ...cohortAxis(r),
      yLabel: 'ensemble accuracy',
      series: [dots('base', ens('base')), dots('ttrl', ens('ttrl')), dots('co-rl', ens('co-rl'))],
    };
  }
  const curve = (m: string): [number, number | null][] => {
    const sums = new Map<number, { s: number; n: number }>();
    for (const rec of records) {
      for (const st of rec.result?.steps ?? []) {
        if (st.method !== m) continue;
        for (const a of st.agents) {
          if (a.rewardGroupStdNorm === null || !Number.isFinite(a.rewardGroupStdNorm)) continue;
          const e = sums.get(st.step) ?? { s: 0, n: 0 };
          e.s += a.rewardGroupStdNorm;
          e.n++;
          sums.set(st.step, e);
        }
      }
    }
    return [...sums.entries()].sort((a, b) => a[0] - b[0]).map(([x, e]) => [x, e.s / e.n]);
  };
  const std = ['co-rl', 'ttrl', 'co-rl-frozen']
    .map((m) => ({ name: methodTitle(m), color: COLORS[m], points: curve(m) }))
    .filter((s) => s.points.length);
  if (std.length)
    charts['reward-std.png'] = {
      title: 'Within-group reward std / its step-1 value (paper Fig. 4b)',
      subtitle: 'mean over every cell, seed and agent of the sweep',
      xLabel: 'training step',
      yLabel: 'normalised reward std',
      hLine: 1,
      series: std,
    };
  for (const [k, c] of Object.entries(charts)) if (!c.series.some((s) => s.points.length)) delete charts[k];
  return charts;
}

/** Render the report's charts as PNGs into `dir` (headless Chromium); returns the file names written. */
export async function writeReportPngs(
  dir: string,
  r: SweepReport,
  records: readonly CellRecord[],
): Promise<string[]> {
  const charts = reportCharts(r, records);
  await svgsToPngs(
    Object.entries(charts).map(([f, spec]) => ({ file: join(dir, f), svg: lineChartSvg(spec) })),
  );
  return Object.keys(charts);
}
