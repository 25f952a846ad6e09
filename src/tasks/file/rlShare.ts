// RL prompts of a file task come from train rows no base agent pretrained on (docs/tasks.md "Bring your own
// task"): the train split is halved by a hash of the prompt into a pretraining half (what `sampleSplit`
// ('train') and the pretraining pools draw from) and an RL half (what `sampleTrain`, the trainer's prompts,
// draws from). The validation and test splits are untouched.
import { TaskConfigError } from '../config';
import { deriveRng, hashString, type Rng } from '../../util/rng';
import type { Problem, SplitSelector, Task } from '../taskTypes';

const SHARE_SALT = 'co-rl-file-rl-share-v1|';

/** True if a train problem's key puts it in the RL half. */
const inRlHalf = (key: string): boolean => hashString(SHARE_SALT + key) % 2 === 1;

/** `n` distinct entries of `list` drawn with `rng` (partial Fisher-Yates on a copy). */
function draw(list: readonly Problem[], rng: Rng, n: number, what: string, name: string): Problem[] {
  if (!Number.isInteger(n) || n < 0) throw new Error(`${what}: n must be a non-negative integer, got ${n}`);
  if (n > list.length)
    throw new TaskConfigError([
      `requested ${n} distinct ${what} problems but ${name} has only ${list.length}`,
    ]);
  const pool = [...list];
  for (let i = 0; i < n; i++) {
    const j = i + rng.int(pool.length - i);
    [pool[i], pool[j]] = [pool[j], pool[i]];
  }
  return pool.slice(0, n);
}

/** The task with its train split halved into pretraining and RL prompts (file tasks; see the header). */
export function withRlShare(t: Task): Task {
  const all = t
    .sampleSplit('train', deriveRng(0, 'file-train-all'), t.sizes.train)
    .sort((a, b) => a.values[0] - b.values[0]);
  const pretrain = all.filter((p) => !inRlHalf(p.key));
  const rl = all.filter((p) => inRlHalf(p.key));
  const validation = t.heldOut('validation', t.sizes.validation);
  const union = [...pretrain, ...validation].sort((a, b) => a.values[0] - b.values[0]);
  const sampleSplit = (split: SplitSelector, rng: Rng, n: number): Problem[] =>
    split === 'train'
      ? draw(pretrain, rng, n, 'train (pretraining half)', t.name)
      : split === 'train+validation'
        ? draw(union, rng, n, 'train (pretraining half) + validation', t.name)
        : t.sampleSplit(split, rng, n);
  return {
    ...t,
    sizes: { ...t.sizes, train: pretrain.length, rl: rl.length },
    sampleSplit,
    sampleTrain: (rng, n) => draw(rl, rng, n, 'train (RL half)', t.name),
  };
}
