// The policy pass in row passes (train.rowsPerPass, src/rl/policy.ts): the rows split as few and as even as
// the cap allows; the forward's figures are the same numbers as one pass of every row, the gradient the same up
// to the order of its sums, on the CPU reference and on the wasm engine (the engine whose 4 GiB a B 256 x K 16
// batch outgrew); and the config field refuses bad values. The activations held at once: activationMemory.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Backend } from '../engine/backend';
import { CpuBackend } from '../engine/cpu/cpuBackend';
import { makeUniformStream } from '../engine/random';
import { WasmBackend } from '../engine/wasm/wasmBackend';
import { makeGPTConfig } from '../model/config';
import { GPT } from '../model/gpt';
import { DEFAULT_EVAL, DEFAULT_TRAIN, parseExperimentConfig } from './config';
import {
  policyBackward,
  releasePolicyBuffers,
  rowPasses,
  startPolicyForward,
  type PolicyRows,
} from './policy';
import { resolvePending } from '../engine/backend';

describe('rowPasses', () => {
  it('splits R rows into as few passes as the cap allows, even where R divides', () => {
    const sizes = (R: number, cap?: number) => rowPasses(R, cap).map((p) => p.R);
    expect(sizes(4096)).toEqual([4096]);
    expect(sizes(4096, 4096)).toEqual([4096]);
    expect(sizes(4096, 9999)).toEqual([4096]);
    expect(sizes(4096, 2048)).toEqual([2048, 2048]);
    expect(sizes(4096, 3000)).toEqual([2048, 2048]); // two passes are needed; the same two, evenly
    expect(sizes(10, 3)).toEqual([3, 3, 3, 1]);
    expect(sizes(10, 1)).toEqual(Array(10).fill(1));
    const ps = rowPasses(10, 4);
    expect(ps).toEqual([
      { r0: 0, R: 4 },
      { r0: 4, R: 4 },
      { r0: 8, R: 2 },
    ]);
  });
});

/** Rollout-like rows: a prompt of Tp tokens, then completions of random length padded after EOS. */
function rows(R: number, Tp: number, maxNew: number, V: number, seed: number): PolicyRows {
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

/** One policy forward and backward of a fresh model: its figures and gradient. */
async function pass(be: Backend, rs: PolicyRows, rowsPerPass?: number) {
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
    startPolicyForward(model, rs, 0.7, { entropy: true, certainty: true }, rowsPerPass),
  ]);
  const r = makeUniformStream(3);
  const weights = Float32Array.from(rs.mask, (m) => (m ? r() - 0.5 : 0));
  model.zeroGrad();
  policyBackward(model, rs, weights, 0.7);
  const grads = (await be.read(model.grads)) as Float32Array;
  releasePolicyBuffers(model);
  model.free();
  return { figs, grads };
}

function maxRelDiff(a: Float32Array, b: Float32Array): number {
  let scale = 0;
  let diff = 0;
  for (let i = 0; i < a.length; i++) {
    scale = Math.max(scale, Math.abs(a[i]));
    diff = Math.max(diff, Math.abs(a[i] - b[i]));
  }
  return diff / scale;
}

let wasm: WasmBackend;
beforeAll(async () => {
  wasm = await WasmBackend.create();
});
afterAll(() => wasm.destroy());

describe('the policy pass in row passes', () => {
  for (const [engine, be] of [
    ['cpu', () => new CpuBackend()],
    ['wasm', () => wasm],
  ] as const) {
    it(`${engine}: the same figures and gradient as one pass (13 rows in passes of 5, 5, 3 and of 4, 4, 4, 1)`, async () => {
      const rs = rows(13, 4, 7, 11, 21);
      const one = await pass(be(), rs);
      for (const cap of [5, 4]) {
        const split = await pass(be(), rs, cap);
        // every row's figures come from its own forward: the same numbers, wherever the row sits in a pass
        expect(split.figs.logp).toEqual(one.figs.logp);
        expect(split.figs.entropy).toEqual(one.figs.entropy);
        expect(split.figs.certainty).toEqual(one.figs.certainty);
        // the gradient sums the passes' gradients: the same up to the order of the sums
        expect(one.grads.some((g) => g !== 0)).toBe(true);
        expect(maxRelDiff(split.grads, one.grads)).toBeLessThan(1e-5);
      }
      // and the check can fail: other weights on the rows give another gradient
      const other = await pass(be(), rows(13, 4, 7, 11, 22), 5);
      expect(maxRelDiff(other.grads, one.grads)).toBeGreaterThan(1e-2);
    });
  }
});

describe('train.rowsPerPass in an experiment config', () => {
  const cfg = (rowsPerPass: unknown) => ({
    steps: 1,
    methods: ['gt'],
    cohort: { preset: 'paper-demo' },
    train: { ...DEFAULT_TRAIN, rowsPerPass },
    eval: DEFAULT_EVAL,
  });
  it('takes a positive integer and refuses anything else, naming the field', () => {
    const ok = parseExperimentConfig(cfg(256));
    expect(ok.ok && ok.config.train.rowsPerPass).toBe(256);
    for (const bad of [0, -4, 2.5, 'all', null]) {
      const r = parseExperimentConfig(cfg(bad));
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.errors.join('\n')).toMatch(/train\.rowsPerPass/);
    }
  });
  it('is absent unless given, so configs without it keep their sweep cell ids', () => {
    const { rowsPerPass: _drop, ...train } = cfg(1).train;
    const r = parseExperimentConfig({ ...cfg(1), train });
    expect(r.ok && 'rowsPerPass' in r.config.train).toBe(false);
  });
});
