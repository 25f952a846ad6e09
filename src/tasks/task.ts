// Task factory: deterministic train/eval split of the problem space, seeded sampling, rendering and scoring.
import { TaskConfigError, resolveTaskConfig, type ResolvedTaskConfig, type TaskConfig } from './config';
import { KIND_DEFS } from './kinds';
import { deriveRng, hashString, type Rng } from '../util/rng';
import { extractAnswer, parseView, type ViewName } from './views';
import { withRlShare } from './file/rlShare';

export type { Problem, Split, Task } from './taskTypes';
import type { Problem, Split, SplitSelector, SplitSizes, Task } from './taskTypes';

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

/** Share of the non-test problems that form the validation split (default config: 70% train, 10% validation, 20% test). */
export const VALIDATION_SHARE = 0.125;

/**
 * The split of a key: with u = hash(salt + key) / 2^32, test iff u < evalFraction (the same problems as
 * the older two-way "eval" split), validation iff the rest of u's range falls in its first
 * VALIDATION_SHARE, train otherwise. A pure function of the key: the same for every agent, view and run.
 */
export function splitOfKey(key: string, evalFraction: number): Split {
  const u = hashString(SPLIT_SALT + key) / 4294967296;
  if (u < evalFraction) return 'test';
  return (u - evalFraction) / (1 - evalFraction) < VALIDATION_SHARE ? 'validation' : 'train';
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
  return isCorrectAnswer(problem, extractAnswer(completionText, view, problem));
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

/** Does a key's split fall under a selector? */
const selects = (sel: SplitSelector, split: Split): boolean =>
  sel === 'train+validation' ? split !== 'test' : split === sel;

/** Index lists of an enumerated space per split (train and the train+validation union in index order). */
interface SplitLists {
  train: Int32Array;
  validation: Int32Array;
  test: Int32Array;
  'train+validation': Int32Array;
}

/** Draw `n` distinct entries of `list` with `rng` (sparse: rejection of repeats; dense: partial Fisher-Yates). */
function drawDistinct(list: Int32Array, rng: Rng, n: number): number[] {
  const out: number[] = [];
  if (n * 2 <= list.length) {
    const seen = new Set<number>();
    while (out.length < n) {
      const idx = list[rng.int(list.length)];
      if (seen.has(idx)) continue;
      seen.add(idx);
      out.push(idx);
    }
    return out;
  }
  const pool = Array.from(list);
  for (let i = 0; i < n; i++) {
    const j = i + rng.int(pool.length - i);
    [pool[i], pool[j]] = [pool[j], pool[i]];
    out.push(pool[i]);
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
  // a graded draw (KindDef.draw) weighs the problems unequally: drawn by rejection, never enumerated
  const graded = def.draw?.(c) ?? null;
  const draw = graded ?? ((rng: Rng) => radices.map((r) => rng.int(r)));
  const enumerable = space <= ENUMERATION_LIMIT && !graded;
  const splitOf = (key: string): Split => splitOfKey(key, c.evalFraction);

  // Enumerated spaces: index lists per split, computed once. Held-out lists shuffled into a fixed order
  // (the test order is the older eval order: same seed, same label, same problems).
  let lists: SplitLists | null = null;
  const getLists = (): SplitLists => {
    if (lists) return lists;
    const by: Record<Split, number[]> = { train: [], validation: [], test: [] };
    const union: number[] = [];
    for (let i = 0; i < space; i++) {
      const split = splitOf(def.key(decodeIndex(i, radices), c));
      by[split].push(i);
      if (split !== 'test') union.push(i);
    }
    deriveRng(ORDER_SEED, 'eval-order', name).shuffle(by.test);
    deriveRng(ORDER_SEED, 'validation-order', name).shuffle(by.validation);
    const l = {
      train: Int32Array.from(by.train),
      validation: Int32Array.from(by.validation),
      test: Int32Array.from(by.test),
      'train+validation': Int32Array.from(union),
    };
    lists = l;
    return l;
  };

  const estimate = (share: number): number => Math.floor(space * share);
  const nonTest = 1 - c.evalFraction;
  const sizes: SplitSizes = enumerable
    ? {
        space,
        train: getLists().train.length,
        validation: getLists().validation.length,
        test: getLists().test.length,
        eval: getLists().test.length,
        exact: true,
      }
    : {
        space,
        train: estimate(nonTest * (1 - VALIDATION_SHARE)),
        validation: estimate(nonTest * VALIDATION_SHARE),
        test: estimate(c.evalFraction),
        eval: estimate(c.evalFraction),
        exact: false,
      };
  const sizeOf = (sel: SplitSelector): number =>
    sel === 'train+validation' ? sizes.train + sizes.validation : sizes[sel];

  const tooFew = (split: SplitSelector, n: number): TaskConfigError => {
    const avail = sizeOf(split);
    const tail = sizes.exact
      ? `has only ${avail} (problem space ${space})`
      : `has only about ${avail} (estimated; problem space ${space}); at most half of that can be drawn`;
    return new TaskConfigError([
      `requested ${n} distinct ${split} problems but the ${split} split of ${name} ${tail}`,
    ]);
  };
  const limit = (split: SplitSelector): number =>
    sizes.exact ? sizeOf(split) : Math.floor(sizeOf(split) / 2);

  /** Rejection-sample distinct problems of one split (large spaces). */
  const rejectionSample = (
    rng: Rng,
    n: number,
    split: SplitSelector,
    seen: Set<string>,
    out: Problem[],
  ): void => {
    let attempts = 0;
    const maxAttempts = 200 * n + 10_000;
    while (out.length < n) {
      if (++attempts > maxAttempts) throw tooFew(split, n);
      const p = makeProblem(c, draw(rng));
      if (!selects(split, splitOf(p.key)) || seen.has(p.key)) continue;
      seen.add(p.key);
      out.push(p);
    }
  };

  const fromIndex = (i: number): Problem => makeProblem(c, decodeIndex(i, radices));

  const sampleSplit = (split: SplitSelector, rng: Rng, n: number): Problem[] => {
    assertCount(n, 'sampleSplit');
    if (n > limit(split)) throw tooFew(split, n);
    if (enumerable) return drawDistinct(getLists()[split], rng, n).map(fromIndex);
    const out: Problem[] = [];
    rejectionSample(rng, n, split, new Set(), out);
    return out;
  };

  // Large spaces: a growing cache of each fixed held-out sequence, so heldOut(s, n) is a prefix of heldOut(s, m).
  const caches = {
    test: { list: [] as Problem[], seen: new Set<string>(), rng: deriveRng(ORDER_SEED, 'eval-sample', name) },
    validation: {
      list: [] as Problem[],
      seen: new Set<string>(),
      rng: deriveRng(ORDER_SEED, 'validation-sample', name),
    },
  };
  const heldOut = (split: 'validation' | 'test', n: number): Problem[] => {
    assertCount(n, split === 'test' ? 'evalSet' : 'heldOut');
    if (split !== 'test' && split !== 'validation')
      throw new TaskConfigError([
        `held-out split must be 'validation' or 'test', got ${JSON.stringify(split)}`,
      ]);
    if (n > limit(split)) throw tooFew(split, n);
    if (enumerable) return Array.from(getLists()[split].subarray(0, n), fromIndex);
    const cache = caches[split];
    if (cache.list.length < n) rejectionSample(cache.rng, n, split, cache.seen, cache.list);
    return cache.list.slice(0, n);
  };

  const probeValues = radices.map(() => 0);
  const maxValues = radices.map((r) => r - 1);
  const longest = new Map<ViewName, number>();
  const longestCompletion = (view: ViewName): number => {
    let best = longest.get(view);
    if (best !== undefined) return best;
    best = renderCompletion(makeProblem(c, maxValues), view).length;
    const probe =
      enumerable && (space <= 20_000 || c.kind === 'file') // a file's longest row is found, not sampled
        ? Array.from({ length: space }, (_, i) => fromIndex(i))
        : sampleSplit(
            'train+validation',
            deriveRng(ORDER_SEED, 'longest', name),
            Math.min(4000, limit('train+validation')),
          );
    for (const p of probe) best = Math.max(best, renderCompletion(p, view).length);
    longest.set(view, best);
    return best;
  };
  const task: Task = {
    config: c,
    name,
    sizes,
    splitOf,
    sampleTrain: (rng, n) => sampleSplit('train', rng, n),
    sampleSplit,
    heldOut,
    evalSet: (n) => heldOut('test', n),
    problem: (values) => makeProblem(c, values),
    promptLength: (view) => renderPrompt(makeProblem(c, probeValues), view).length,
    prompt: (problem, view) => renderPrompt(problem, view),
    longestCompletion,
  };
  return c.kind === 'file' ? withRlShare(task) : task;
}
