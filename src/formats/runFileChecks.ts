// The field checks of a run file's records (steps, evaluations, per-method lists), collecting named problems for validateRunFile in ./runFile.ts.
import * as v from 'valibot';
import { REWARD_METHODS } from '../rl/config';
import { problemsWith } from '../schema';
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

const says = (what: string) => (i: v.BaseIssue<unknown>) => `must be ${what}, got ${shown(i.input)}`;
const finite = (m: ReturnType<typeof says>) => v.pipe(v.number(m), v.finite(m));
const share = (m: ReturnType<typeof says>) => v.pipe(v.number(m), v.minValue(0, m), v.maxValue(1, m));
/** The rules of a record's fields (schema layer). */
const FIELD: Record<FieldCheck, v.GenericSchema> = {
  num: v.nullable(finite(says('a finite number or null'))),
  share: v.nullable(share(says('a share in [0, 1] or null'))),
  rate: share(says('a share in [0, 1]')),
  int: v.pipe(
    v.number(says('an integer >= 0')),
    v.integer(says('an integer >= 0')),
    v.minValue(0, says('an integer >= 0')),
  ),
  str: v.pipe(v.string(says('a non-empty string')), v.nonEmpty(says('a non-empty string'))),
};
const STRING = v.string(says('a string'));
const STRING_OR_NULL = v.nullable(v.string(says('a string or null')));

function check(p: Problems, at: string, x: unknown, schema: v.GenericSchema): void {
  for (const e of problemsWith(schema, x, at)) p.add(e);
}
const checkField = (p: Problems, at: string, x: unknown, c: FieldCheck): void => check(p, at, x, FIELD[c]);

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

function checkArray(p: Problems, at: string, value: unknown, each: (x: unknown, at: string) => void): void {
  if (!Array.isArray(value)) {
    p.add(`${at}: must be an array, got ${shown(value)}`);
    return;
  }
  value.forEach((x, i) => each(x, `${at}[${i}]`));
}

const strOrNull = (p: Problems, at: string, x: unknown) => check(p, at, x, STRING_OR_NULL);

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
      for (const k of ['agent', 'prompt', 'truth']) check(p, `${eat}.${k}`, x[k], STRING);
      checkArray(p, `${eat}.completions`, x.completions, (c, cat) => check(p, cat, c, STRING));
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
function checkPortrait(p: Problems, at: string, value: unknown, r: Record<string, unknown>): void {
  const S = r.portraitSamples;
  if (!(typeof S === 'number' && Number.isInteger(S) && S >= 1 && S <= 64))
    return void p.add(`${at}: needs the record's portraitSamples (an integer in [1, 64]), got ${shown(S)}`);
  if (!Array.isArray(value) || value.length !== r.problems)
    return void p.add(`${at}: must be an array of ${shown(r.problems)} counts, got ${shown(value)}`);
  const bad = value.findIndex((x) => !(typeof x === 'number' && Number.isInteger(x) && x >= 0 && x <= S));
  if (bad >= 0) p.add(`${at}[${bad}]: must be an integer in [0, ${S}], got ${shown(value[bad])}`);
}

/** Per method, its records: keys must be listed methods, each record of its key's method, steps increasing. */
export function checkPerMethod(
  p: Problems,
  at: string,
  value: unknown,
  methods: readonly string[],
  maxStep: number | null,
  check: (p: Problems, at: string, r: unknown) => void,
): void {
  if (!isObject(value))
    return void p.add(`${at}: must be an object of record arrays per method, got ${shown(value)}`);
  for (const [m, recs] of Object.entries(value)) {
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
