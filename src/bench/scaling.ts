// The scaling table of `npm run bench` (issue 13): Co-RL step time and engine memory against agent size
// (about 15k, 50k, 200k and 1M parameters) and against B x K (16, 128, 512), on any backend (Node for
// cpu and wasm; a page can call scalingRows with its WebGPU backend: the hook the WebGPU side fills). The
// agents have the paper-demo cohort's tokenizers, views, task and positional variants, with the
// architecture of the size (every agent alike); freshly initialised, so the figures depend on shapes only.
import type { Backend } from '../engine/backend';
import { releaseDecoders } from '../model/generate';
import { DEFAULT_EVAL, DEFAULT_TRAIN } from '../rl/config';
import { presetShapedAgents } from '../rl/leanFigures';
import { CohortTrainer } from '../rl/trainer';

/** An agent architecture of the table. */
export interface ScalingSize {
  label: string;
  nLayer: number;
  nEmbd: number;
  nHead: number;
}

/** The four sizes (head sizes even, as rotary positions need). */
export const SCALING_SIZES: readonly ScalingSize[] = [
  { label: '15k', nLayer: 2, nEmbd: 24, nHead: 4 },
  { label: '50k', nLayer: 2, nEmbd: 44, nHead: 2 },
  { label: '200k', nLayer: 4, nEmbd: 64, nHead: 4 },
  { label: '1M', nLayer: 5, nEmbd: 128, nHead: 4 },
];

/** B x K = prompts x samples of the B x K sweep (at the 15k size). */
export const SCALING_BK: readonly { B: number; K: number }[] = [
  { B: 2, K: 8 },
  { B: DEFAULT_TRAIN.batchPrompts, K: DEFAULT_TRAIN.samples },
  { B: 64, K: 8 },
];

/** One cell of the table. */
export interface ScalingCell {
  size: ScalingSize;
  B: number;
  K: number;
}

/** The table's cells: every size at the default B x K, then every B x K at the smallest size. */
export function scalingCells(sizes: readonly ScalingSize[] = SCALING_SIZES): ScalingCell[] {
  const def = { B: DEFAULT_TRAIN.batchPrompts, K: DEFAULT_TRAIN.samples };
  const bySize = sizes.map((size) => ({ size, ...def }));
  const byBK = SCALING_BK.filter((bk) => bk.B * bk.K !== def.B * def.K).map((bk) => ({
    size: sizes[0],
    ...bk,
  }));
  return [...bySize, ...byBK];
}

/** A measured row. */
export interface ScalingRow {
  backend: string;
  size: string;
  /** Parameters of each agent (they differ by vocabulary only). */
  params: number[];
  B: number;
  K: number;
  /** Median wall ms of the timed Co-RL steps (after one warm-up step). */
  stepMs: number;
  timedSteps: number;
  /** The engine's counters.bytesHeld after the last step (live tensors plus pooled blocks). */
  bytesHeld: number;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Co-RL steps of one cell: one warm-up, then `timed` steps (fewer for the large sizes keeps it short). */
export async function scalingRow(backend: Backend, cell: ScalingCell, timed: number): Promise<ScalingRow> {
  const { nLayer, nEmbd, nHead } = cell.size;
  const { agents, task } = presetShapedAgents(backend, 'paper-demo', { nLayer, nEmbd, nHead });
  const train = { ...DEFAULT_TRAIN, batchPrompts: cell.B, samples: cell.K, maxNewTokens: null };
  const tr = new CohortTrainer(backend, agents, {
    method: 'co-rl',
    seed: 3,
    task,
    train,
    eval: { ...DEFAULT_EVAL, problems: 8 },
  });
  const times: number[] = [];
  try {
    for (let s = 0; s < 1 + timed; s++) {
      const t0 = performance.now();
      await tr.step();
      if (s > 0) times.push(performance.now() - t0);
    }
    return {
      backend: backend.info.name,
      size: cell.size.label,
      params: agents.map((a) => a.model.layout.count),
      B: cell.B,
      K: cell.K,
      stepMs: median(times),
      timedSteps: timed,
      bytesHeld: backend.counters.bytesHeld,
    };
  } finally {
    tr.dispose();
    for (const a of agents) {
      releaseDecoders(a.model);
      a.model.free();
    }
  }
}

/** Every cell on `backend` (a fresh backend per cell from `make` keeps bytesHeld per cell). */
export async function scalingRows(
  make: () => Promise<Backend>,
  cells: readonly ScalingCell[],
  log: (s: string) => void = () => {},
): Promise<ScalingRow[]> {
  const rows: ScalingRow[] = [];
  for (const cell of cells) {
    const be = await make();
    try {
      const big = cell.size.nEmbd * cell.size.nEmbd * cell.size.nLayer * cell.B * cell.K > 5e6;
      const r = await scalingRow(be, cell, big ? 1 : 3);
      log(
        `scaling ${r.backend} ${r.size} (${r.params.join('/')} params) BxK=${r.B * r.K}: ${r.stepMs.toFixed(0)} ms/step, ${(r.bytesHeld / 2 ** 20).toFixed(2)} MiB held`,
      );
      rows.push(r);
    } finally {
      be.destroy();
    }
  }
  return rows;
}
