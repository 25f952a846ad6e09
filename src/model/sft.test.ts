// SFT helpers: batch building and masking, the learning-rate schedule, and the device-side loss.
import { describe, expect, it } from 'vitest';
import { CpuBackend } from '../engine/cpu/cpuBackend';
import { makeGPTConfig } from './config';
import { GPT } from './gpt';
import { lrAt, makeSFTBatch, sftStep } from './sft';

describe('SFT', () => {
  it('builds fixed-length rows and masks prompt and padding targets', () => {
    const EOS = 2;
    const b = makeSFTBatch(
      [
        { prompt: [5, 6, 7], completion: [8, 9] },
        { prompt: [5, 6, 7], completion: [10] },
      ],
      7,
      EOS,
    );
    expect(b.B).toBe(2);
    expect(b.T).toBe(6);
    expect([...b.tokens]).toEqual([5, 6, 7, 8, 9, EOS, EOS, 5, 6, 7, 10, EOS, EOS, EOS]);
    // targets at t are tokens t+1: counted from the first completion token through the first EOS
    expect([...b.mask]).toEqual([0, 0, 1, 1, 1, 0, 0, 0, 1, 1, 0, 0]);
    expect(() => makeSFTBatch([{ prompt: [1, 2, 3], completion: [4, 5, 6, 7] }], 7, EOS)).toThrow(
      /exceeds seqLen 7/,
    );
  });

  it('warms up linearly and decays by cosine to minLrFrac', () => {
    const o = { steps: 110, lr: 1, warmupSteps: 10, minLrFrac: 0.1 };
    expect(lrAt(0, o)).toBeCloseTo(0.1);
    expect(lrAt(9, o)).toBeCloseTo(1);
    expect(lrAt(10, o)).toBeCloseTo(1);
    expect(lrAt(60, o)).toBeCloseTo(0.55);
    expect(lrAt(110, o)).toBeCloseTo(0.1);
  });

  it('reports the masked mean cross-entropy computed on the device', async () => {
    const be = new CpuBackend();
    const cfg = makeGPTConfig({ vocabSize: 12, blockSize: 8, nLayer: 1, nHead: 2, nEmbd: 8, seed: 4 });
    const m = new GPT(be, cfg);
    const batch = makeSFTBatch(
      [
        { prompt: [3, 4], completion: [5, 6, 7] },
        { prompt: [8, 9], completion: [10] },
      ],
      6,
      2,
    );
    const { loss, gradNorm } = await sftStep(
      m,
      batch,
      { lr: 0, beta1: 0.9, beta2: 0.99, eps: 1e-8, weightDecay: 0, step: 1 },
      1,
    );
    const logits = (await be.read(m.lastLogits())) as Float32Array;
    let sum = 0;
    let n = 0;
    for (let i = 0; i < batch.B * batch.T; i++) {
      if (!batch.mask[i]) continue;
      const row = logits.subarray(i * 12, i * 12 + 12);
      const target = batch.tokens[Math.floor(i / batch.T) * (batch.T + 1) + (i % batch.T) + 1];
      const lse = Math.log(row.reduce((a, x) => a + Math.exp(x), 0));
      sum += lse - row[target];
      n++;
    }
    expect(n).toBe(6);
    expect(loss).toBeCloseTo(sum / n, 5);
    const g = (await be.read(m.grads)) as Float32Array;
    expect(gradNorm).toBeCloseTo(Math.hypot(...g), 4);
  });
});
