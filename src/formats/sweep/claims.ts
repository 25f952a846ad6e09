// The paper's seven claims (docs/method.md; issue 14) checked on a sweep's cohorts, each with the figure it
// rests on and "holds", "does not hold" or "not tested" (with why: e.g. no same-family cohort in the
// sweep). A cohort's figure is the mean over its seeds; gains are held-out greedy accuracy, final - base.
import type { GroupEntry, Stats } from './groups';

export type ClaimStatus = 'holds' | 'does not hold' | 'not tested';

export interface Claim {
  n: number;
  claim: string;
  status: ClaimStatus;
  /** The figure the verdict rests on, in words and numbers. */
  figure: string;
  /** The PNG (in DIR) that shows it, if any. */
  png: string | null;
}

/** The label-free baselines co-rl is compared with (gt reads the ground truth). */
export const LABEL_FREE = ['ttrl', 'intuitor', 'rent', 'random'];

const pts = (x: number): string => `${x >= 0 ? '+' : ''}${(100 * x).toFixed(1)}`;
const pct = (x: number): string => (100 * x).toFixed(1);
const mean = (s: Stats | null | undefined): number | null => (s ? s.mean : null);

/** Ranks 1..n, ties sharing their mean rank. */
function ranks(xs: readonly number[]): number[] {
  const order = xs.map((x, i) => [x, i] as const).sort((a, b) => a[0] - b[0]);
  const r = new Array<number>(xs.length);
  for (let i = 0; i < order.length; ) {
    let j = i;
    while (j + 1 < order.length && order[j + 1][0] === order[i][0]) j++;
    for (let k = i; k <= j; k++) r[order[k][1]] = (i + j) / 2 + 1;
    i = j + 1;
  }
  return r;
}

/** Spearman's rank correlation (Pearson on tie-averaged ranks); null when n < 2 or a side is constant. */
export function spearman(x: readonly number[], y: readonly number[]): number | null {
  if (x.length !== y.length || x.length < 2) return null;
  const rx = ranks(x);
  const ry = ranks(y);
  const m = (x.length + 1) / 2;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < x.length; i++) {
    sxy += (rx[i] - m) * (ry[i] - m);
    sxx += (rx[i] - m) ** 2;
    syy += (ry[i] - m) ** 2;
  }
  return sxx > 0 && syy > 0 ? sxy / Math.sqrt(sxx * syy) : null;
}

const verdict = (ok: boolean): ClaimStatus => (ok ? 'holds' : 'does not hold');
const notTested = (n: number, claim: string, why: string, png: string | null = null): Claim => ({
  n,
  claim,
  status: 'not tested',
  figure: why,
  png,
});

/** "on k of M cohorts" with each cohort's figure. */
function perCohort(
  n: number,
  claim: string,
  rows: { label: string; ok: boolean; text: string }[],
  png: string | null,
  none: string,
): Claim {
  if (!rows.length) return notTested(n, claim, none, png);
  const k = rows.filter((r) => r.ok).length;
  return {
    n,
    claim,
    status: verdict(k === rows.length),
    figure: `on ${k} of ${rows.length} cohorts: ${rows.map((r) => `${r.label} ${r.text}`).join('; ')}`,
    png,
  };
}

function claim3(groups: GroupEntry[]): Claim {
  const text = 'different family beats same family (mean Co-RL gain)';
  const gain = (g: GroupEntry): number | null => mean(g.methods['co-rl']?.gain);
  const same = groups.filter((g) => g.sameFamily && gain(g) !== null);
  const diff = groups.filter((g) => !g.sameFamily && gain(g) !== null);
  if (!same.length || !diff.length)
    return notTested(
      3,
      text,
      `needs Co-RL on both kinds of cohort; the sweep has ${same.length} same-family and ${diff.length} different-family cohorts with Co-RL`,
      'gains.png',
    );
  const avg = (gs: GroupEntry[]): number => gs.reduce((a, g) => a + gain(g)!, 0) / gs.length;
  const d = avg(diff);
  const s = avg(same);
  return {
    n: 3,
    claim: text,
    status: verdict(d > s),
    figure: `different family ${pts(d)} points (${diff.length} cohorts: ${diff.map((g) => g.label).join(', ')}) vs same family ${pts(s)} points (${same.length}: ${same.map((g) => g.label).join(', ')})`,
    png: 'gains.png',
  };
}

function claim4(groups: GroupEntry[]): Claim {
  const text = 'gains are ordered by kappa: lower base kappa, larger Co-RL gain (Spearman rho < 0)';
  const rows = groups.filter((g) => g.overlap && mean(g.methods['co-rl']?.gain) !== null);
  const rho = spearman(
    rows.map((g) => g.overlap!.kappa),
    rows.map((g) => mean(g.methods['co-rl']?.gain)!),
  );
  const both = rows.filter((g) => mean(g.methods.ttrl?.gain) !== null);
  const rho2 = spearman(
    both.map((g) => g.overlap!.kappa),
    both.map((g) => mean(g.methods['co-rl']?.gain)! - mean(g.methods.ttrl?.gain)!),
  );
  const extra =
    rho2 === null
      ? ''
      : `; Co-RL minus TTRL gain vs kappa: rho ${rho2.toFixed(2)} over ${both.length} cohorts`;
  if (rows.length < 3 || rho === null)
    return notTested(
      4,
      text,
      `needs at least 3 cohorts with Co-RL whose kappa and gain vary; the sweep has ${rows.length}${rho === null && rows.length >= 3 ? ' (a constant kappa or gain)' : ''}${extra}`,
      'kappa.png',
    );
  return {
    n: 4,
    claim: text,
    status: verdict(rho < 0),
    figure: `Spearman rho ${rho.toFixed(2)} over ${rows.length} cohorts (kappa ${rows.map((g) => `${g.label} ${g.overlap!.kappa.toFixed(2)}: ${pts(mean(g.methods['co-rl']!.gain)!)}`).join(', ')})${extra}`,
    png: 'kappa.png',
  };
}

/** Check the seven claims on the sweep's cohorts. */
export function checkClaims(groups: GroupEntry[]): Claim[] {
  const withCo = groups.filter((g) => g.methods['co-rl']?.gain);
  const c1 = perCohort(
    1,
    'Co-RL beats the base agents (mean greedy held-out accuracy rises)',
    withCo.map((g) => {
      const s = g.methods['co-rl'].gain!;
      return {
        label: g.label,
        ok: s.mean > 0,
        text: `${pts(s.mean)} (sd ${pts(s.sd).replace('+', '')}, ${s.n} seeds)`,
      };
    }),
    'gains.png',
    'no cohort ran co-rl',
  );
  const rows2 = withCo.flatMap((g) =>
    LABEL_FREE.filter((m) => g.methods[m]?.final).map((m) => {
      const d = g.methods['co-rl'].final!.mean - g.methods[m].final!.mean;
      return { label: `${g.label} vs ${m}`, ok: d > 0, text: pts(d) };
    }),
  );
  const c2 = rows2.length
    ? {
        n: 2,
        claim: 'Co-RL beats every label-free baseline run (final accuracy, co-rl minus baseline)',
        status: verdict(rows2.every((r) => r.ok)),
        figure: `${rows2.filter((r) => r.ok).length} of ${rows2.length} comparisons: ${rows2.map((r) => `${r.label} ${r.text}`).join('; ')}`,
        png: 'gains.png',
      }
    : notTested(
        2,
        'Co-RL beats every label-free baseline run',
        'no cohort ran co-rl beside a label-free baseline (ttrl, intuitor, rent, random)',
        'gains.png',
      );
  const rings = withCo.filter((g) => g.agents.length >= 3);
  const c5 = perCohort(
    5,
    'every agent of a 3-agent ring gains under Co-RL',
    rings.map((g) => {
      // every agent of the ring, not just those with a recorded gain (an empty record is no evidence)
      const a = g.methods['co-rl'].agentGain;
      const gains = g.agents.map((x) => [x.id, a[x.id] ?? null] as const);
      return {
        label: g.label,
        ok: gains.every(([, s]) => s !== null && s.mean > 0),
        text: gains.map(([id, s]) => `${id} ${s ? pts(s.mean) : '–'}`).join(', '),
      };
    }),
    'gains.png',
    'no cohort of 3 or more agents ran co-rl',
  );
  const c6 = perCohort(
    6,
    'the Co-RL ensemble beats the TTRL ensemble at matched budget (final pooled maj)',
    groups
      .filter((g) => g.ensembles['co-rl'] && g.ensembles.ttrl)
      .map((g) => {
        const c = g.ensembles['co-rl']!.mean;
        const t = g.ensembles.ttrl!.mean;
        return {
          label: g.label,
          ok: c > t,
          text: `${pct(c)} vs ${pct(t)} (base ${g.ensembles.base ? pct(g.ensembles.base.mean) : '–'})`,
        };
      }),
    'ensembles.png',
    'no cohort ran both co-rl and ttrl',
  );
  const c7 = perCohort(
    7,
    "TTRL's normalised within-group reward std ends below Co-RL's",
    groups
      .filter((g) => g.methods['co-rl']?.rewardStdEnd && g.methods.ttrl?.rewardStdEnd)
      .map((g) => {
        const t = g.methods.ttrl.rewardStdEnd!.mean;
        const c = g.methods['co-rl'].rewardStdEnd!.mean;
        return { label: g.label, ok: t < c, text: `${t.toFixed(2)} vs ${c.toFixed(2)}` };
      }),
    'reward-std.png',
    'no cohort ran both co-rl and ttrl',
  );
  return [c1, c2, claim3(groups), claim4(groups), c5, c6, c7];
}
