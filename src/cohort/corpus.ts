// The `corpus` axis of an agent (docs/method.md ("Natural diversity")): which train-split problems it is pretrained on. A seeded
// random draw, or one of n disjoint shares of the train split by problem key; never the validation or
// test split (the pool already excludes them). Region mixes stay in the recipe and are "engineered".
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

/** Problems with a corpus spec (raw JSON); [] when valid. */
export function corpusErrors(raw: unknown): string[] {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    return [`must be an object { "draw": "random" | "share", ... }, got ${JSON.stringify(raw)}`];
  const c = raw as Record<string, unknown>;
  const errs = Object.keys(c)
    .filter((k) => !(CORPUS_FIELDS as readonly string[]).includes(k))
    .map((k) => `${k}: unknown field (allowed: ${CORPUS_FIELDS.join(', ')})`);
  const isInt = (v: unknown, lo: number): boolean => typeof v === 'number' && Number.isInteger(v) && v >= lo;
  if (c.draw !== 'random' && c.draw !== 'share')
    errs.push(`draw: must be 'random' or 'share', got ${JSON.stringify(c.draw)}`);
  if (c.draw === 'random') {
    if (c.size !== undefined && !isInt(c.size, 10))
      errs.push(`size: must be an integer >= 10, got ${JSON.stringify(c.size)}`);
    if (c.seed !== undefined && !isInt(c.seed, 0))
      errs.push(`seed: must be an integer >= 0, got ${JSON.stringify(c.seed)}`);
    if (c.stream !== undefined && (typeof c.stream !== 'string' || !/^[a-z0-9-]{1,16}$/.test(c.stream)))
      errs.push(`stream: must be a name of 1-16 characters a-z, 0-9 or -, got ${JSON.stringify(c.stream)}`);
    for (const k of ['index', 'of']) if (c[k] !== undefined) errs.push(`${k}: only for draw 'share'`);
  }
  if (c.draw === 'share') {
    if (!isInt(c.of, 2)) errs.push(`of: must be an integer >= 2, got ${JSON.stringify(c.of)}`);
    else if (!isInt(c.index, 0) || (c.index as number) >= (c.of as number))
      errs.push(`index: must be an integer in [0, ${(c.of as number) - 1}], got ${JSON.stringify(c.index)}`);
    for (const k of ['size', 'seed', 'stream'])
      if (c[k] !== undefined) errs.push(`${k}: only for draw 'random'`);
  }
  return errs;
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
