// The teaching links: embed mode (`?embed=1&show=heldout,agreement&run=1`) and the guided tour (`#tour`,
// `#tour?step=3`). Pure parsers: every unknown or unreadable parameter is listed with the reason and its
// default kept, never thrown (the same rule as the run-settings link, docs/run-file.md).
import { PANEL_NAMES, type PanelName } from './panels';

/** The panels an embed link without a usable `show` draws. */
export const DEFAULT_SHOW: readonly PanelName[] = ['heldout'];

export interface UrlProblem {
  key: string;
  value: string;
  reason: string;
}

export interface EmbedOptions {
  /** Embed mode is on (`embed=1`). */
  on: boolean;
  /** Panels shown, in the link's order. */
  show: PanelName[];
  /** Start the run at once (`run=1`), for a slide with no controls shown. */
  run: boolean;
  problems: UrlProblem[];
}

const flag = (key: string, v: string, problems: UrlProblem[]): boolean => {
  const l = v.trim().toLowerCase();
  if (l === '1' || l === 'true') return true;
  if (l !== '0' && l !== 'false')
    problems.push({ key, value: v, reason: 'must be 1, 0, true or false; kept off' });
  return false;
};

/** Embed options of a query string. `show` names unknown panels → listed, the others kept; none left → DEFAULT_SHOW. */
export function parseEmbed(search: string): EmbedOptions {
  const q = new URLSearchParams(search);
  const problems: UrlProblem[] = [];
  const on = q.has('embed') && flag('embed', q.get('embed')!, problems);
  const out: EmbedOptions = { on, show: [...DEFAULT_SHOW], run: false, problems };
  if (!on) {
    for (const k of ['show', 'run'])
      if (q.has(k)) problems.push({ key: k, value: q.get(k)!, reason: 'only read with embed=1' });
    return out;
  }
  if (q.has('run')) out.run = flag('run', q.get('run')!, problems);
  if (q.has('show')) {
    const raw = q.get('show')!;
    const names = raw
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const known = names.filter((n): n is PanelName => (PANEL_NAMES as string[]).includes(n));
    for (const n of names)
      if (!(PANEL_NAMES as string[]).includes(n))
        problems.push({ key: 'show', value: n, reason: `unknown panel (panels: ${PANEL_NAMES.join(', ')})` });
    if (known.length) out.show = [...new Set(known)];
    else
      problems.push({
        key: 'show',
        value: raw,
        reason: `no known panel named; showing ${DEFAULT_SHOW.join(', ')}`,
      });
  }
  return out;
}

export interface TourOptions {
  on: boolean;
  /** 0-based step to open at. */
  step: number;
  problems: UrlProblem[];
}

/** The tour a hash asks for: `#tour` (step 1) or `#tour?step=N` (1-based, 1..steps). */
export function parseTour(hash: string, steps: number): TourOptions {
  const h = hash.replace(/^#\/?/, '');
  const m = /^tour(?:[?&](.*))?$/.exec(h);
  const out: TourOptions = { on: !!m, step: 0, problems: [] };
  if (!m) return out;
  for (const [k, v] of new URLSearchParams(m[1] ?? '')) {
    if (k !== 'step') {
      out.problems.push({
        key: k,
        value: v,
        reason: 'unknown tour parameter (the tour takes step=1..' + steps + ')',
      });
      continue;
    }
    const n = Number(v);
    if (Number.isInteger(n) && n >= 1 && n <= steps) out.step = n - 1;
    else
      out.problems.push({
        key: 'step',
        value: v,
        reason: `must be a whole number from 1 to ${steps}; starting at step 1`,
      });
  }
  return out;
}

/** The hash of tour step `i` (0-based). */
export const tourHash = (i: number): string => (i === 0 ? '#tour' : `#tour?step=${i + 1}`);
