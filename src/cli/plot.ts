// `npm run plot -- --in RUN1.json[,RUN2.json,...] --out PREFIX [--smooth N]`: PNG charts of one or more
// experiment results (e.g. the same config over several seeds): held-out accuracy (mean of the agents,
// per agent, and the pooled ensemble), the normalised within-group reward std (paper Fig. 4b) and the
// pseudo-label accuracy, per method: the mean over runs as a line, the min-max over runs as a band.
// Writes PREFIX-accuracy.png, -agents.png, -ensemble.png, -reward-std.png, -pseudo-label.png, and prints
// the tables over the runs (with the paper-demo criteria checked run by run) as markdown to stdout.
import { readFileSync } from 'node:fs';
import type { ExperimentResult } from '../rl/experiment';
import type { AgentStepRecord } from '../rl/records';
import { methodTitle } from '../rl/rewards';
import { formatSeedTables } from './experimentReport';
import { lineChartSvg, svgsToPngs, type Series } from '../plot/plotChart';
import { METHOD_COLOURS as COLORS } from '../plot/colours';

function args(): Record<string, string> {
  const a = process.argv.slice(2);
  const o: Record<string, string> = {};
  for (let i = 0; i < a.length; i += 2) o[a[i].replace(/^--/, '')] = a[i + 1];
  if (!o.in || !o.out)
    throw new Error('usage: npm run plot -- --in RUN1.json[,RUN2.json,...] --out PREFIX [--smooth N]');
  return o;
}

/** Trailing moving average over `w` points (nulls skipped). */
function smooth(ys: (number | null)[], w: number): (number | null)[] {
  return ys.map((_, i) => {
    const win = ys
      .slice(Math.max(0, i - w + 1), i + 1)
      .filter((y): y is number => y !== null && Number.isFinite(y));
    return win.length ? win.reduce((a, b) => a + b, 0) / win.length : null;
  });
}

/** Mean line and min-max band over runs of per-x values (each run: x -> y). */
function aggregate(name: string, color: string, runs: Map<number, number | null>[], dash = false): Series {
  const xs = [...new Set(runs.flatMap((r) => [...r.keys()]))].sort((a, b) => a - b);
  const points: [number, number | null][] = [];
  const band: [number, number, number][] = [];
  for (const x of xs) {
    const v = runs
      .map((r) => r.get(x))
      .filter((y): y is number => y !== null && y !== undefined && Number.isFinite(y));
    if (!v.length) {
      points.push([x, null]);
      continue;
    }
    points.push([x, v.reduce((a, b) => a + b, 0) / v.length]);
    if (runs.length > 1) band.push([x, Math.min(...v), Math.max(...v)]);
  }
  return { name, color, points, band: band.length ? band : undefined, dash };
}

const meanOf = (xs: (number | null)[]): number | null => {
  const v = xs.filter((x): x is number => x !== null && Number.isFinite(x));
  return v.length ? v.reduce((a, b) => a + b, 0) / v.length : null;
};

async function main(): Promise<void> {
  const o = args();
  const runs = o.in.split(',').map((f) => JSON.parse(readFileSync(f, 'utf8')) as ExperimentResult);
  const w = Number(o.smooth ?? 10);
  const methods = runs[0].config.methods;
  const agents = runs[0].evals[0].agents.map((a) => a.agent);
  const tag = `${runs[0].config.name}: ${runs.length} seed${runs.length > 1 ? 's' : ''} (${runs.map((r) => r.config.seed).join(', ')})${runs.length > 1 ? '; line = mean, band = min-max over seeds' : ''}; ${runs[0].config.eval.problems} held-out problems`;
  const evalSeries = (
    f: (e: ExperimentResult['evals'][number]) => number,
    m: string,
  ): Map<number, number | null>[] =>
    runs.map((r) => new Map(r.evals.filter((e) => e.method === m).map((e) => [e.step, f(e)])));
  const stepSeries = (m: string, f: (a: AgentStepRecord) => number | null): Map<number, number | null>[] =>
    runs.map((r) => {
      const st = r.steps.filter((s) => s.method === m);
      const ys = smooth(
        st.map((s) => meanOf(s.agents.map(f))),
        w,
      );
      return new Map(st.map((s, i) => [s.step, ys[i]]));
    });
  const charts = [
    {
      file: `${o.out}-accuracy.png`,
      spec: {
        title: 'Held-out greedy accuracy, mean of the agents',
        subtitle: tag,
        xLabel: 'training step',
        yLabel: 'accuracy',
        series: methods.map((m) =>
          aggregate(
            methodTitle(m),
            COLORS[m],
            evalSeries((e) => e.meanGreedyAccuracy, m),
          ),
        ),
      },
    },
    {
      file: `${o.out}-agents.png`,
      spec: {
        title: `Held-out greedy accuracy per agent (solid ${agents[0]}, dashed ${agents.slice(1).join(', ')})`,
        subtitle: `${tag.split(';')[0]}; mean over seeds`,
        xLabel: 'training step',
        yLabel: 'accuracy',
        series: methods.flatMap((m) =>
          agents.map((id, n) => ({
            ...aggregate(
              `${methodTitle(m)} ${id}`,
              COLORS[m],
              evalSeries((e) => e.agents[n].greedyAccuracy, m),
              n > 0,
            ),
            band: undefined,
          })),
        ),
      },
    },
    {
      file: `${o.out}-ensemble.png`,
      spec: {
        title: `Cohort ensemble: majority over ${runs[0].config.eval.ensembleSamples} samples per agent (T=${runs[0].config.eval.temperature})`,
        subtitle: tag,
        xLabel: 'training step',
        yLabel: 'accuracy',
        series: methods.map((m) =>
          aggregate(
            methodTitle(m),
            COLORS[m],
            evalSeries((e) => e.ensembleAccuracy, m),
          ),
        ),
      },
    },
    {
      file: `${o.out}-reward-std.png`,
      spec: {
        title: 'Within-group reward std / its step-1 value (paper Fig. 4b)',
        subtitle: `mean of agents, trailing ${w}-step average; ${tag}`,
        xLabel: 'training step',
        yLabel: 'normalised reward std',
        hLine: 1,
        series: methods
          .filter((m) => m !== 'random')
          .map((m) =>
            aggregate(
              methodTitle(m),
              COLORS[m],
              stepSeries(m, (a) => a.rewardGroupStdNorm),
            ),
          ),
      },
    },
    {
      file: `${o.out}-pseudo-label.png`,
      // with N = 2 the labels co-rl trains each agent on are the other agent's votes, so their mean over
      // agents equals the mean of the own votes plotted here
      spec: {
        title: "Pseudo-label accuracy of the agents' own votes on training prompts",
        subtitle: `mean of agents, trailing ${w}-step average; ${tag}`,
        xLabel: 'training step',
        yLabel: 'accuracy of labeled prompts',
        series: methods.map((m) =>
          aggregate(
            methodTitle(m),
            COLORS[m],
            stepSeries(m, (a) => a.pseudoLabelAccuracy),
          ),
        ),
      },
    },
  ];
  await svgsToPngs(charts.map((c) => ({ file: c.file, svg: lineChartSvg(c.spec) })));
  for (const c of charts) process.stdout.write(`wrote ${c.file}\n`);
  process.stdout.write(`\n${formatSeedTables(runs)}`);
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
