// The cells of a sweep whose two agents by axes are tiny builds (one block, 16 wide, 300 problems, 30
// steps of one rung; seeds 1 and 2, so two distinct cache entries): the pre-pass tests build them in seconds.
import { planSweep, type Cell } from './grid';

const tiny = (id: string, seed: number) => ({
  id,
  family: 'nat-rope',
  seed,
  arch: { nLayer: 1, nEmbd: 16 },
  corpus: { draw: 'random', size: 300 },
  recipe: { stop: 'budget', maxSteps: 30, evalEvery: 30, valSize: 20, band: [0, 1], sampledBand: [0, 1] },
});

/** The two tiny agents by axes, and their task (`npm run pretrain -- --config`'s tests build them too). */
export const TINY_AGENTS = [tiny('A', 1), tiny('B', 2)];
export const TINY_TASK = { kind: 'addw', digits: 2 };

/** The planned cells (one per RL seed of `seeds`), every one needing both builds. */
export function tinyBuildCells(seeds: number[] = [1]): Cell[] {
  const r = planSweep({
    name: 'tiny-builds',
    steps: 2,
    methods: ['co-rl'],
    task: TINY_TASK,
    cohort: { agents: TINY_AGENTS },
    train: { batchPrompts: 2, samples: 2 },
    eval: { every: 2, problems: 10, ensembleSamples: 1 },
    grid: { seed: seeds },
  });
  if (!r.ok) throw new Error(r.errors.join('; '));
  return r.plan.cells;
}
