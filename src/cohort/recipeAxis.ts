// The `recipe` axis of an agent spec (docs/cohorts.md "Agents by axes"): a partial override of its family's
// pretraining recipe (src/cohort/families.ts PretrainRecipe), so a pretraining probe is a config file
// (docs/method.md, "The regime": every choice of recipe and steps is made on validation). Only the listed
// fields may be overridden (the mix stays the family's: region mixes are the engineered worked example);
// every bad field is named with its valid range. The override is part of the build's content address.
import type { PretrainRecipe } from './familySpec';
import { workPathMixErrors } from './workPathMix';

/** Recipe fields an agent spec may override. */
export const RECIPE_FIELDS = [
  'maxSteps',
  'batch',
  'lr',
  'warmupSteps',
  'stop',
  'band',
  'sampledBand',
  'bandSamples',
  'evalEvery',
  'valSize',
  'plateauTolerance',
  'corpusLadder',
  'noise',
  'paths',
] as const;

/** A recipe override as an agent spec holds it. */
export type RecipeOverride = Partial<Pick<PretrainRecipe, (typeof RECIPE_FIELDS)[number]>>;

/** The largest share of noisy targets a recipe may ask for. */
export const MAX_NOISE = 0.5;

const isInt = (v: unknown, lo: number, hi: number): boolean =>
  typeof v === 'number' && Number.isInteger(v) && v >= lo && v <= hi;
const isNum = (v: unknown, lo: number, hi: number): boolean =>
  typeof v === 'number' && Number.isFinite(v) && v >= lo && v <= hi;
const isBand = (v: unknown): boolean =>
  Array.isArray(v) && v.length === 2 && isNum(v[0], 0, 1) && isNum(v[1], 0, 1) && v[0] <= v[1];

/** Problems with a raw recipe override (parsed JSON), each naming the field; [] when valid. */
export function recipeErrors(raw: unknown): string[] {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    return [`must be an object with any of ${RECIPE_FIELDS.join(', ')}, got ${JSON.stringify(raw)}`];
  const r = raw as Record<string, unknown>;
  const errs = Object.keys(r)
    .filter((k) => !(RECIPE_FIELDS as readonly string[]).includes(k))
    .map((k) => `${k}: unknown field (allowed: ${RECIPE_FIELDS.join(', ')})`);
  const bad = (k: string, want: string): void =>
    void errs.push(`${k}: must be ${want}, got ${JSON.stringify(r[k])}`);
  for (const [k, lo, hi] of [
    ['maxSteps', 1, 1_000_000],
    ['batch', 1, 4096],
    ['warmupSteps', 0, 1_000_000],
    ['bandSamples', 1, 64],
    ['evalEvery', 1, 1_000_000],
    ['valSize', 10, 100_000],
  ] as const)
    if (r[k] !== undefined && !isInt(r[k], lo, hi)) bad(k, `an integer in [${lo}, ${hi}]`);
  if (r.lr !== undefined && !(isNum(r.lr, 0, 1) && (r.lr as number) > 0)) bad('lr', 'a number in (0, 1]');
  if (r.stop !== undefined && r.stop !== 'band' && r.stop !== 'budget' && r.stop !== 'plateau')
    bad('stop', `'band', 'budget' or 'plateau'`);
  for (const k of ['band', 'sampledBand'])
    if (r[k] !== undefined && !isBand(r[k])) bad(k, 'a pair [lo, hi] with 0 <= lo <= hi <= 1');
  if (r.plateauTolerance !== undefined && !isNum(r.plateauTolerance, 0, 1))
    bad('plateauTolerance', 'a number in [0, 1]');
  if (
    r.corpusLadder !== undefined &&
    !(
      Array.isArray(r.corpusLadder) &&
      r.corpusLadder.length > 0 &&
      r.corpusLadder.every((n) => isInt(n, 10, 10_000_000))
    )
  )
    bad('corpusLadder', 'a non-empty array of corpus sizes (integers >= 10)');
  if (r.noise !== undefined && !isNum(r.noise, 0, MAX_NOISE))
    bad('noise', `a share in [0, ${MAX_NOISE}] of pretraining examples whose answer is made wrong`);
  if (r.paths !== undefined) errs.push(...workPathMixErrors(r.paths).map((e) => `paths: ${e}`));
  return errs;
}
