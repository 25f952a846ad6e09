// The sweep report as markdown (DIR/report.md): the claims checklist first (with a registered sweep's
// verdicts: reportMdRegistered.ts), then per cohort the base overlap, each method's gain over seeds and
// the matched-budget ensembles, then every cell.
import { methodTitle } from '../rl/rewards';
import type { Stats } from '../formats/sweep/groups';
import type { SweepReport } from '../formats/sweep/report';
import { registeredMarkdown } from './reportMdRegistered';

const pct = (x: number | null | undefined): string =>
  x === null || x === undefined || !Number.isFinite(x) ? '–' : (100 * x).toFixed(1);
const pts = (x: number): string => `${x >= 0 ? '+' : ''}${(100 * x).toFixed(1)}`;
/** "mean ± sd [min, max]" in accuracy points. */
const gainText = (s: Stats | null | undefined): string =>
  s ? `${pts(s.mean)} ± ${(100 * s.sd).toFixed(1)} [${pts(s.min)}, ${pts(s.max)}]` : '–';
const accText = (s: Stats | null | undefined): string =>
  s ? `${pct(s.mean)} ± ${(100 * s.sd).toFixed(1)}` : '–';
const num = (s: Stats | null | undefined): string => (s ? `${s.mean.toFixed(2)} ± ${s.sd.toFixed(2)}` : '–');

/** The whole report. */
export function reportMarkdown(r: SweepReport, pngs: string[]): string {
  const out: string[] = [];
  out.push(`# Sweep ${r.sweep.name}`, '');
  out.push(
    `Sweep ${r.sweep.hash}: ${r.sweep.cells} cells over ${r.sweep.axes.join(', ') || 'no axes'}; ${r.counts.done} done, ${r.counts.failed} failed, ${r.counts.missing} missing. Accuracies are held-out greedy accuracy (%), mean of the agents; a gain is final minus base in points, mean ± sd [min, max] over seeds.`,
    '',
  );
  out.push("## The paper's claims", '', '| # | claim | verdict | figure |', '|---|---|---|---|');
  for (const c of r.claims)
    out.push(
      `| ${c.n} | ${c.claim} | **${c.status}** | ${c.figure.replace(/\|/g, '/')}${c.png && pngs.includes(c.png) ? ` ([${c.png}](${c.png}))` : ''} |`,
    );
  out.push('', ...registeredMarkdown(r));
  const methods = [...new Set(r.groups.flatMap((g) => Object.keys(g.methods)))];
  out.push(
    '## Cohorts',
    '',
    `| # | cohort | agents | seeds | base kappa | c | u | w | ${methods.map((m) => `${methodTitle(m)} gain`).join(' | ')} |`,
    `|---|---|---|---|---|---|---|---|${methods.map(() => '---|').join('')}`,
  );
  for (const g of r.groups) {
    const o = g.overlap;
    out.push(
      `| ${g.index + 1} | ${g.label} | ${g.agents.map((a) => `${a.id} ${a.family}.${a.size}.s${a.seed}`).join(', ')}${g.sameFamily ? ' (same family)' : ''} | ${g.seeds.join(', ')} | ${o ? o.kappa.toFixed(2) : '–'} | ${o ? o.c.toFixed(2) : '–'} | ${o ? o.u.toFixed(2) : '–'} | ${o ? o.w.toFixed(2) : '–'} | ${methods.map((m) => gainText(g.methods[m]?.gain)).join(' | ')} |`,
    );
  }
  out.push(
    '',
    '### Final accuracy, trained-on label accuracy and reward std per method',
    '',
    '| cohort | method | final acc % | gain (points) | per-agent gain | trained-on label acc % (end) | reward std / step 1 (end) |',
    '|---|---|---|---|---|---|---|',
  );
  for (const g of r.groups) {
    for (const [m, s] of Object.entries(g.methods)) {
      out.push(
        `| ${g.label} | ${methodTitle(m)} | ${accText(s.final)} | ${gainText(s.gain)} | ${Object.entries(
          s.agentGain,
        )
          .map(([a, x]) => `${a} ${x ? pts(x.mean) : '–'}`)
          .join(', ')} | ${accText(s.trainedLabelEnd)} | ${num(s.rewardStdEnd)} |`,
      );
    }
  }
  out.push(
    '',
    '### Matched-budget ensembles (pooled majority of the same number of samples per agent)',
    '',
    '| cohort | base pair | TTRL pair (final) | Co-RL pair (final) |',
    '|---|---|---|---|',
  );
  for (const g of r.groups)
    out.push(
      `| ${g.label} | ${accText(g.ensembles.base)} | ${accText(g.ensembles.ttrl)} | ${accText(g.ensembles['co-rl'])} |`,
    );
  out.push(
    '',
    '## Cells',
    '',
    '| cell | id | status | settings | steps | per method: base → final (gain) | metrics hash |',
    '|---|---|---|---|---|---|---|',
  );
  for (const c of r.cells) {
    const ms = Object.entries(c.methods)
      .map(([m, x]) => `${methodTitle(m)} ${pct(x.base)} → ${pct(x.final)} (${pts(x.gain)})`)
      .join('; ');
    out.push(
      `| ${c.index} | ${c.id} | ${c.status}${c.error ? `: ${c.error.replace(/\|/g, '/').slice(0, 200)}` : ''} | ${c.label} | ${c.completedSteps ?? '–'} | ${ms || '–'} | ${c.metricsHash ?? '–'} |`,
    );
  }
  if (pngs.length) out.push('', '## Figures', '', ...pngs.map((p) => `![${p}](${p})`));
  return `${out.join('\n')}\n`;
}
