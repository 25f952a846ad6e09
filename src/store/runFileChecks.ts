// The field checks of a run file's records (steps, evaluations, per-method lists), collecting named problems for validateRunFile in ./runFile.ts.
import { REWARD_METHODS } from '../rl/config';
import type { AgentStepRecord, StepTiming } from '../rl/records';
import { coLabelingProblems } from '../rl/coLabelingDiagnostics';

/** Errors listed at most; the rest are counted. */
const MAX_ERRORS = 25;

export const isObject = (x: unknown): x is Record<string, unknown> =>
  typeof x === 'object' && x !== null && !Array.isArray(x);
export const shown = (x: unknown): string => {
  if (x === undefined) return 'nothing (the field is missing)';
  const s = JSON.stringify(x) ?? String(x);
  return s.length > 60 ? `${s.slice(0, 57)}...` : s;
};
/**
 * Checks of one record's fields: 'num' finite number or null, 'share' a share in [0, 1] or null, 'rate' a
 * share in [0, 1] (never null), 'int' integer >= 0, 'str' non-empty string.
 */
type FieldCheck = 'num' | 'share' | 'rate' | 'int' | 'str';

const AGENT_STEP_FIELDS: Record<Exclude<keyof AgentStepRecord, 'agent'>, FieldCheck> = {
  rewardMean: 'num',
  rewardStd: 'num',
  rewardGroupStd: 'num',
  rewardStdNorm: 'num',
  rewardGroupStdNorm: 'num',
  zeroStdFraction: 'share',
  pseudoLabelAccuracy: 'share',
  trainedLabelAccuracy: 'share',
  rewardAccuracy: 'share',
  labeledFraction: 'share',
  parseableFraction: 'share',
  sampleAccuracy: 'share',
  meanLength: 'num',
  cutOffShare: 'share',
  meanEntropy: 'num',
  kl: 'num',
  clipFraction: 'share',
  gradNorm: 'num',
  loss: 'num',
  lr: 'num',
};
const AGENT_EVAL_FIELDS = {
  greedyAccuracy: 'rate',
  sampledAccuracy: 'rate',
  majAccuracy: 'rate',
  parseableFraction: 'rate',
} as const;
const EVAL_FIELDS = {
  meanGreedyAccuracy: 'rate',
  ensembleAccuracy: 'rate',
  oracleAccuracy: 'rate',
  seconds: 'num',
} as const;
const TIMING_FIELDS: Record<keyof StepTiming, FieldCheck> = {
  rollout: 'num',
  forward: 'num',
  update: 'num',
  total: 'num',
};

/** Collects problems, at most MAX_ERRORS of them (and how many more). */
export class Problems {
  list: string[] = [];
  more = 0;
  add(msg: string): void {
    if (this.list.length < MAX_ERRORS) this.list.push(msg);
    else this.more++;
  }
  get count(): number {
    return this.list.length + this.more;
  }
  result(): string[] {
    return this.more
      ? [...this.list, `... and ${this.more} more problem${this.more === 1 ? '' : 's'}`]
      : this.list;
  }
}

function checkField(p: Problems, at: string, v: unknown, c: FieldCheck): void {
  if (c === 'num') {
    if (v !== null && !(typeof v === 'number' && Number.isFinite(v)))
      p.add(`${at}: must be a finite number or null, got ${shown(v)}`);
  } else if (c === 'share' || c === 'rate') {
    const ok = (c === 'share' && v === null) || (typeof v === 'number' && v >= 0 && v <= 1);
    if (!ok) p.add(`${at}: must be a share in [0, 1]${c === 'share' ? ' or null' : ''}, got ${shown(v)}`);
  } else if (c === 'int') {
    if (!(typeof v === 'number' && Number.isInteger(v) && v >= 0))
      p.add(`${at}: must be an integer >= 0, got ${shown(v)}`);
  } else if (typeof v !== 'string' || v === '') p.add(`${at}: must be a non-empty string, got ${shown(v)}`);
}

function checkFields(
  p: Problems,
  at: string,
  o: unknown,
  fields: Record<string, FieldCheck>,
): o is Record<string, unknown> {
  if (!isObject(o)) {
    p.add(`${at}: must be an object, got ${shown(o)}`);
    return false;
  }
  for (const [k, c] of Object.entries(fields)) {
    if (!(k in o)) p.add(`${at}.${k}: missing`);
    else checkField(p, `${at}.${k}`, o[k], c);
  }
  return true;
}

function checkArray(p: Problems, at: string, v: unknown, each: (x: unknown, at: string) => void): void {
  if (!Array.isArray(v)) {
    p.add(`${at}: must be an array, got ${shown(v)}`);
    return;
  }
  v.forEach((x, i) => each(x, `${at}[${i}]`));
}

const strOrNull = (p: Problems, at: string, v: unknown) => {
  if (v !== null && typeof v !== 'string') p.add(`${at}: must be a string or null, got ${shown(v)}`);
};

export function checkStepRecord(p: Problems, at: string, r: unknown): void {
  if (!checkFields(p, at, r, { step: 'int' })) return;
  if (r.step === 0) p.add(`${at}.step: training steps start at 1, got 0`);
  checkArray(p, `${at}.agents`, r.agents, (a, aat) => {
    checkFields(p, aat, a, { agent: 'str', ...AGENT_STEP_FIELDS });
  });
  checkArray(p, `${at}.pairs`, r.pairs, (x, pat) => {
    checkFields(p, pat, x, { a: 'str', b: 'str', bothLabeled: 'int', agreement: 'share' });
  });
  checkFields(p, `${at}.timing`, r.timing, TIMING_FIELDS);
  if (r.coLabeling !== undefined)
    for (const e of coLabelingProblems(r.coLabeling, `${at}.coLabeling`)) p.add(e);
  if (r.examples !== undefined)
    checkArray(p, `${at}.examples`, r.examples, (x, eat) => {
      if (!isObject(x)) return void p.add(`${eat}: must be an object, got ${shown(x)}`);
      for (const k of ['agent', 'prompt', 'truth'])
        if (typeof x[k] !== 'string') p.add(`${eat}.${k}: must be a string, got ${shown(x[k])}`);
      checkArray(
        p,
        `${eat}.completions`,
        x.completions,
        (c, cat) => typeof c !== 'string' && p.add(`${cat}: must be a string, got ${shown(c)}`),
      );
      checkArray(p, `${eat}.answers`, x.answers, (c, cat) => strOrNull(p, cat, c));
      checkArray(p, `${eat}.rewards`, x.rewards, (c, cat) => checkField(p, cat, c, 'num'));
      strOrNull(p, `${eat}.vote`, x.vote);
    });
}

export function checkEvalRecord(p: Problems, at: string, r: unknown): void {
  if (!checkFields(p, at, r, { step: 'int', problems: 'int', ...EVAL_FIELDS })) return;
  checkArray(p, `${at}.agents`, r.agents, (a, aat) => {
    if (!checkFields(p, aat, a, { agent: 'str', ...AGENT_EVAL_FIELDS })) return;
    if (a.greedyAnswers !== undefined)
      checkArray(p, `${aat}.greedyAnswers`, a.greedyAnswers, (x, xat) => strOrNull(p, xat, x));
    if (
      a.greedyCorrect !== undefined &&
      (typeof a.greedyCorrect !== 'string' || !/^[01]*$/.test(a.greedyCorrect))
    )
      p.add(`${aat}.greedyCorrect: must be a string of 0s and 1s, got ${shown(a.greedyCorrect)}`);
    if (a.portraitRight !== undefined) checkPortrait(p, `${aat}.portraitRight`, a.portraitRight, r);
  });
}

/** A live-portrait count list: one integer in [0, portraitSamples] per held-out problem. */
function checkPortrait(p: Problems, at: string, v: unknown, r: Record<string, unknown>): void {
  const S = r.portraitSamples;
  if (!(typeof S === 'number' && Number.isInteger(S) && S >= 1 && S <= 64))
    return void p.add(`${at}: needs the record's portraitSamples (an integer in [1, 64]), got ${shown(S)}`);
  if (!Array.isArray(v) || v.length !== r.problems)
    return void p.add(`${at}: must be an array of ${shown(r.problems)} counts, got ${shown(v)}`);
  const bad = v.findIndex((x) => !(typeof x === 'number' && Number.isInteger(x) && x >= 0 && x <= S));
  if (bad >= 0) p.add(`${at}[${bad}]: must be an integer in [0, ${S}], got ${shown(v[bad])}`);
}

/** Per method, its records: keys must be listed methods, each record of its key's method, steps increasing. */
export function checkPerMethod(
  p: Problems,
  at: string,
  v: unknown,
  methods: readonly string[],
  maxStep: number | null,
  check: (p: Problems, at: string, r: unknown) => void,
): void {
  if (!isObject(v))
    return void p.add(`${at}: must be an object of record arrays per method, got ${shown(v)}`);
  for (const [m, recs] of Object.entries(v)) {
    const mat = `${at}.${m}`;
    if (!(REWARD_METHODS as readonly string[]).includes(m))
      p.add(`${mat}: unknown method (allowed: ${REWARD_METHODS.join(', ')})`);
    else if (!methods.includes(m)) p.add(`${mat}: records of a method not in metrics.methods`);
    if (!Array.isArray(recs)) {
      p.add(`${mat}: must be an array of records, got ${shown(recs)}`);
      continue;
    }
    let last = -1;
    recs.forEach((r, i) => {
      const rat = `${mat}[${i}]`;
      const before = p.count;
      check(p, rat, r);
      if (p.count > before || !isObject(r)) return;
      if (r.method !== m) p.add(`${rat}.method: must be '${m}' (the list it is in), got ${shown(r.method)}`);
      const step = r.step as number;
      if (step <= last) p.add(`${rat}.step: steps must increase, got ${step} after ${last}`);
      if (maxStep !== null && step > maxStep)
        p.add(`${rat}.step: ${step} is beyond the config's ${maxStep} steps`);
      last = Math.max(last, step);
    });
  }
}
