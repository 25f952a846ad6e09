// The checks of a run file's optional `regime` field (a RegimeReport of src/rl/regime/measure.ts, the base
// agents' regime check at step 0: docs/run-file.md, docs/method.md "The regime"), collecting named problems
// for validateRunFile in ./runFile.ts; and the reading back of NaN figures, which JSON writes as null.
import type { GateStatus } from '../rl/regime/gates';
import type { RegimeReport } from '../rl/regime/measure';
import { isObject, type Problems, shown } from './runFileChecks';

const AGENT_ESTIMATES = [
  'greedy',
  'sampled',
  'majK',
  'majMinusGreedy',
  'passK',
  'spread',
  'voteAuroc',
  'zeroStd',
  'voteIsGreedy',
  'seedOnlyKappa',
] as const;
const PAIR_NUMBERS = ['kappaGreedy', 'cGreedy', 'kappaSampled', 'cSampled'] as const;
const GATE_IDS = ['A1', 'A2', 'A3', 'A4', 'A5'] as const;
const STATUSES: readonly GateStatus[] = ['pass', 'fail', 'not measurable'];

/** A number, or null (a NaN written as JSON: a figure with no data, e.g. an interval of one problem). */
const numOrNull = (v: unknown): boolean =>
  v === null || (typeof v === 'number' && (Number.isFinite(v) || Number.isNaN(v)));
const posInt = (v: unknown, min = 0): boolean => typeof v === 'number' && Number.isInteger(v) && v >= min;

function checkEstimate(p: Problems, at: string, v: unknown): void {
  if (!isObject(v) || !numOrNull(v.value) || !numOrNull(v.lo) || !numOrNull(v.hi) || !posInt(v.n))
    p.add(`${at}: must be an estimate { value, lo, hi: number or null, n: integer >= 0 }, got ${shown(v)}`);
}

/** Check a run file's `regime` (any value), adding one problem per bad field under `at`. */
export function checkRegimeReport(p: Problems, at: string, r: unknown): void {
  const want =
    '(the regime check of the base agents at step 0, as the worker wrote it; remove the field to import the run without it)';
  if (!isObject(r)) return void p.add(`${at}: must be an object ${want}, got ${shown(r)}`);
  if (r.split !== 'validation' && r.split !== 'test')
    p.add(`${at}.split: must be 'validation' or 'test', got ${shown(r.split)}`);
  if (!posInt(r.problems, 1)) p.add(`${at}.problems: must be an integer >= 1, got ${shown(r.problems)}`);
  if (!posInt(r.K, 2)) p.add(`${at}.K: must be an integer >= 2, got ${shown(r.K)}`);
  if (!posInt(r.spreadSamples, 2))
    p.add(`${at}.spreadSamples: must be an integer >= 2, got ${shown(r.spreadSamples)}`);
  if (!posInt(r.seed)) p.add(`${at}.seed: must be an integer >= 0, got ${shown(r.seed)}`);
  for (const k of ['temperature', 'seedOnlyTemperature'] as const)
    if (!(typeof r[k] === 'number' && (r[k] as number) > 0))
      p.add(`${at}.${k}: must be a number > 0, got ${shown(r[k])}`);
  const f = r.figures;
  if (!isObject(f))
    p.add(`${at}.figures: must be an object { problems, K, S, agents, pairs } ${want}, got ${shown(f)}`);
  else {
    if (!Array.isArray(f.agents) || f.agents.length === 0)
      p.add(`${at}.figures.agents: must be a non-empty array of per-agent figures, got ${shown(f.agents)}`);
    else
      f.agents.forEach((a: unknown, i) => {
        const ai = `${at}.figures.agents[${i}]`;
        if (!isObject(a)) return void p.add(`${ai}: must be an object, got ${shown(a)}`);
        if (typeof a.id !== 'string' || !a.id)
          p.add(`${ai}.id: must be a non-empty string, got ${shown(a.id)}`);
        for (const k of AGENT_ESTIMATES) checkEstimate(p, `${ai}.${k}`, a[k]);
      });
    if (!Array.isArray(f.pairs))
      p.add(`${at}.figures.pairs: must be an array (empty for one agent), got ${shown(f.pairs)}`);
    else
      f.pairs.forEach((q: unknown, i) => {
        const pi = `${at}.figures.pairs[${i}]`;
        if (!isObject(q)) return void p.add(`${pi}: must be an object, got ${shown(q)}`);
        for (const k of ['learner', 'peer'] as const)
          if (typeof q[k] !== 'string') p.add(`${pi}.${k}: must be an agent id, got ${shown(q[k])}`);
        if (q.reach !== null) checkEstimate(p, `${pi}.reach`, q.reach);
        if (typeof q.reachMeasurable !== 'boolean')
          p.add(`${pi}.reachMeasurable: must be true or false, got ${shown(q.reachMeasurable)}`);
        if (!posInt(q.reachProblems))
          p.add(`${pi}.reachProblems: must be an integer >= 0, got ${shown(q.reachProblems)}`);
        checkEstimate(p, `${pi}.peerZeroStd`, q.peerZeroStd);
        for (const k of PAIR_NUMBERS)
          if (!numOrNull(q[k])) p.add(`${pi}.${k}: must be a number or null, got ${shown(q[k])}`);
      });
  }
  const v = r.verdict;
  if (!isObject(v))
    return void p.add(`${at}.verdict: must be an object { gates, inRegime, sentence }, got ${shown(v)}`);
  if (typeof v.sentence !== 'string')
    p.add(`${at}.verdict.sentence: must be a string, got ${shown(v.sentence)}`);
  if (typeof v.inRegime !== 'boolean')
    p.add(`${at}.verdict.inRegime: must be true or false, got ${shown(v.inRegime)}`);
  if (!Array.isArray(v.gates) || v.gates.length !== GATE_IDS.length)
    return void p.add(
      `${at}.verdict.gates: must list the five gates ${GATE_IDS.join(', ')}, got ${shown(v.gates)}`,
    );
  v.gates.forEach((g: unknown, i) => {
    const gi = `${at}.verdict.gates[${i}]`;
    if (!isObject(g))
      return void p.add(`${gi}: must be an object { id, what, status, detail }, got ${shown(g)}`);
    if (g.id !== GATE_IDS[i])
      p.add(`${gi}.id: must be '${GATE_IDS[i]}' (the gates in order), got ${shown(g.id)}`);
    if (!(STATUSES as readonly unknown[]).includes(g.status))
      p.add(`${gi}.status: must be one of ${STATUSES.join(', ')}, got ${shown(g.status)}`);
    for (const k of ['what', 'detail'] as const)
      if (typeof g[k] !== 'string') p.add(`${gi}.${k}: must be a string, got ${shown(g[k])}`);
  });
}

/** A checked `regime` with the nulls JSON wrote for NaN figures read back as NaN. */
export function reviveRegime(r: RegimeReport): RegimeReport {
  const n = (x: number | null): number => (x === null ? NaN : x);
  const est = <E extends { value: number; lo: number; hi: number } | null>(e: E): E =>
    e && ({ ...e, value: n(e.value), lo: n(e.lo), hi: n(e.hi) } as E);
  return {
    ...r,
    figures: {
      ...r.figures,
      agents: r.figures.agents.map((a) => ({
        ...a,
        ...Object.fromEntries(AGENT_ESTIMATES.map((k) => [k, est(a[k])])),
      })) as RegimeReport['figures']['agents'],
      pairs: r.figures.pairs.map((q) => ({
        ...q,
        reach: est(q.reach),
        peerZeroStd: est(q.peerZeroStd),
        ...Object.fromEntries(PAIR_NUMBERS.map((k) => [k, n(q[k])])),
      })),
    },
  };
}
