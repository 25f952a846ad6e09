// Reading a sweep report (DIR/report.json of `npm run sweep`, format co-rl-sweep-report/1; the fields the
// page uses of src/formats/sweep/report.ts) and its cell results (DIR/cells/<id>.json, co-rl-sweep-cell/1) in
// the page: every problem is listed, each naming its field, and nothing is returned unless all is well.
// A cell's curves become a run (the run-file checks of runFile.ts) for the compare view.
import type { ExperimentConfig } from '../../rl/config';
import type { EvalRecord, StepRecord } from '../../rl/records';
import type { RewardMethod } from '../../rl/rewards';
import { DEFAULT_RUN_SETTINGS, type RunSettings } from '../runSettings';
import { CELL_FORMAT } from './records';
import { RUN_FILE_FORMAT, RUN_FILE_VERSION, validateRunFile, type RunFile } from '../runFile';

export const SWEEP_REPORT_FORMAT = 'co-rl-sweep-report/1';

export interface SweepStats {
  mean: number;
  sd: number;
  min: number;
  max: number;
  n: number;
}
export type ClaimStatus = 'holds' | 'does not hold' | 'not tested';
export interface SweepClaim {
  n: number;
  claim: string;
  status: ClaimStatus;
  figure: string;
  png: string | null;
}
export interface SweepCell {
  index: number;
  id: string;
  label: string;
  status: 'done' | 'failed' | 'missing';
  error: string | null;
  group: number | null;
  seed: number | null;
  methods: Record<string, { base: number; final: number; gain: number }>;
}
export interface SweepGroup {
  index: number;
  label: string;
  sameFamily: boolean;
  seeds: number[];
  cells: number[];
  overlap: { kappa: number; c: number; u: number; w: number } | null;
  methods: Record<string, { gain: SweepStats | null }>;
}
export interface SweepReportView {
  format: string;
  sweep: { name: string; hash: string; axes: string[]; cells: number };
  counts: { done: number; failed: number; missing: number };
  cells: SweepCell[];
  groups: SweepGroup[];
  claims: SweepClaim[];
}

const isObj = (x: unknown): x is Record<string, unknown> =>
  typeof x === 'object' && x !== null && !Array.isArray(x);
const shown = (x: unknown): string => {
  const s = x === undefined ? 'nothing (missing)' : (JSON.stringify(x) ?? String(x));
  return s.length > 60 ? `${s.slice(0, 57)}...` : s;
};
const MAX = 25;
const WANT = `this page reads ${SWEEP_REPORT_FORMAT} (report.json of npm run sweep)`;

type Want = 'str' | 'int' | 'num' | 'bool' | 'strOrNull' | 'intOrNull' | 'arr' | 'obj';
const OK: Record<Want, (v: unknown) => boolean> = {
  str: (v) => typeof v === 'string',
  int: (v) => typeof v === 'number' && Number.isInteger(v) && v >= 0,
  num: (v) => typeof v === 'number' && Number.isFinite(v),
  bool: (v) => typeof v === 'boolean',
  strOrNull: (v) => v === null || typeof v === 'string',
  intOrNull: (v) => v === null || (typeof v === 'number' && Number.isInteger(v)),
  arr: Array.isArray,
  obj: isObj,
};

const WORDS: Record<Want, string> = {
  str: 'a string',
  int: 'an integer >= 0',
  num: 'a finite number',
  bool: 'true or false',
  strOrNull: 'a string or null',
  intOrNull: 'an integer or null',
  arr: 'an array',
  obj: 'an object',
};

function fields(
  errs: string[],
  at: string,
  o: unknown,
  want: Record<string, Want>,
): o is Record<string, unknown> {
  if (!isObj(o)) return (void errs.push(`${at}: must be an object, got ${shown(o)}`), false);
  for (const [k, w] of Object.entries(want))
    if (!OK[w](o[k])) errs.push(`${at}.${k}: must be ${WORDS[w]}, got ${shown(o[k])}`);
  return true;
}

function statsOk(errs: string[], at: string, s: unknown): void {
  if (s !== null) fields(errs, at, s, { mean: 'num', sd: 'num', min: 'num', max: 'num', n: 'int' });
}

const CELL_FIELDS: Record<string, Want> = {
  index: 'int',
  id: 'str',
  label: 'str',
  error: 'strOrNull',
  group: 'intOrNull',
  methods: 'obj',
};
const GROUP_FIELDS: Record<string, Want> = {
  index: 'int',
  label: 'str',
  sameFamily: 'bool',
  seeds: 'arr',
  cells: 'arr',
  methods: 'obj',
};

function checkCell(errs: string[], at: string, c: unknown): void {
  if (!fields(errs, at, c, CELL_FIELDS)) return;
  if (!['done', 'failed', 'missing'].includes(c.status as string))
    errs.push(`${at}.status: must be done, failed or missing, got ${shown(c.status)}`);
  for (const [m, v] of Object.entries(c.methods as object))
    fields(errs, `${at}.methods.${m}`, v, { base: 'num', final: 'num', gain: 'num' });
}

function checkGroup(errs: string[], at: string, g: unknown): void {
  if (!fields(errs, at, g, GROUP_FIELDS)) return;
  if (g.overlap !== null)
    fields(errs, `${at}.overlap`, g.overlap, { kappa: 'num', c: 'num', u: 'num', w: 'num' });
  for (const [m, v] of Object.entries(g.methods as object))
    if (fields(errs, `${at}.methods.${m}`, v, {}))
      statsOk(errs, `${at}.methods.${m}.gain`, (v as Record<string, unknown>).gain);
}

function checkClaim(errs: string[], at: string, c: unknown): void {
  if (!fields(errs, at, c, { n: 'int', claim: 'str', figure: 'str', png: 'strOrNull' })) return;
  if (!['holds', 'does not hold', 'not tested'].includes(c.status as string))
    errs.push(`${at}.status: must be holds, does not hold or not tested, got ${shown(c.status)}`);
}

/** Check a parsed report.json. Never throws; every problem names its field (the first 25, then a count). */
export function validateSweepReport(
  raw: unknown,
): { ok: true; report: SweepReportView } | { ok: false; errors: string[] } {
  if (!isObj(raw))
    return { ok: false, errors: [`not a sweep report: the file holds ${shown(raw)}; ${WANT}`] };
  if (raw.format !== SWEEP_REPORT_FORMAT)
    return {
      ok: false,
      errors: [
        typeof raw.format === 'string'
          ? `this file is a ${shown(raw.format)} file; ${WANT}`
          : `not a sweep report (no "format" field); ${WANT}`,
      ],
    };
  const errs: string[] = [];
  fields(errs, 'sweep', raw.sweep, { name: 'str', hash: 'str', axes: 'arr', cells: 'int' });
  fields(errs, 'counts', raw.counts, { done: 'int', failed: 'int', missing: 'int' });
  const each = (k: string, f: (e: string[], at: string, x: unknown) => void) =>
    Array.isArray(raw[k])
      ? (raw[k] as unknown[]).forEach((x, i) => f(errs, `${k}[${i}]`, x))
      : errs.push(`${k}: must be an array, got ${shown(raw[k])}`);
  each('cells', checkCell);
  each('groups', checkGroup);
  each('claims', checkClaim);
  if (errs.length)
    return {
      ok: false,
      errors:
        errs.length > MAX ? [...errs.slice(0, MAX), `... and ${errs.length - MAX} more problems`] : errs,
    };
  return { ok: true, report: raw as unknown as SweepReportView };
}

/** The Train-view settings closest to an experiment config (for the runs table of the compare view). */
export function settingsOfConfig(c: ExperimentConfig): RunSettings {
  const t = c.train;
  return {
    ...DEFAULT_RUN_SETTINGS,
    preset: 'preset' in c.cohort ? c.cohort.preset : DEFAULT_RUN_SETTINGS.preset,
    methods: [...c.methods],
    steps: c.steps,
    seed: c.seed,
    batchPrompts: t.batchPrompts,
    samples: t.samples,
    temperature: t.temperature,
    lr: t.lr,
    tau: t.tau,
    scaleRewards: t.scaleRewards,
    lossType: t.lossType,
    beta: t.beta,
    innerEpochs: t.innerEpochs,
    evalEvery: c.eval.every,
    evalProblems: c.eval.problems,
    portraitSamples: c.eval.portraitSamples ?? 0,
  };
}

/**
 * A cell result (DIR/cells/<id>.json) as a run file, checked by the run-file checks (records, config).
 * Refused: another format, a failed cell without a result, damaged records.
 */
export function cellAsRun(
  raw: unknown,
): { ok: true; run: RunFile; id: string } | { ok: false; errors: string[] } {
  if (!isObj(raw)) return { ok: false, errors: [`not a sweep cell result: the file holds ${shown(raw)}`] };
  if (raw.format !== CELL_FORMAT)
    return {
      ok: false,
      errors: [
        `this file is a ${shown(raw.format)} file; a cell result is ${CELL_FORMAT} (DIR/cells/<id>.json)`,
      ],
    };
  const r = raw.result;
  if (!isObj(r))
    return {
      ok: false,
      errors: [
        `result: the cell has no result (status ${shown(raw.status)}${raw.error ? `: ${shown(raw.error)}` : ''})`,
      ],
    };
  const cfg = r.config as ExperimentConfig;
  const steps = Array.isArray(r.steps) ? (r.steps as StepRecord[]) : null;
  const evals = Array.isArray(r.evals) ? (r.evals as EvalRecord[]) : null;
  if (!isObj(cfg) || !steps || !evals)
    return { ok: false, errors: ['result: needs config, steps and evals'] };
  const methods = (Array.isArray(cfg.methods) ? cfg.methods : []) as RewardMethod[];
  const per = <T extends { method: RewardMethod }>(recs: T[]) =>
    Object.fromEntries(methods.map((m) => [m, recs.filter((x) => x.method === m)]));
  const file = {
    format: RUN_FILE_FORMAT,
    version: RUN_FILE_VERSION,
    name: `cell ${shown(raw.index)}: ${String(raw.label ?? '')}`.slice(0, 200),
    savedAt: typeof raw.startedAt === 'string' ? raw.startedAt : new Date(0).toISOString(),
    settings: isObj(cfg.train) && isObj(cfg.eval) ? settingsOfConfig(cfg) : {},
    config: cfg,
    metrics: { methods, steps: per(steps), evals: per(evals) },
    step: r.completedSteps,
  };
  const v = validateRunFile(file);
  return v.ok ? { ok: true, run: v.run, id: String(raw.id) } : { ok: false, errors: v.errors };
}
