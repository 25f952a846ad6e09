// The composer's field rules (schema layer): what each field of a composed agent must be, with the
// messages the Train view shows (customCohort.ts customAgentProblems prefixes them with the agent).
import * as v from 'valibot';
import { FAMILY_NAMES } from '../cohort/families';
import type { FamilySpec } from '../cohort/familySpec';
import { int, isObj, show } from '../schema';
import { VIEW_NAMES } from '../tasks';

/** Where a composed agent's base checkpoint may come from. */
export const AGENT_SOURCES = ['shipped', 'pretrain', 'imported'] as const;

/** Largest seed an agent may have (the experiment config's range). */
export const MAX_AGENT_SEED = 0xffffffff;

type Msg = (x: unknown) => string;
const at = (m: Msg) => (issue: v.BaseIssue<unknown>) => m(issue.input);
/** One of `names` (strings only: a name like "toString" is not a field of the table). */
const named = (names: readonly string[], m: Msg) => v.picklist(names, at(m));

const idMsg = 'the id must be 1-16 letters, digits, - or _';

/** Each field's rule; the messages name the field and its valid values. */
export const AGENT_RULES = {
  list: v.pipe(
    v.array(
      v.unknown(),
      at((x) => `the agent list must be a list, got ${JSON.stringify(x)}`),
    ),
    v.nonEmpty('add at least one agent'),
  ),
  item: v.custom(
    isObj,
    at((x) => `must be an object { id, family, size, seed, view, source }, got ${JSON.stringify(x)}`),
  ),
  id: v.pipe(v.string(idMsg), v.regex(/^[A-Za-z0-9_-]{1,16}$/, idMsg)),
  family: named(
    FAMILY_NAMES,
    (x) => `unknown family ${JSON.stringify(x)} (families: ${FAMILY_NAMES.join(', ')})`,
  ),
  seed: int(
    0,
    MAX_AGENT_SEED,
    (x) => `the seed must be an integer in [0, ${MAX_AGENT_SEED}], got ${show(x)}`,
  ),
  view: named(VIEW_NAMES, (x) => `unknown view ${JSON.stringify(x)} (views: ${VIEW_NAMES.join(', ')})`),
  source: named(AGENT_SOURCES, (x) => `unknown source ${JSON.stringify(x)} (${AGENT_SOURCES.join(' | ')})`),
  importKey: v.pipe(
    v.string('source "imported file" without a file; import one or choose another source'),
    v.nonEmpty('source "imported file" without a file; import one or choose another source'),
  ),
};

/** The rule of a size of family `name`: one of its named sizes. */
export function sizeRule(name: string, fam: FamilySpec) {
  const sizes = Object.keys(fam.sizes);
  return named(sizes, (x) => `family ${name} has no size ${JSON.stringify(x)} (sizes: ${sizes.join(', ')})`);
}

/**
 * How the messages name agent `i` (0-based) with id `id`: "agent 2 (B)", "agent 2" without an id; an id
 * that is no text (a refused one) as String() writes it, or as JSON where String() cannot (`{"toString": 1}`).
 */
export function agentLabel(id: unknown, i: number): string {
  if (!id) return `agent ${i + 1}`;
  let name: string;
  try {
    name = String(id);
  } catch {
    name = show(id);
  }
  return `agent ${i + 1} (${name})`;
}
