// WebGPU rows of the scaling table (issue 13, item 4): Co-RL step time and engine memory against agent
// size (about 15k, 50k, 200k and 1M parameters) and against B x K (16, 128, 512), for a cohort of the
// default preset's agents resized (every agent gets the size's depth and width; tokenizers, views and
// the task stay the preset's). Runs on any Backend (the bench page passes WebGPU); rows past a time
// budget or a size cap are listed as skipped with the reason, so a slow adapter (SwiftShader) finishes.
import type { Backend } from '../engine/backend';
import { GPT } from '../model/gpt';
import { releaseDecoders } from '../model/generate';
import { DEFAULT_EVAL, DEFAULT_TRAIN, type TrainConfig } from '../rl/config';
import { presetShapedAgents } from '../rl/leanFigures';
import { CohortTrainer } from '../rl/trainer';

/** A scaling size: blocks and width (heads of size 16 or 32, even for rope); the nominal parameter count. */
export interface ScalingSize {
  name: string;
  nLayer: number;
  nEmbd: number;
  nHead: number;
}

/** The four agent sizes of the table (parameter counts near 15k, 50k, 200k and 1M with the preset's vocabularies). */
export const SCALING_SIZES: readonly ScalingSize[] = [
  { name: '15k', nLayer: 2, nEmbd: 24, nHead: 4 },
  { name: '50k', nLayer: 2, nEmbd: 48, nHead: 4 },
  { name: '200k', nLayer: 4, nEmbd: 64, nHead: 4 },
  { name: '1M', nLayer: 5, nEmbd: 128, nHead: 4 },
];
/** The B x K of the table (K = the default samples, B = BK / K). */
export const SCALING_BK: readonly number[] = [16, 128, 512];

export interface ScalingRow {
  backend: string;
  size: string;
  /** Parameters per agent (the first agent's; the cohort has the preset's agents, all at this size). */
  params: number;
  agents: number;
  bk: number;
  /** Median wall ms of a Co-RL step (after one warm-up step), null when skipped. */
  stepMs: number | null;
  /** Engine bytes held after the steps minus before the cohort was built (buffers of this run). */
  engineBytes: number | null;
  skipped: string | null;
}

export interface ScalingOpts {
  /** Largest agent (parameters) to run; larger sizes are skipped. */
  maxParams: number;
  /** Largest B x K to run. */
  maxBk: number;
  /** Stop starting rows once this much wall time is spent (ms). */
  budgetMs: number;
  /** Timed steps per row after the warm-up step. */
  steps: number;
  preset?: string;
}

/** One row: a cohort at `size`, B x K = bk, 1 + steps Co-RL steps. */
async function scalingRow(be: Backend, size: ScalingSize, bk: number, o: ScalingOpts): Promise<ScalingRow> {
  const { agents, task } = presetShapedAgents(be, o.preset);
  const before = be.counters.bytesHeld;
  const resized = agents.map((a) => {
    a.model.free();
    const cfg = { ...a.model.cfg, nLayer: size.nLayer, nEmbd: size.nEmbd, nHead: size.nHead };
    return { ...a, model: new GPT(be, cfg) };
  });
  const params = resized[0].model.layout.count;
  const K = DEFAULT_TRAIN.samples;
  const train: TrainConfig = {
    ...DEFAULT_TRAIN,
    batchPrompts: Math.max(1, Math.round(bk / K)),
    samples: K,
    maxNewTokens: null,
  };
  const tr = new CohortTrainer(be, resized, {
    method: 'co-rl',
    seed: 5,
    task,
    train,
    eval: { ...DEFAULT_EVAL, problems: 8 },
  });
  try {
    const ms: number[] = [];
    for (let s = 0; s <= o.steps; s++) {
      const t0 = performance.now();
      await tr.step();
      if (s > 0) ms.push(performance.now() - t0);
    }
    ms.sort((a, b) => a - b);
    return {
      backend: be.info.name,
      size: size.name,
      params,
      agents: resized.length,
      bk,
      stepMs: ms[Math.floor(ms.length / 2)],
      engineBytes: be.counters.bytesHeld - before,
      skipped: null,
    };
  } finally {
    tr.dispose();
    for (const a of resized) {
      releaseDecoders(a.model);
      a.model.free();
    }
  }
}

/** Every row of the table on `be` (sizes x B x K), skipping rows past the caps or the time budget. */
export async function scalingRows(
  be: Backend,
  o: ScalingOpts,
  log: (s: string) => void = () => {},
): Promise<ScalingRow[]> {
  const t0 = performance.now();
  const rows: ScalingRow[] = [];
  for (const size of SCALING_SIZES) {
    for (const bk of SCALING_BK) {
      const skip = (why: string): void =>
        void rows.push({
          backend: be.info.name,
          size: size.name,
          params: 0,
          agents: 0,
          bk,
          stepMs: null,
          engineBytes: null,
          skipped: why,
        });
      const approx = 12 * size.nLayer * size.nEmbd * size.nEmbd;
      if (approx > o.maxParams)
        skip(`size cap: about ${approx} params > --scaling-max-params ${o.maxParams}`);
      else if (bk > o.maxBk) skip(`B x K cap: ${bk} > --scaling-max-bk ${o.maxBk}`);
      else if (performance.now() - t0 > o.budgetMs)
        skip(`time budget of ${(o.budgetMs / 1000).toFixed(0)} s spent`);
      else {
        const r = await scalingRow(be, size, bk, o);
        log(
          `scaling ${be.info.name} ${size.name} (${r.params} params) B x K ${bk}: ${r.stepMs!.toFixed(0)} ms/step, ${r.engineBytes} engine bytes`,
        );
        rows.push(r);
        continue;
      }
      log(`scaling ${be.info.name} ${size.name} B x K ${bk}: skipped (${rows[rows.length - 1].skipped})`);
    }
  }
  return rows;
}
