// The policy pass in row passes against one pass of every row, on any backend (src/rl/policy.ts,
// train.rowsPerPass): a fresh small model's log-probs, entropies, self-certainties and gradient over 13
// rollout-like rows, in one pass and in passes of 5, 5, 3 and of 4, 4, 4, 1. Run in Node on the CPU reference
// and the wasm engine (src/rl/rowPasses.test.ts) and in the page on WebGPU (rowPasses.browsercheck.ts).
import { resolvePending, type Backend } from '../engine/backend';
import { makeUniformStream } from '../engine/random';
import { makeGPTConfig } from '../model/config';
import { GPT } from '../model/gpt';
import {
  policyBackward,
  releasePolicyBuffers,
  startPolicyForward,
  type PolicyRows,
  type TokenFigures,
} from './policy';
import { maxAbsDiff } from '../util/diff';

/** Rollout-like rows: a prompt of Tp tokens, then completions of random length padded after EOS. */
export function rolloutRows(R: number, Tp: number, maxNew: number, V: number, seed: number): PolicyRows {
  const r = makeUniformStream(seed);
  const L = Tp + maxNew;
  const seq = new Uint32Array(R * L).map(() => Math.floor(r() * V));
  const mask = new Float32Array(R * maxNew);
  for (let i = 0; i < R; i++) {
    const len = 1 + Math.floor(r() * maxNew);
    for (let j = 0; j < len; j++) mask[i * maxNew + j] = 1;
  }
  return { R, Tp, maxNewTokens: maxNew, seq, mask };
}

/** One policy forward and backward of a fresh model (rope, 2 layers, width 8) over `rows`: figures and gradient. */
export async function policyPass(
  be: Backend,
  rows: PolicyRows,
  rowsPerPass?: number,
): Promise<{ figs: TokenFigures; grads: Float32Array }> {
  const cfg = makeGPTConfig({
    vocabSize: 11,
    blockSize: 12,
    nLayer: 2,
    nHead: 2,
    nEmbd: 8,
    mlpRatio: 2,
    pos: 'rope',
    seed: 9,
  });
  const model = new GPT(be, cfg);
  const [figs] = await resolvePending(be, [
    startPolicyForward(model, rows, 0.7, { entropy: true, certainty: true }, rowsPerPass),
  ]);
  const r = makeUniformStream(3);
  const weights = Float32Array.from(rows.mask, (m) => (m ? r() - 0.5 : 0));
  model.zeroGrad();
  policyBackward(model, rows, weights, 0.7);
  const grads = (await be.read(model.grads)) as Float32Array;
  releasePolicyBuffers(model);
  model.free();
  return { figs, grads };
}

/** Largest absolute difference over the largest magnitude of `b`. */
export function maxRelDiff(a: Float32Array, b: Float32Array): number {
  let scale = 0;
  for (const x of b) scale = Math.max(scale, Math.abs(x));
  return maxAbsDiff(a, b) / scale;
}

/** What the check found: per split, the largest difference from one pass. */
export interface RowPassReport {
  ok: boolean;
  lines: string[];
  figures: {
    /** Largest |difference| of log-probs, entropies and self-certainties, over both splits. */
    maxFigureDiff: number;
    /** Largest relative difference of the gradient, over both splits. */
    maxGradRelDiff: number;
    /** The gradient's relative difference for other rows (the comparison can tell gradients apart). */
    otherRowsGradRelDiff: number;
  };
}

/** One pass against passes of at most 5 and 4 rows, within `tol` (relative for the gradient). */
export async function rowPassParity(
  be: Backend,
  tol = { figures: 1e-5, grad: 1e-5 },
): Promise<RowPassReport> {
  const rows = rolloutRows(13, 4, 7, 11, 21);
  const one = await policyPass(be, rows);
  const lines: string[] = [];
  let maxFigureDiff = 0;
  let maxGradRelDiff = 0;
  for (const cap of [5, 4]) {
    const split = await policyPass(be, rows, cap);
    const fig = Math.max(
      maxAbsDiff(split.figs.logp, one.figs.logp),
      maxAbsDiff(split.figs.entropy!, one.figs.entropy!),
      maxAbsDiff(split.figs.certainty!, one.figs.certainty!),
    );
    const grad = maxRelDiff(split.grads, one.grads);
    lines.push(
      `passes of at most ${cap} rows: figures differ by ${fig.toExponential(2)}, gradient by ${grad.toExponential(2)} (relative)`,
    );
    maxFigureDiff = Math.max(maxFigureDiff, fig);
    maxGradRelDiff = Math.max(maxGradRelDiff, grad);
  }
  const other = maxRelDiff((await policyPass(be, rolloutRows(13, 4, 7, 11, 22), 5)).grads, one.grads);
  lines.push(`other rows: gradient differs by ${other.toExponential(2)} (relative)`);
  const ok =
    maxFigureDiff <= tol.figures &&
    maxGradRelDiff <= tol.grad &&
    other > 1e-2 &&
    one.grads.some((g) => g !== 0);
  return { ok, lines, figures: { maxFigureDiff, maxGradRelDiff, otherRowsGradRelDiff: other } };
}
