// Text rendering of an experiment's summary for the terminal and docs/natural-rl-history.md (markdown tables).
import type { ExperimentResult } from '../rl/experiment';
import { methodTitle } from '../rl/rewards';
import type { AccuracyCurveSummary } from '../rl/summary';

const pct = (x: number | null | undefined): string =>
  x === null || x === undefined || !Number.isFinite(x) ? '–' : (100 * x).toFixed(1);
const num = (x: number | null | undefined, d = 2): string =>
  x === null || x === undefined || !Number.isFinite(x) ? '–' : x.toFixed(d);
const acc = (c: AccuracyCurveSummary): string =>
  `${pct(c.base)} → ${pct(c.final)} (peak ${pct(c.peak)} @${c.peakStep})`;

/** A markdown table of a run's summary: one row per (method, agent) plus the mean and the ensemble. */
export function formatSummary(r: ExperimentResult): string {
  const lines = [
    `\n${r.config.name}: seed ${r.config.seed}, ${r.completedSteps} steps, ${r.seconds.toFixed(0)} s on ${r.backend}`,
    '',
    '| method | agent | greedy acc % base → final (peak @step) | pseudo-label acc % start → end | trained-label acc % start → end | reward std (norm.) end | zero-std end | KL end | s/step |',
    '|---|---|---|---|---|---|---|---|---|',
  ];
  for (const m of r.summary) {
    for (const a of m.agents) {
      lines.push(
        `| ${m.method} | ${a.agent} | ${acc(a.greedy)} | ${pct(a.pseudoLabelStart)} → ${pct(a.pseudoLabelEnd)} | ${pct(a.trainedLabelStart)} → ${pct(a.trainedLabelEnd)} | ${num(a.rewardGroupStdNormEnd)} | ${num(a.zeroStdFractionEnd)} | ${num(a.klEnd, 3)} | ${num(m.secondsPerStep)} |`,
      );
    }
    lines.push(`| ${m.method} | mean | ${acc(m.meanGreedy)} | | | | | | |`);
    lines.push(`| ${m.method} | ensemble maj | ${acc(m.ensemble)} | | | | | | |`);
  }
  return `${lines.join('\n')}\n`;
}

const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;

/** The votes the runs' ensembles pool, E samples per agent x N agents (maj@8 for a pair at E = 4); one budget for all runs. */
function pooledVotes(runs: ExperimentResult[], sums: ExperimentResult['summary']): number {
  const votes = runs.map((r, i) => r.config.eval.ensembleSamples * sums[i].agents.length);
  if (new Set(votes).size > 1)
    throw new Error(
      `the runs pooled different ensemble budgets (${runs.map((r, i) => `seed ${r.config.seed}: maj@${votes[i]}`).join(', ')}); tabulate runs of one config together`,
    );
  return votes[0];
}

/**
 * Markdown tables over several runs of one config (e.g. seeds): accuracy per method and agent (base,
 * final and peak per run, mean final and its change), training dynamics per run, and the paper-demo
 * criteria checked run by run (co-rl vs ttrl).
 */
export function formatSeedTables(runs: ExperimentResult[]): string {
  const seeds = runs.map((r) => r.config.seed);
  const methods = runs[0].config.methods;
  const out: string[] = [];
  out.push(
    `Runs: seeds ${seeds.join(', ')}; ${runs.map((r) => `${r.completedSteps} steps in ${r.seconds.toFixed(0)} s`).join('; ')} (${runs[0].backend}).`,
    '',
  );
  out.push(
    `| method | agent | base | final (seed ${seeds.join(' / ')}) | mean final | mean change | peak @step (seed ${seeds.join(' / ')}) |`,
    '|---|---|---|---|---|---|---|',
  );
  for (const m of methods) {
    const sums = runs.map((r) => r.summary.find((s) => s.method === m)!);
    const votes = pooledVotes(runs, sums);
    const rows = [
      ...sums[0].agents.map((a, n) => ({ label: a.agent, get: (i: number) => sums[i].agents[n].greedy })),
      { label: 'mean of agents', get: (i: number) => sums[i].meanGreedy },
      { label: `ensemble maj@${votes}`, get: (i: number) => sums[i].ensemble },
    ];
    for (const row of rows) {
      const c = runs.map((_, i) => row.get(i));
      const base = mean(c.map((x) => x.base));
      const fin = mean(c.map((x) => x.final));
      out.push(
        `| ${methodTitle(m)} | ${row.label} | ${pct(base)} | ${c.map((x) => pct(x.final)).join(' / ')} | ${pct(fin)} | ${fin - base >= 0 ? '+' : ''}${(100 * (fin - base)).toFixed(1)} | ${c.map((x) => `${pct(x.peak)} @${x.peakStep}`).join(' / ')} |`,
      );
    }
  }
  out.push(
    '',
    `| method | agent | pseudo-label acc % start → end (seed ${seeds.join(' / ')}) | trained-on label acc % start → end | reward std / step-1 value, end | zero-std share, end |`,
    '|---|---|---|---|---|---|',
  );
  for (const m of methods) {
    const sums = runs.map((r) => r.summary.find((s) => s.method === m)!);
    sums[0].agents.forEach((a, n) => {
      const per = sums.map((s) => s.agents[n]);
      out.push(
        `| ${methodTitle(m)} | ${a.agent} | ${per.map((x) => `${pct(x.pseudoLabelStart)} → ${pct(x.pseudoLabelEnd)}`).join(' / ')} | ${per.map((x) => `${pct(x.trainedLabelStart)} → ${pct(x.trainedLabelEnd)}`).join(' / ')} | ${per.map((x) => num(x.rewardGroupStdNormEnd)).join(' / ')} | ${per.map((x) => num(x.zeroStdFractionEnd)).join(' / ')} |`,
      );
    });
  }
  if (methods.includes('co-rl') && methods.includes('ttrl')) {
    out.push(
      '',
      '| criterion | ' + seeds.map((s) => `seed ${s}`).join(' | ') + ' |',
      '|---|' + seeds.map(() => '---|').join(''),
    );
    const get = (r: ExperimentResult, m: string) => r.summary.find((s) => s.method === m)!;
    const mark = (ok: boolean, text: string): string => `${ok ? 'yes' : '**no**'}: ${text}`;
    out.push(
      "| co-rl raises every agent's greedy accuracy by >= 10 points | " +
        runs
          .map((r) => {
            const d = get(r, 'co-rl').agents.map((a) => a.greedy.final - a.greedy.base);
            return mark(
              d.every((x) => x >= 0.1),
              d.map((x) => `${x >= 0 ? '+' : ''}${(100 * x).toFixed(1)}`).join(', '),
            );
          })
          .join(' | ') +
        ' |',
    );
    out.push(
      "| co-rl final mean accuracy > ttrl's | " +
        runs
          .map((r) => {
            const c = get(r, 'co-rl').meanGreedy.final;
            const t = get(r, 'ttrl').meanGreedy.final;
            return mark(c > t, `${pct(c)} vs ${pct(t)}`);
          })
          .join(' | ') +
        ' |',
    );
    out.push(
      '| co-rl pseudo-label accuracy rises (end > start, every agent) | ' +
        runs
          .map((r) => {
            const a = get(r, 'co-rl').agents;
            return mark(
              a.every((x) => (x.pseudoLabelEnd ?? 0) > (x.pseudoLabelStart ?? 1)),
              a.map((x) => `${pct(x.pseudoLabelStart)} → ${pct(x.pseudoLabelEnd)}`).join(', '),
            );
          })
          .join(' | ') +
        ' |',
    );
    out.push(
      "| ttrl normalised reward std ends below co-rl's (mean of agents) | " +
        runs
          .map((r) => {
            const f = (m: string) => mean(get(r, m).agents.map((x) => x.rewardGroupStdNormEnd ?? NaN));
            return mark(f('ttrl') < f('co-rl'), `${num(f('ttrl'))} vs ${num(f('co-rl'))}`);
          })
          .join(' | ') +
        ' |',
    );
  }
  return `${out.join('\n')}\n`;
}
