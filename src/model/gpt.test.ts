// GPT on the CPU backend: forward determinism, no allocation in a steady loop, whole-model gradients
// against central finite differences (directional, per named tensor), and overfitting one batch.
import { describe, expect, it } from 'vitest';
import { CpuBackend } from '../engine/cpu/cpuBackend';
import { makeUniformStream } from '../engine/random';
import { makeGPTConfig, type GPTConfig, type PosVariant } from './config';
import { GPT } from './gpt';
import { sftStep, trainSFT, type SFTBatch } from './sft';

function randomBatch(B: number, T: number, V: number, seed: number, promptLen = 3): SFTBatch {
  const r = makeUniformStream(seed);
  const tokens = new Uint32Array(B * (T + 1)).map(() => Math.floor(r() * V));
  const mask = new Float32Array(B * T).map((_, i) => (i % T >= promptLen - 1 ? 1 : 0));
  return { B, T, tokens, mask };
}

const tiny = (pos: PosVariant): GPTConfig =>
  makeGPTConfig({ vocabSize: 13, blockSize: 9, nLayer: 2, nHead: 2, nEmbd: 8, mlpRatio: 2, pos, seed: 5 });

/** Host-side masked mean cross-entropy of the current parameters (float64 sum). */
async function hostLoss(model: GPT, be: CpuBackend, batch: SFTBatch): Promise<number> {
  const { B, T } = batch;
  const V = model.cfg.vocabSize;
  const tok = be.alloc([B, T + 1], 'u32');
  be.write(tok, batch.tokens);
  const logits = (await be.read(model.forward(tok, B, T, T + 1))) as Float32Array;
  let sum = 0;
  let count = 0;
  for (let b = 0; b < B; b++) {
    for (let t = 0; t < T; t++) {
      const w = batch.mask[b * T + t];
      if (!w) continue;
      const row = logits.subarray((b * T + t) * V, (b * T + t + 1) * V);
      const mx = Math.max(...row);
      let z = 0;
      for (const x of row) z += Math.exp(x - mx);
      sum += w * (Math.log(z) + mx - row[batch.tokens[b * (T + 1) + t + 1]]);
      count += w;
    }
  }
  return sum / count;
}

describe('GPT forward/backward (CPU)', () => {
  it('forward is deterministic and reuses its buffers', async () => {
    const be = new CpuBackend();
    const cfg = tiny('learned');
    const batch = randomBatch(3, 8, cfg.vocabSize, 1);
    const tok = be.alloc([3, 9], 'u32');
    be.write(tok, batch.tokens);
    const a = new GPT(be, cfg);
    const b = new GPT(be, cfg);
    const la = (await be.read(a.forward(tok, 3, 8, 9))) as Float32Array;
    expect(la.length).toBe(3 * 8 * cfg.vocabSize);
    expect(la.every(Number.isFinite)).toBe(true);
    expect(await be.read(b.forward(tok, 3, 8, 9))).toEqual(la);
    const hp = { lr: 1e-3, beta1: 0.9, beta2: 0.99, eps: 1e-8, weightDecay: 0, step: 1 };
    await sftStep(a, batch, hp, 1);
    const allocs = be.counters.allocations;
    for (let s = 2; s < 5; s++) await sftStep(a, batch, { ...hp, step: s }, 1);
    expect(be.counters.allocations).toBe(allocs);
  });

  it('exposes causal attention probabilities of a chosen layer', async () => {
    const be = new CpuBackend();
    const cfg = tiny('rope');
    const m = new GPT(be, cfg);
    const tok = be.alloc([2, 6], 'u32');
    be.write(tok, randomBatch(2, 5, cfg.vocabSize, 4).tokens.subarray(0, 12));
    m.forward(tok, 2, 6);
    const att = (await be.read(m.attentionProbs(1))) as Float32Array; // (B, NH, T, T)
    expect(att.length).toBe(2 * 2 * 6 * 6);
    for (let row = 0; row < 2 * 2 * 6; row++) {
      const t = row % 6;
      const p = att.subarray(row * 6, row * 6 + 6);
      expect(p.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 5);
      for (let u = t + 1; u < 6; u++) expect(p[u]).toBe(0);
    }
    expect(() => m.attentionProbs(2)).toThrow(/layer 2 out of range/);
  });

  for (const pos of ['learned', 'rope'] as const) {
    it(`every named gradient matches central differences (${pos})`, async () => {
      const be = new CpuBackend();
      const cfg = tiny(pos);
      const model = new GPT(be, cfg);
      // larger weights than init so every path carries signal
      const p0 = (await model.readParams()).map((x, i) => x * 5 + 0.05 * Math.sin(i));
      model.writeParams(p0);
      const batch = randomBatch(2, 7, cfg.vocabSize, 2);
      model.zeroGrad();
      // analytic gradients via one sftStep with lr 0 (the step leaves params unchanged)
      await sftStep(model, batch, { lr: 0, beta1: 0.9, beta2: 0.99, eps: 1e-8, weightDecay: 0, step: 1 }, 0);
      const g = (await be.read(model.grads)) as Float32Array;
      const h = 1e-3;
      const rnd = makeUniformStream(77);
      const lines: string[] = [];
      for (const s of model.layout.specs) {
        const gs = g.subarray(s.offset, s.offset + s.size);
        const gn = Math.hypot(...gs);
        const d = new Float64Array(s.size).map(
          (_, i) => (gn > 0 ? gs[i] / gn : 0) + ((rnd() - 0.5) * 2) / Math.sqrt(s.size / 3),
        );
        const dn = Math.hypot(...d);
        let ana = 0;
        for (let i = 0; i < s.size; i++) ana += gs[i] * (d[i] /= dn);
        const eval_ = async (sign: number): Promise<number> => {
          const p = p0.slice();
          for (let i = 0; i < s.size; i++) p[s.offset + i] += sign * h * d[i];
          model.writeParams(p);
          return hostLoss(model, be, batch);
        };
        const fd = ((await eval_(1)) - (await eval_(-1))) / (2 * h);
        const err = Math.abs(fd - ana);
        lines.push(
          `${s.name}: analytic ${ana.toExponential(3)} fd ${fd.toExponential(3)} err ${err.toExponential(1)}`,
        );
        expect(err, lines.at(-1)).toBeLessThanOrEqual(3e-4 + 1e-2 * Math.abs(ana));
      }
      console.log(`[gradcheck ${pos}]\n  ${lines.join('\n  ')}`);
    });
  }

  it('overfits one batch (loss falls a lot)', async () => {
    const be = new CpuBackend();
    const cfg = makeGPTConfig({
      vocabSize: 16,
      blockSize: 12,
      nLayer: 2,
      nHead: 2,
      nEmbd: 32,
      pos: 'rope',
      seed: 9,
    });
    const model = new GPT(be, cfg);
    const batch = randomBatch(4, 11, cfg.vocabSize, 3);
    const losses = await trainSFT(model, () => batch, { steps: 120, lr: 1e-2, warmupSteps: 10 });
    console.log(
      `[overfit] loss ${losses[0].toFixed(3)} -> ${losses.at(-1)!.toFixed(4)} in ${losses.length} steps`,
    );
    expect(losses[0]).toBeGreaterThan(2);
    expect(losses.at(-1)!).toBeLessThan(0.1 * losses[0]);
  });
});
