// Named regions of a task's problem space (predicates over a problem's field values) and the
// pretraining data pool built from them: a fixed sample of the TRAIN split, a validation slice held
// out of it, and per-region lists that a family's recipe mixes with its own weights. The eval split is
// never touched here (docs/method.md ("Pitfalls")). Regions are plain names so recipes stay JSON.
import {
  makeTask,
  renderCompletion,
  type Problem,
  type Task,
  type TaskConfig,
  type ViewName,
} from '../tasks';
import { deriveRng, type Rng } from '../util/rng';
import { KIND_DEFS } from '../tasks/kinds';
import { unknownName } from './names';

/** A predicate over a problem (its field values); the first two fields are the operands of add/mod. */
type RegionFn = (p: Problem) => boolean;

const unitsCarry = (p: Problem): boolean => (p.values[0] % 10) + (p.values[1] % 10) >= 10;

/** Every named region, with what it means. */
export const REGIONS = {
  all: { doc: 'every problem', fn: (() => true) as RegionFn },
  carry: { doc: 'the units digits carry: (a mod 10) + (b mod 10) >= 10 (first two fields)', fn: unitsCarry },
  'no-carry': { doc: 'the units digits do not carry (first two fields)', fn: (p: Problem) => !unitsCarry(p) },
  'a<b': { doc: 'first field < second field', fn: (p: Problem) => p.values[0] < p.values[1] },
  'a>=b': { doc: 'first field >= second field', fn: (p: Problem) => p.values[0] >= p.values[1] },
} satisfies Record<string, { doc: string; fn: RegionFn }>;

/** A region name. */
export type RegionName = keyof typeof REGIONS;
/** All region names, in display order. */
export const REGION_NAMES = Object.keys(REGIONS) as RegionName[];

/** Return `name` as a region name, or throw listing the valid names. */
export function parseRegion(name: string): RegionName {
  if (!(REGION_NAMES as string[]).includes(name)) throw unknownName('region', name, REGION_NAMES);
  return name as RegionName;
}

/** True if problem `p` lies in region `name`. */
export function inRegion(name: RegionName, p: Problem): boolean {
  return REGIONS[name].fn(p);
}

/** One component of a training mixture: a region and its sampling weight. */
export interface MixPart {
  region: RegionName;
  /** Relative sampling weight (> 0); weights are normalised over the mix. */
  weight: number;
}

/** Most training problems a pool holds (large problem spaces are sampled down to this). */
export const MAX_POOL = 20_000;
/** Seed of the pool's fixed order: every agent and family sees the same pool and validation slice. */
const POOL_SEED = 0xc0407;

/** The pretraining data of one task: a fixed sample of its train split, split into validation and training. */
export interface DataPool {
  task: Task;
  /** Held out of pretraining; used only to decide when to stop. */
  validation: Problem[];
  /** What pretraining samples from. */
  training: Problem[];
}

/**
 * Where a pretraining pool takes its validation problems from:
 * - `split` (natural families): the task's VALIDATION split (its first `valSize` in the fixed order); the
 *   training problems are min(train size, MAX_POOL) TRAIN-split problems. Nothing of the test split.
 * - `pool-slice` (the engineered families shipped before the three-way split, kept so their checkpoints
 *   stay reproducible byte for byte): min(train+validation size, MAX_POOL) problems of the train and
 *   validation splits together, the first `valSize` of them the validation slice. Never the test split.
 */
export type PoolMode = 'split' | 'pool-slice';

/**
 * The pretraining pool of a task, in a fixed seeded order (independent of any agent). Deterministic for
 * a task config, validation size and mode.
 */
export function makeDataPool(
  taskConfig: TaskConfig,
  valSize: number,
  mode: PoolMode = 'pool-slice',
): DataPool {
  const task = makeTask(taskConfig);
  const avail = (n: number): number => Math.min(task.sizes.exact ? n : Math.floor(n / 2), MAX_POOL);
  if (mode === 'split') {
    const n = avail(task.sizes.train);
    const vmax = task.sizes.exact ? task.sizes.validation : Math.floor(task.sizes.validation / 2);
    if (!(Number.isInteger(valSize) && valSize > 0 && valSize <= vmax)) {
      throw new Error(
        `validation set of ${valSize} problems: must be a positive integer up to the validation split's ${vmax} problems (${task.name})`,
      );
    }
    return {
      task,
      validation: task.heldOut('validation', valSize),
      training: task.sampleSplit('train', deriveRng(POOL_SEED, 'pretrain-pool', task.name), n),
    };
  }
  const n = avail(task.sizes.train + task.sizes.validation);
  if (!(Number.isInteger(valSize) && valSize > 0 && valSize < n / 2)) {
    throw new Error(
      `validation slice of ${valSize} problems: must be a positive integer below half the pool (${n} train problems of ${task.name})`,
    );
  }
  const all = task.sampleSplit('train+validation', deriveRng(POOL_SEED, 'pretrain-pool', task.name), n);
  return { task, validation: all.slice(0, valSize), training: all.slice(valSize) };
}

/**
 * A sampler of training problems from `pool` following `mix`: each example first picks a region by
 * weight, then a problem of that region uniformly (with replacement), both from `rng`.
 */
export function mixSampler(
  pool: readonly Problem[],
  mix: readonly MixPart[],
  rng: Rng,
): (n: number) => Problem[] {
  if (mix.length === 0) throw new Error('training mix is empty');
  const parts = mix.map((m) => {
    const region = parseRegion(m.region);
    if (!(m.weight > 0)) throw new Error(`mix weight of region '${region}' must be > 0, got ${m.weight}`);
    const list = pool.filter((p) => inRegion(region, p));
    if (list.length === 0) throw new Error(`region '${region}' holds no training problems of this task`);
    return { list, weight: m.weight };
  });
  const total = parts.reduce((a, p) => a + p.weight, 0);
  return (n) => {
    const out: Problem[] = [];
    for (let i = 0; i < n; i++) {
      let u = rng.float() * total;
      let part = parts[parts.length - 1];
      for (const p of parts) {
        if (u < p.weight) {
          part = p;
          break;
        }
        u -= p.weight;
      }
      out.push(part.list[rng.int(part.list.length)]);
    }
    return out;
  };
}

/**
 * Longest correct completion (characters, without EOS) of a task in a view, over the given problems
 * and the problem with every field at its largest value.
 */
export function longestCompletion(task: Task, view: ViewName, problems: readonly Problem[]): number {
  const maxValues = KIND_DEFS[task.config.kind].radices(task.config).map((r) => r - 1);
  let best = renderCompletion(task.problem(maxValues), view).length;
  for (const p of problems) best = Math.max(best, renderCompletion(p, view).length);
  return best;
}
