// The registered part of report.md (docs/sweeps.md, "Registered sweeps"): the pre-registration the
// cells ran under, then per preset the verdict with Co-RL's gain, GT's, Co-RL minus co-rl-frozen and
// the reason, and every method's base, final and gain with their 95% t-intervals over base seeds.
import type { SweepReport } from '../formats/sweep/report';
import { intervalText, type Interval } from '../formats/sweep/verdict';

const pct = (i: Interval | undefined): string =>
  i
    ? `${(100 * i.mean).toFixed(1)}${i.lo === null ? '' : ` [${(100 * i.lo).toFixed(1)}, ${(100 * i.hi!).toFixed(1)}]`}`
    : '–';
const cell = (s: string): string => s.replace(/\|/g, '/');

/** The markdown lines of the pre-registration and the verdicts (none when the sweep has neither). */
export function registeredMarkdown(r: Pick<SweepReport, 'prereg' | 'registered'>): string[] {
  const out: string[] = [];
  const p = r.prereg;
  if (p) {
    out.push(
      p.cells
        ? `Pre-registration: \`${p.path}\` at commit \`${p.commit}\` (blob \`${p.blob}\`), cited by ${p.cells} done cell${p.cells === 1 ? '' : 's'}.`
        : `Pre-registration: \`${p.path}\`; no done cell cites it yet.`,
    );
    if (p.others.length)
      out.push(
        '',
        `**${p.others.length} cell${p.others.length === 1 ? '' : 's'} did not run under it**: ${p.others.map((o) => `cell ${o.index} (${o.commit ? `commit ${o.commit.slice(0, 12)}, blob ${o.blob!.slice(0, 12)}` : 'no stamp'})`).join(', ')}.`,
      );
    out.push('');
  }
  const g = r.registered;
  if (!g) return out;
  out.push(
    '### Registered verdicts',
    '',
    `Primary endpoint: ${g.endpoint} accuracy (mean of the agents), secondary ${g.secondary}. Gains in points with 95% t-intervals over base-seed means (RL seeds averaged within a base seed first).`,
    '',
    '| preset | gates | verdict | Co-RL gain | GT gain | Co-RL minus co-rl-frozen | base seeds (RL seeds) | secondary: Co-RL gain | why | notes |',
    '|---|---|---|---|---|---|---|---|---|---|',
  );
  for (const v of g.verdicts) {
    const co = v.methods['co-rl'];
    out.push(
      `| ${cell(v.preset)} | ${v.gate ? `${v.gate.pass ? 'pass' : 'fail'}${v.gate.note ? `: ${cell(v.gate.note)}` : ''}` : '–'} | **${v.verdict}**${v.ifGatesPassed ? ` (with passed gates the rule would say ${v.ifGatesPassed.verdict}; not evidence)` : ''} | ${intervalText(co?.gain)} | ${intervalText(v.methods.gt?.gain)} | ${intervalText(v.coRlMinusFrozen)} | ${
        co
          ? Object.entries(co.seeds)
              .map(([s, n]) => `${s} (${n})`)
              .join(', ')
          : '–'
      } | ${intervalText(v.secondary.methods['co-rl']?.gain)} | ${cell(v.why)} | ${cell(v.notes.join('; ')) || '–'} |`,
    );
  }
  out.push(
    '',
    `| preset | method | base % (${g.endpoint}) | final % | gain (points) | secondary (${g.secondary}) gain |`,
    '|---|---|---|---|---|---|',
  );
  for (const v of g.verdicts)
    for (const [m, f] of Object.entries(v.methods))
      out.push(
        `| ${cell(v.preset)} | ${m} | ${pct(f.base)} | ${pct(f.final)} | ${intervalText(f.gain)} | ${intervalText(v.secondary.methods[m]?.gain)} |`,
      );
  if (g.problems.length) out.push('', ...g.problems.map((x) => `- ${x}`));
  out.push('');
  return out;
}
