// The policy pass in row passes (train.rowsPerPass, src/rl/policy.ts): the rows split as few and as even as
// the cap allows; the forward's figures are the same numbers as one pass of every row, the gradient the same up
// to the order of its sums, on the CPU reference and on the wasm engine (the engine whose 4 GiB a B 256 x K 16
// batch outgrew; WebGPU: e2e/rowPasses.spec.ts); and the config field refuses bad values. The activations held at once: activationMemory.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CpuBackend } from '../engine/cpu/cpuBackend';
import { WasmBackend } from '../engine/wasm/wasmBackend';
import { DEFAULT_EVAL, DEFAULT_TRAIN, parseExperimentConfig } from './config';
import { rowPasses } from './policy';
import { rowPassParity } from './rowPassCheck';

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
      // every row's figures come from its own forward: on these engines the very same numbers, wherever the row
      // sits in a pass; the gradient sums the passes' gradients: the same up to the order of the sums
      const r = await rowPassParity(be(), { figures: 0, grad: 1e-5 });
      expect(r.figures.maxFigureDiff, r.lines.join('\n')).toBe(0);
      expect(r.figures.maxGradRelDiff, r.lines.join('\n')).toBeLessThan(1e-5);
      // and the comparison can fail: other rows give another gradient
      expect(r.figures.otherRowsGradRelDiff).toBeGreaterThan(1e-2);
      expect(r.ok).toBe(true);
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
