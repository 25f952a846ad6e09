// The regime check as markdown (docs/method.md, "The regime"): an agent table and a pair table, every
// figure with its 95% interval and problem count, then gates A1-A5 and the sentence.
import type { Estimate } from './stats';
import type { RegimeReport } from './measure';

const f3 = (x: number): string => (Number.isNaN(x) ? 'n/a' : x.toFixed(3));

/** "0.512 [0.463, 0.561]" (interval omitted when not defined). */
export function showEstimate(e: Estimate | null): string {
  if (!e) return 'not measurable';
  if (Number.isNaN(e.lo)) return f3(e.value);
  return `${f3(e.value)} [${f3(e.lo)}, ${f3(e.hi)}]`;
}

/** The report as markdown. */
export function formatRegimeReport(name: string, r: RegimeReport): string {
  const f = r.figures;
  const lines = [
    `### ${name}`,
    '',
    `${r.split} split, ${r.first ? `problems ${r.first}-${r.first + r.problems - 1} (${r.problems})` : `${r.problems} problems`}; rollout K = ${r.K} at T = ${r.temperature}; spread from S = ${r.spreadSamples} samples; seed-only pair at T = ${r.seedOnlyTemperature}; seed ${r.seed}. Intervals are 95%.`,
    '',
    '| agent | greedy | sampled | maj@K | maj@K - greedy | pass@K | spread | vote AUROC | zero-std groups | vote = greedy | seed-only kappa |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
    ...f.agents.map(
      (a) =>
        `| ${a.id} | ${[a.greedy, a.sampled, a.majK, a.majMinusGreedy, a.passK, a.spread, a.voteAuroc, a.zeroStd, a.voteIsGreedy, a.seedOnlyKappa].map(showEstimate).join(' | ')} |`,
    ),
  ];
  if (f.pairs.length) {
    lines.push(
      '',
      '| learner <- peer | reach (A3) | qualifying problems | zero-std groups (peer reward) | kappa greedy | c greedy | kappa T=0.8 | c T=0.8 |',
      '|---|---|---|---|---|---|---|---|',
      ...f.pairs.map(
        (p) =>
          `| ${p.learner} <- ${p.peer} | ${showEstimate(p.reach)}${p.reachMeasurable ? '' : ' (not measurable)'} | ${p.reachProblems} | ${showEstimate(p.peerZeroStd)} | ${f3(p.kappaGreedy)} | ${f3(p.cGreedy)} | ${f3(p.kappaSampled)} | ${f3(p.cSampled)} |`,
      ),
    );
  }
  lines.push(
    '',
    '| gate | what | result | measured |',
    '|---|---|---|---|',
    ...r.verdict.gates.map((g) => `| ${g.id} | ${g.what} | ${g.status} | ${g.detail} |`),
    '',
    r.verdict.sentence,
  );
  return lines.join('\n');
}

/** One row per cohort: each gate's result and whether the cohort is in regime. */
export function formatRegimeSummary(reports: readonly { name: string; report: RegimeReport }[]): string {
  const mark = (s: string): string => (s === 'pass' ? 'pass' : s === 'fail' ? '**fail**' : 'n/m');
  return [
    '| cohort | problems | K | T | A1 | A2 | A3 | A4 | A5 | in regime |',
    '|---|---|---|---|---|---|---|---|---|---|',
    ...reports.map(
      ({ name, report: r }) =>
        `| ${name} | ${r.problems} | ${r.K} | ${r.temperature} | ${r.verdict.gates.map((g) => mark(g.status)).join(' | ')} | ${r.verdict.inRegime ? 'yes' : 'no'} |`,
    ),
  ].join('\n');
}
