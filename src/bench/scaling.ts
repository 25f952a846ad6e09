// The scaling table of `npm run bench` (issue 13, item 4): Co-RL step time and engine memory against agent
// size (about 15k, 50k, 200k and 1M parameters) and against B x K (16, 128, 512), the same cells and row
// code on every engine (Node runs cpu and wasm, the bench page WebGPU); rows past caps or a time budget
// are listed as skipped with the reason. The agents have the paper-demo cohort's tokenizers, views, task
// and positional variants, with the architecture of the size (every agent alike); freshly initialised,
// so the figures depend on shapes only.
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

/** A row of the table: measured, or skipped (stepMs and bytesHeld null, `skipped` says why). */
export interface ScalingRow {
  backend: string;
  size: string;
  /** Parameters of each agent (they differ by vocabulary only); empty when skipped. */
  params: number[];
  B: number;
  K: number;
  /** Median wall ms of the timed Co-RL steps (after one warm-up step). */
  stepMs: number | null;
  timedSteps: number;
  /**
   * The engine's counters.bytesHeld after the last step (live tensors plus pooled blocks) minus before the
   * cohort was built: all of it on a fresh backend per cell (cpu, wasm); on the page's one WebGPU backend
   * the cells reuse pooled buffers of earlier ones, so there it counts what this cell added.
   */
  bytesHeld: number | null;
  skipped: string | null;
}

/** Limits on the rows one engine runs (`--device`'s --scaling-* flags for WebGPU). */
export interface ScalingCaps {
  /** Largest agent (about 12 x layers x width^2 parameters) to run. */
  maxParams: number;
  /** Largest B x K to run. */
  maxBk: number;
  /** Start no row once this much wall time (ms) is spent on the engine's rows. */
  budgetMs: number;
}

/** No limits: every cell runs (the plain `npm run bench`). */
export const NO_CAPS: ScalingCaps = { maxParams: Infinity, maxBk: Infinity, budgetMs: Infinity };

/** Where a table's backends come from: a fresh one per cell (`release` destroys it) or one shared. */
export interface ScalingEngine {
  name: string;
  make: () => Promise<Backend>;
  release: (be: Backend) => void;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Co-RL steps of one cell: one warm-up, then `timed` steps (fewer for the large sizes keeps it short). */
export async function scalingRow(backend: Backend, cell: ScalingCell, timed: number): Promise<ScalingRow> {
  const { nLayer, nEmbd, nHead } = cell.size;
  const before = backend.counters.bytesHeld;
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
      bytesHeld: backend.counters.bytesHeld - before,
      skipped: null,
    };
  } finally {
    tr.dispose();
    for (const a of agents) {
      releaseDecoders(a.model);
      a.model.free();
    }
  }
}

/** Why `cell` is not run under `caps` after `spentMs` (null: run it). */
export function skipReason(cell: ScalingCell, caps: ScalingCaps, spentMs: number): string | null {
  const approx = 12 * cell.size.nLayer * cell.size.nEmbd * cell.size.nEmbd;
  const bk = cell.B * cell.K;
  if (approx > caps.maxParams) return `size cap: about ${approx} params > max ${caps.maxParams}`;
  if (bk > caps.maxBk) return `B x K cap: ${bk} > max ${caps.maxBk}`;
  if (spentMs > caps.budgetMs) return `time budget of ${(caps.budgetMs / 1000).toFixed(0)} s spent`;
  return null;
}

/** Every cell on `engine`, skipping the cells past `caps` (named in the row). */
export async function scalingRows(
  engine: ScalingEngine,
  cells: readonly ScalingCell[],
  caps: ScalingCaps = NO_CAPS,
  log: (s: string) => void = () => {},
): Promise<ScalingRow[]> {
  const t0 = performance.now();
  const rows: ScalingRow[] = [];
  for (const cell of cells) {
    const skipped = skipReason(cell, caps, performance.now() - t0);
    if (skipped) {
      const { B, K } = cell;
      rows.push({
        backend: engine.name,
        size: cell.size.label,
        params: [],
        B,
        K,
        stepMs: null,
        timedSteps: 0,
        bytesHeld: null,
        skipped,
      });
      log(`scaling ${engine.name} ${cell.size.label} BxK=${B * K}: skipped (${skipped})`);
      continue;
    }
    const be = await engine.make();
    try {
      const big = cell.size.nEmbd * cell.size.nEmbd * cell.size.nLayer * cell.B * cell.K > 5e6;
      const r = await scalingRow(be, cell, big ? 1 : 3);
      log(
        `scaling ${r.backend} ${r.size} (${r.params.join('/')} params) BxK=${r.B * r.K}: ${r.stepMs!.toFixed(0)} ms/step, ${(r.bytesHeld! / 2 ** 20).toFixed(2)} MiB held`,
      );
      rows.push(r);
    } finally {
      engine.release(be);
    }
  }
  return rows;
}

/** The table's summary: per cell, each engine's ms per step and bytes (null where skipped or not run). */
export function scalingTable(
  cells: readonly ScalingCell[],
  rows: readonly ScalingRow[],
  engines: readonly string[] = ['cpu', 'wasm', 'webgpu'],
): Record<string, unknown>[] {
  return cells.map((c) => {
    const out: Record<string, unknown> = { size: c.size.label, BxK: c.B * c.K };
    for (const e of engines) {
      const r = rows.find((x) => x.backend === e && x.size === c.size.label && x.B === c.B && x.K === c.K);
      out[`${e}Ms`] = r?.stepMs ?? null;
      out[`${e}Bytes`] = r?.bytesHeld ?? null;
      if (r?.skipped) out[`${e}Skipped`] = r.skipped;
      if (!r) out[`${e}Skipped`] = 'not run';
    }
    return out;
  });
}
