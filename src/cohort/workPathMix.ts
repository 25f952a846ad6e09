// The `paths` recipe lever (docs/method.md, "The regime": working written along more than one valid path,
// each family with its own mix): a recipe's `paths` maps the task's working paths (src/tasks/workPaths.ts)
// to weights, and each corpus problem is pretrained on its working written along one path, drawn from
// those weights by the agent's seed and the problem's key only (so a build is deterministic and one
// problem is always taught along the same path; another seed or mix draws other paths). Absent: the kind's
// own completion (`chain`), byte for byte as before. The mix is in the recipe, so in the build's key.
// `pathFeature` (a share) draws a share of the problems by a feature their prompt shows instead of the key
// (src/tasks/workPaths.ts workPathFeature): all problems with one feature value are taught along one path,
// so the path becomes a function of the problem a model can learn, and two samples of a problem mostly
// take the same path (docs/regime-graded.md, "A path chosen by the problem").
import {
  renderCompletion,
  resolveTaskConfig,
  type Problem,
  type TaskConfig,
  type Tokenizer,
  type ViewName,
} from '../tasks';
import * as v from 'valibot';
import { isObj, problemsWith, reasonWith, show, unknownFields } from '../schema';
import { WORK_PATH_NAMES, pathCompletion, workPathFeature, workPathsOf } from '../tasks/workPaths';
import type { AgentLayout } from './layout';
import { deriveRng } from '../util/rng';

/** A path mix as a recipe holds it: path name -> weight (>= 0, not all 0). */
export type WorkPathMix = Readonly<Record<string, number>>;

const WANT = `an object of path weights, e.g. { "chain": 0.5, "sums": 0.5 } (paths: ${WORK_PATH_NAMES.join(', ')})`;
/** The mix's rules (schema layer): an object of weights, each a finite number >= 0. */
const MIX = v.custom<Record<string, unknown>>(isObj, (i) => `must be ${WANT}, got ${show(i.input)}`);
const weightMsg = (i: v.BaseIssue<unknown>) => `must be a weight >= 0, got ${show(i.input)}`;
const unknownPath = () => `unknown work path (paths: ${WORK_PATH_NAMES.join(', ')})`;
const WEIGHT = v.pipe(v.number(weightMsg), v.finite(weightMsg), v.minValue(0, weightMsg));

/** Problems with a raw `paths` value (parsed JSON), each naming the path; [] when valid. */
export function workPathMixErrors(raw: unknown): string[] {
  const notMix = reasonWith(MIX, raw);
  if (notMix) return [notMix];
  const entries = Object.entries(raw as Record<string, unknown>);
  // in the input's order: an unknown path is named, a known one's weight checked
  const errs = entries.flatMap(([k, w]) =>
    WORK_PATH_NAMES.includes(k)
      ? problemsWith(WEIGHT, w, k)
      : unknownFields({ [k]: w }, '', WORK_PATH_NAMES, unknownPath),
  );
  if (!errs.length && !entries.some(([, w]) => (w as number) > 0))
    errs.push(`must give some path a weight > 0, got ${show(raw)}`);
  return errs;
}

/** Problems of a valid mix against a task: every path with weight must be one of the task kind's. */
export function workPathTaskErrors(mix: WorkPathMix | undefined, task: TaskConfig): string[] {
  if (!mix) return [];
  const { kind } = resolveTaskConfig(task);
  const paths = workPathsOf(kind);
  return Object.keys(mix)
    .filter((k) => !paths.includes(k))
    .map(
      (k) =>
        `paths.${k}: not a work path of task kind '${kind}' (${paths.length ? `its paths: ${paths.join(', ')}` : 'it has no work paths'})`,
    );
}

/**
 * The path `p` is pretrained along by an agent of seed `seed` under `mix` (paths in name order, as the key
 * sorts them): drawn by seed and key, or, for a share `byFeature` of the problems (chosen by seed and
 * key), by seed and the problem's feature.
 */
export function drawWorkPath(p: Problem, mix: WorkPathMix, seed: number, byFeature = 0): string {
  const parts = Object.entries(mix)
    .filter(([, w]) => w > 0)
    .sort(([a], [b]) => (a < b ? -1 : 1));
  const total = parts.reduce((s, [, w]) => s + w, 0);
  const feature = byFeature > 0 && deriveRng(seed, 'work-path-by', p.key).float() < byFeature;
  const rng = feature
    ? deriveRng(seed, 'work-path-feature', workPathFeature(p))
    : deriveRng(seed, 'work-path', p.key);
  let u = rng.float() * total;
  for (const [name, w] of parts) {
    if (u < w) return name;
    u -= w;
  }
  return parts[parts.length - 1][0];
}

/** The correct completion `p` is pretrained on: along its drawn path, or the kind's own without a mix. */
export function workCompletion(
  p: Problem,
  view: ViewName,
  mix: WorkPathMix | undefined,
  seed: number,
  byFeature = 0,
): string {
  return mix ? pathCompletion(p, view, drawWorkPath(p, mix, seed, byFeature)) : renderCompletion(p, view);
}

/**
 * `layout` widened, if need be, so the longest completion of any path of `mix` (over `problems`) fits
 * with EOS; unchanged without a mix (the layout of every existing build stays as it is).
 */
export function pathLayout(
  layout: AgentLayout,
  mix: WorkPathMix | undefined,
  problems: readonly Problem[],
  view: ViewName,
  tok: Tokenizer,
): AgentLayout {
  if (!mix) return layout;
  const paths = Object.keys(mix).filter((k) => mix[k] > 0);
  let longest = layout.maxNewTokens - 1;
  for (const p of problems)
    for (const path of paths) longest = Math.max(longest, tok.encode(pathCompletion(p, view, path)).length);
  const grow = longest + 1 - layout.maxNewTokens;
  return grow > 0
    ? { ...layout, maxNewTokens: layout.maxNewTokens + grow, blockSize: layout.blockSize + grow }
    : layout;
}
