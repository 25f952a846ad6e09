// Task factory: deterministic train/eval split of the problem space, seeded sampling, rendering and scoring.
import {
  TaskConfigError,
  resolveTaskConfig,
  type ResolvedTaskConfig,
  type TaskConfig,
  type TaskKind,
} from './config';
import { KIND_DEFS } from './kinds';
import { deriveRng, hashString, type Rng } from './rng';
import { extractAnswer, parseView, type ViewName } from './views';

/** One problem: view-independent; render it with `renderPrompt(problem, view)`. Plain data (structured-cloneable). */
export interface Problem {
  readonly kind: TaskKind;
  /** Stable key, e.g. "add:2:37+05". Decides the split; unique within a config. */
  readonly key: string;
  /** Field values (operands, or target + list digits). */
  readonly values: readonly number[];
  /** Canonical answer string (ground truth). */
  readonly answer: string;
  /** The resolved config the problem belongs to (rendering widths come from it). */
  readonly config: ResolvedTaskConfig;
}

/** Which split a problem belongs to. */
export type Split = 'train' | 'eval';

/** Sizes of the two splits. `exact` is false for spaces too large to enumerate (sizes are then estimates). */
export interface SplitSizes {
  space: number;
  train: number;
  eval: number;
  exact: boolean;
}

/** A task built from a config. Train and eval problems never overlap. */
export interface Task {
  readonly config: ResolvedTaskConfig;
  /** Human-readable config, e.g. "add(digits=2, evalFraction=0.2)". */
  readonly name: string;
  /** Size of the whole problem space and of each split. */
  readonly sizes: SplitSizes;
  /** The split of a problem key (pure function of key and evalFraction). */
  splitOf(key: string): Split;
  /** `n` distinct training problems drawn with `rng` (independent across calls). Throws if `n` > train size. */
  sampleTrain(rng: Rng, n: number): Problem[];
  /** The first `n` problems of the fixed, seeded eval order (a prefix of `evalSet(m)` for m > n). */
  evalSet(n: number): Problem[];
  /** Build a problem from field values (for tests and tools). */
  problem(values: readonly number[]): Problem;
  /** Prompt length (characters) of every problem in `view`. */
  promptLength(view: ViewName): number;
}

/** Problem spaces up to this size are enumerated (exact split sizes); larger ones use rejection sampling. */
export const ENUMERATION_LIMIT = 200_000;
const SPLIT_SALT = 'co-rl-split-v1|';
const ORDER_SEED = 0x5eed;

/** Human-readable config string, e.g. "mod(digits=2, modulus=7, op=+, evalFraction=0.2)". */
export function describeTaskConfig(c: ResolvedTaskConfig): string {
  const knobs = Object.entries(c)
    .filter(([k]) => k !== 'kind')
    .map(([k, v]) => `${k}=${String(v)}`);
  return `${c.kind}(${knobs.join(', ')})`;
}

/** The split of a key for an eval fraction: eval iff hash(salt + key) / 2^32 < evalFraction. */
export function splitOfKey(key: string, evalFraction: number): Split {
  return hashString(SPLIT_SALT + key) / 4294967296 < evalFraction ? 'eval' : 'train';
}

/** Build a problem of a resolved config from its field values (validated against the radices). */
export function makeProblem(config: ResolvedTaskConfig, values: readonly number[]): Problem {
  const def = KIND_DEFS[config.kind];
  const radices = def.radices(config);
  if (
    values.length !== radices.length ||
    values.some((v, i) => !Number.isInteger(v) || v < 0 || v >= radices[i])
  ) {
    throw new Error(
      `values ${JSON.stringify(values)} do not fit ${describeTaskConfig(config)} (radices ${radices})`,
    );
  }
  const vs = Object.freeze([...values]);
  return { kind: config.kind, key: def.key(vs, config), values: vs, answer: def.answer(vs, config), config };
}

/** Prompt text of a problem in a view. Same length for every problem of one (config, view). */
export function renderPrompt(problem: Problem, view: ViewName): string {
  return KIND_DEFS[problem.kind].prompt(problem.values, problem.config, parseView(view));
}

/** The correct (supervised target) completion of a problem in a view, WITHOUT end-of-sequence. */
export function renderCompletion(problem: Problem, view: ViewName): string {
  return KIND_DEFS[problem.kind].completion(problem.values, problem.config, parseView(view));
}

/** True iff `answer` (an extracted, canonical answer) is the problem's ground truth; null is never correct. */
export function isCorrectAnswer(problem: Problem, answer: string | null): boolean {
  return answer !== null && answer === problem.answer;
}

/** Extract a completion's answer in a view and check it against the ground truth. */
export function scoreCompletion(problem: Problem, completionText: string, view: ViewName): boolean {
  return isCorrectAnswer(problem, extractAnswer(completionText, view, problem.kind));
}

function assertCount(n: number, what: string): void {
  if (!Number.isInteger(n) || n < 0) throw new Error(`${what}: n must be a non-negative integer, got ${n}`);
}

/** Decode an index of the enumerated space into field values (mixed radix, first field most significant). */
function decodeIndex(index: number, radices: readonly number[]): number[] {
  const out = new Array<number>(radices.length);
  let rest = index;
  for (let i = radices.length - 1; i >= 0; i--) {
    out[i] = rest % radices[i];
    rest = Math.floor(rest / radices[i]);
  }
  return out;
}

/**
 * Build a task from a config (validated; defaults filled). Throws `TaskConfigError` for invalid configs.
 * The split is a pure function of each problem's key and `evalFraction`, so it is the same for every
 * agent, view and run; sampling within each split is seeded.
 */
export function makeTask(config: TaskConfig): Task {
  const c = resolveTaskConfig(config);
  const def = KIND_DEFS[c.kind];
  const radices = def.radices(c);
  const space = radices.reduce((a, b) => a * b, 1);
  const name = describeTaskConfig(c);
  const enumerable = space <= ENUMERATION_LIMIT;
  const splitOf = (key: string): Split => splitOfKey(key, c.evalFraction);

  // Enumerated spaces: index lists per split, computed once. Eval list shuffled into a fixed order.
  let lists: { train: Int32Array; eval: Int32Array } | null = null;
  const getLists = (): { train: Int32Array; eval: Int32Array } => {
    if (lists) return lists;
    const train: number[] = [];
    const ev: number[] = [];
    for (let i = 0; i < space; i++) {
      (splitOf(def.key(decodeIndex(i, radices), c)) === 'eval' ? ev : train).push(i);
    }
    deriveRng(ORDER_SEED, 'eval-order', name).shuffle(ev);
    lists = { train: Int32Array.from(train), eval: Int32Array.from(ev) };
    return lists;
  };

  const sizes: SplitSizes = enumerable
    ? { space, train: getLists().train.length, eval: getLists().eval.length, exact: true }
    : {
        space,
        train: Math.floor(space * (1 - c.evalFraction)),
        eval: Math.floor(space * c.evalFraction),
        exact: false,
      };

  const tooFew = (split: Split, n: number): TaskConfigError => {
    const avail = sizes[split];
    const tail = sizes.exact
      ? `has only ${avail} (problem space ${space})`
      : `has only about ${avail} (estimated; problem space ${space}); at most half of that can be drawn`;
    return new TaskConfigError([
      `requested ${n} distinct ${split} problems but the ${split} split of ${name} ${tail}`,
    ]);
  };
  const limit = (split: Split): number => (sizes.exact ? sizes[split] : Math.floor(sizes[split] / 2));

  const randomValues = (rng: Rng): number[] => radices.map((r) => rng.int(r));

  /** Rejection-sample distinct problems of one split (large spaces). */
  const rejectionSample = (rng: Rng, n: number, split: Split, seen: Set<string>, out: Problem[]): void => {
    let attempts = 0;
    const maxAttempts = 200 * n + 10_000;
    while (out.length < n) {
      if (++attempts > maxAttempts) throw tooFew(split, n);
      const p = makeProblem(c, randomValues(rng));
      if (splitOf(p.key) !== split || seen.has(p.key)) continue;
      seen.add(p.key);
      out.push(p);
    }
  };

  const fromIndex = (i: number): Problem => makeProblem(c, decodeIndex(i, radices));

  const sampleTrain = (rng: Rng, n: number): Problem[] => {
    assertCount(n, 'sampleTrain');
    if (n > limit('train')) throw tooFew('train', n);
    const out: Problem[] = [];
    if (!enumerable) {
      rejectionSample(rng, n, 'train', new Set(), out);
      return out;
    }
    const train = getLists().train;
    if (n * 2 <= train.length) {
      const seen = new Set<number>();
      while (out.length < n) {
        const idx = train[rng.int(train.length)];
        if (seen.has(idx)) continue;
        seen.add(idx);
        out.push(fromIndex(idx));
      }
      return out;
    }
    // Dense request: partial Fisher-Yates over a copy.
    const pool = Array.from(train);
    for (let i = 0; i < n; i++) {
      const j = i + rng.int(pool.length - i);
      [pool[i], pool[j]] = [pool[j], pool[i]];
      out.push(fromIndex(pool[i]));
    }
    return out;
  };

  // Large spaces: a growing cache of the fixed eval sequence, so evalSet(n) is a prefix of evalSet(m).
  const evalCache: Problem[] = [];
  const evalSeen = new Set<string>();
  const evalRng = deriveRng(ORDER_SEED, 'eval-sample', name);

  const evalSet = (n: number): Problem[] => {
    assertCount(n, 'evalSet');
    if (n > limit('eval')) throw tooFew('eval', n);
    if (enumerable) return Array.from(getLists().eval.subarray(0, n), fromIndex);
    if (evalCache.length < n) rejectionSample(evalRng, n, 'eval', evalSeen, evalCache);
    return evalCache.slice(0, n);
  };

  const probeValues = radices.map(() => 0);
  return {
    config: c,
    name,
    sizes,
    splitOf,
    sampleTrain,
    evalSet,
    problem: (values) => makeProblem(c, values),
    promptLength: (view) => renderPrompt(makeProblem(c, probeValues), view).length,
  };
}
