// The `corpus` axis of an agent (docs/method.md ("Natural diversity")): which train-split problems it is pretrained on. A seeded
// random draw, or one of n disjoint shares of the train split by problem key; never the validation or
// test split (the pool already excludes them). Region mixes stay in the recipe and are "engineered".
import * as v from 'valibot';
import { eachField, isObj, problemsWith, unknownFields } from '../schema';
import type { Problem } from '../tasks';
import { deriveRng, hashString } from '../util/rng';

/** Which part of the pool an agent pretrains on. */
export interface CorpusSpec {
  /** `random`: `size` problems drawn with `seed` (default the agent's seed); `share`: share `index` of `of` disjoint shares by key. */
  draw: 'random' | 'share';
  /** Problems in a random draw (default 2000). */
  size?: number;
  /** Seed of a random draw. */
  seed?: number;
  /** Corpus stream of a random draw (default: the common one): draws of two streams are independent for one seed. */
  stream?: string;
  /** Share index in [0, of). */
  index?: number;
  /** Number of disjoint shares (>= 2). */
  of?: number;
}

/** Fields a corpus spec may have. */
export const CORPUS_FIELDS = ['draw', 'size', 'seed', 'stream', 'index', 'of'] as const;

type Issue = v.BaseIssue<unknown>;
const says = (what: string) => (i: Issue) => `must be ${what}, got ${JSON.stringify(i.input)}`;
/** An integer >= lo, with no upper bound (the message says what it must be). */
const atLeast = (lo: number) => {
  const m = says(`an integer >= ${lo}`);
  return v.pipe(v.number(m), v.integer(m), v.minValue(lo, m));
};
const DRAW = v.picklist(['random', 'share'], says(`'random' or 'share'`));
/** A random draw's fields (schema layer), each optional. */
const RANDOM = {
  size: v.optional(atLeast(10)),
  seed: v.optional(atLeast(0)),
  stream: v.optional(
    v.pipe(
      v.string(says('a name of 1-16 characters a-z, 0-9 or -')),
      v.regex(/^[a-z0-9-]{1,16}$/, says('a name of 1-16 characters a-z, 0-9 or -')),
    ),
  ),
};
const SHARES = atLeast(2);

/** Problems with a corpus spec (raw JSON); [] when valid. */
export function corpusErrors(raw: unknown): string[] {
  if (!isObj(raw))
    return [`must be an object { "draw": "random" | "share", ... }, got ${JSON.stringify(raw)}`];
  const c = raw;
  const errs = unknownFields(c, '', CORPUS_FIELDS);
  errs.push(...problemsWith(DRAW, c.draw, 'draw'));
  const only = (keys: readonly string[], draw: string) =>
    keys.filter((k) => c[k] !== undefined).map((k) => `${k}: only for draw '${draw}'`);
  if (c.draw === 'random') errs.push(...eachField(c, '', RANDOM), ...only(['index', 'of'], 'share'));
  if (c.draw === 'share') {
    const bad = problemsWith(SHARES, c.of, 'of');
    if (bad.length) errs.push(...bad);
    else {
      const of = c.of as number;
      const index = v.pipe(atLeast(0), v.maxValue(of - 1));
      if (!v.is(index, c.index))
        errs.push(`index: must be an integer in [0, ${of - 1}], got ${JSON.stringify(c.index)}`);
    }
    errs.push(...only(['size', 'seed', 'stream'], 'random'));
  }
  return errs;
}

/**
 * What a random draw larger than its pool gets, said plainly; null when the draw fits. `applyCorpus` clips the
 * size to the pool (the configs that ask for more keep their meaning and their cache keys), so such an agent
 * pretrains on the whole pool in its own order, and the draws of other streams and seeds are the same problems.
 */
export function corpusShortfall(c: CorpusSpec | undefined, pool: number): string | null {
  if (c?.draw !== 'random' || (c.size ?? 2000) <= pool) return null;
  return `corpus.size ${c.size} is above the ${pool} problems of the task's pretraining pool, so the agent pretrains on all ${pool} (in its own order) and a draw of any other stream or seed holds the same problems; ask for at most ${pool} for draws that differ`;
}

/** The problems of `pool` an agent with seed `agentSeed` pretrains on. Deterministic. */
export function applyCorpus(pool: readonly Problem[], c: CorpusSpec, agentSeed: number): Problem[] {
  if (c.draw === 'share') {
    const of = c.of ?? 2;
    const out = pool.filter((p) => hashString(`corpus-share|${p.key}`) % of === (c.index ?? 0));
    if (out.length === 0) throw new Error(`corpus share ${c.index} of ${of} holds no problems`);
    return out;
  }
  const size = Math.min(c.size ?? 2000, pool.length);
  const rng = c.stream
    ? deriveRng(c.seed ?? agentSeed, 'corpus-draw', c.stream)
    : deriveRng(c.seed ?? agentSeed, 'corpus-draw');
  return rng.shuffle([...pool]).slice(0, size); // a smaller size of one stream and seed is a prefix of a larger one
}
