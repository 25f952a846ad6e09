// The rules of a sweep config's own keys (schema layer, src/schema/): the engine, the grid's shape and the
// include and exclude lists (the registration keys' are in registration.ts). The experiment fields of the base and every cell
// are the experiment config's (src/rl/configSchema.ts); grid.ts checks paths and expands the cells.
import * as v from 'valibot';
import { isObj, show } from '../schema';
import { SWEEP_BACKENDS } from './backends';

type Issue = v.BaseIssue<unknown>;

/** The engine every cell runs on (absent or null: wasm). */
export const BACKEND = v.nullish(
  v.picklist(
    SWEEP_BACKENDS,
    (i: Issue) => `must be one of ${SWEEP_BACKENDS.join(', ')} (default wasm), got ${show(i.input)}`,
  ),
  'wasm',
);

const gridMsg = (i: Issue) =>
  `must be a non-empty object of axes, e.g. { "seed": [1, 2, 3], "cohort.preset": ["paper-demo", "ring"] }, got ${show(i.input)}`;
/** `grid`: an object of axes, at least one. */
export const GRID = v.pipe(
  v.custom<Record<string, unknown>>(isObj, gridMsg),
  v.check((g) => Object.keys(g).length > 0, gridMsg),
);

const axisMsg = (i: Issue) =>
  `must be a non-empty list of values, got ${show(i.input)} (an empty axis makes an empty sweep)`;
/** One axis: the values it takes, at least one. */
export const AXIS_VALUES = v.pipe(v.array(v.unknown(), axisMsg), v.nonEmpty(axisMsg));

/** `include` and `exclude`: lists of { path: value } objects. */
export const ASSIGNMENTS = v.custom<Record<string, unknown>[]>(
  (x) => Array.isArray(x) && x.every(isObj),
  (i) => `must be a list of { "path": value, ... } objects, got ${show(i.input)}`,
);
