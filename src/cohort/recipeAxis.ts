// The `recipe` axis of an agent spec (docs/cohorts.md "Agents by axes"): a partial override of its family's
// pretraining recipe (src/cohort/families.ts PretrainRecipe), so a pretraining probe is a config file
// (docs/method.md, "The regime": every choice of recipe and steps is made on validation). Only the listed
// fields may be overridden (the mix stays the family's: region mixes are the engineered worked example);
// every bad field is named with its valid range. The override is part of the build's content address.
import type { PretrainRecipe } from './familySpec';
import * as v from 'valibot';
import { int, num } from '../schema';
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
  'pathFeature',
] as const;

/** A recipe override as an agent spec holds it. */
export type RecipeOverride = Partial<Pick<PretrainRecipe, (typeof RECIPE_FIELDS)[number]>>;

/** The largest share of noisy targets a recipe may ask for. */
export const MAX_NOISE = 0.5;

const share = num(0, 1);
const BAND = v.pipe(
  v.strictTuple([share, share]),
  v.check(([lo, hi]) => lo <= hi),
);
/** A recipe override's rules (schema layer), each with what the message says it must be. */
const RECIPE_RULES: readonly [string, v.GenericSchema, string][] = [
  ...(
    [
      ['maxSteps', 1, 1_000_000],
      ['batch', 1, 4096],
      ['warmupSteps', 0, 1_000_000],
      ['bandSamples', 1, 64],
      ['evalEvery', 1, 1_000_000],
      ['valSize', 10, 100_000],
    ] as const
  ).map(([k, lo, hi]): [string, v.GenericSchema, string] => [k, int(lo, hi), `an integer in [${lo}, ${hi}]`]),
  ['lr', num(0, 1, true), 'a number in (0, 1]'],
  ['stop', v.picklist(['band', 'budget', 'plateau']), `'band', 'budget' or 'plateau'`],
  ['band', BAND, 'a pair [lo, hi] with 0 <= lo <= hi <= 1'],
  ['sampledBand', BAND, 'a pair [lo, hi] with 0 <= lo <= hi <= 1'],
  ['plateauTolerance', share, 'a number in [0, 1]'],
  [
    'corpusLadder',
    v.pipe(v.array(int(10, 10_000_000)), v.nonEmpty()),
    'a non-empty array of corpus sizes (integers >= 10)',
  ],
  [
    'noise',
    num(0, MAX_NOISE),
    `a share in [0, ${MAX_NOISE}] of pretraining examples whose answer is made wrong`,
  ],
  ['pathFeature', share, 'a share in [0, 1] of problems whose working path follows their feature'],
];

/** Problems with a raw recipe override (parsed JSON), each naming the field; [] when valid. */
export function recipeErrors(raw: unknown): string[] {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    return [`must be an object with any of ${RECIPE_FIELDS.join(', ')}, got ${JSON.stringify(raw)}`];
  const r = raw as Record<string, unknown>;
  const errs = Object.keys(r)
    .filter((k) => !(RECIPE_FIELDS as readonly string[]).includes(k))
    .map((k) => `${k}: unknown field (allowed: ${RECIPE_FIELDS.join(', ')})`);
  for (const [k, rule, want] of RECIPE_RULES)
    if (r[k] !== undefined && !v.is(rule, r[k]))
      errs.push(`${k}: must be ${want}, got ${JSON.stringify(r[k])}`);
  if (r.paths !== undefined) errs.push(...workPathMixErrors(r.paths).map((e) => `paths: ${e}`));
  else if (r.pathFeature !== undefined)
    errs.push(
      'pathFeature: needs paths (the mix the feature draws from), e.g. "paths": { "chain": 1, "addin": 1 }',
    );
  return errs;
}
