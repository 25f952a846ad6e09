// Generation on the CPU backend: greedy = argmax of the full forward, KV-cached decoding = full
// recompute (tokens exactly, log-probs within 1e-5), EOS/length handling, context refusal.
import { describe, expect, it } from 'vitest';
import { CpuBackend } from '../engine/cpu/cpuBackend';
import { makeUniformStream } from '../engine/random';
import { makeGPTConfig, type PosVariant } from './config';
import { generate, generateNoCache, type GenerateOptions } from './generate';
import { GPT } from './gpt';

const V = 11;
async function model(pos: PosVariant): Promise<GPT> {
  const m = new GPT(
    new CpuBackend(),
    makeGPTConfig({ vocabSize: V, blockSize: 12, nLayer: 2, nHead: 2, nEmbd: 16, pos, seed: 21 }),
  );
  // sharper than init so greedy choices are not near-ties
  m.writeParams((await m.readParams()).map((x) => x * 8));
  return m;
}
function prompts(B: number, Tp: number, seed: number): Uint32Array {
  const r = makeUniformStream(seed);
  return new Uint32Array(B * Tp).map(() => Math.floor(r() * V));
}

describe('generate (CPU)', () => {
  for (const pos of ['learned', 'rope'] as const) {
    it(`greedy tokens are the argmax of the full forward (${pos})`, async () => {
      const m = await model(pos);
      const B = 2,
        Tp = 4,
        N = 6;
      const pr = prompts(B, Tp, 3);
      const res = await generate(m, pr, B, Tp, {
        samples: 1,
        temperature: 0,
        maxNewTokens: N,
        eosId: 0,
        seed: 1,
      });
      // rebuild the full sequences and check each generated token against the forward's argmax
      const L = Tp + N;
      const seq = new Uint32Array(B * L);
      for (let b = 0; b < B; b++) {
        seq.set(pr.subarray(b * Tp, (b + 1) * Tp), b * L);
        seq.set(res.tokens.subarray(b * N, (b + 1) * N), b * L + Tp);
      }
      const tok = m.backend.alloc([B, L], 'u32');
      m.backend.write(tok, seq);
      const logits = (await m.backend.read(m.forward(tok, B, L - 1, L))) as Float32Array;
      for (let b = 0; b < B; b++) {
        const len = res.lengths[b];
        for (let s = 0; s < len; s++) {
          const row = logits.subarray((b * (L - 1) + Tp - 1 + s) * V, (b * (L - 1) + Tp + s) * V);
          let arg = 0;
          for (let v = 1; v < V; v++) if (row[v] > row[arg]) arg = v;
          expect(res.tokens[b * N + s]).toBe(arg);
          // greedy log-prob is the temperature-1 log-softmax of the chosen token
          const mx = row[arg];
          const lse = mx + Math.log(row.reduce((a, x) => a + Math.exp(x - mx), 0));
          expect(res.logp[b * N + s]).toBeCloseTo(row[arg] - lse, 5);
        }
      }
    });

    it(`cached decoding equals full recompute, sampled and greedy (${pos})`, async () => {
      const m = await model(pos);
      const B = 2,
        Tp = 3;
      const pr = prompts(B, Tp, 4);
      for (const temperature of [1, 0.7, 0]) {
        const o: GenerateOptions = { samples: 3, temperature, maxNewTokens: 8, eosId: 2, seed: 1234 };
        const a = await generate(m, pr, B, Tp, o);
        const b = await generateNoCache(m, pr, B, Tp, o);
        expect(a.tokens).toEqual(b.tokens);
        expect(a.lengths).toEqual(b.lengths);
        let maxDiff = 0;
        for (let i = 0; i < a.logp.length; i++) maxDiff = Math.max(maxDiff, Math.abs(a.logp[i] - b.logp[i]));
        console.log(
          `[generate ${pos} T=${temperature}] rows ${a.rows} lengths [${a.lengths}] max |logp diff| ${maxDiff.toExponential(2)}`,
        );
        expect(maxDiff).toBeLessThanOrEqual(1e-5);
        // the same seed repeats, and a repeated shape allocates nothing; one readback per generation
        const allocs = m.backend.counters.allocations;
        const reads = m.backend.counters.readbacks;
        expect((await generate(m, pr, B, Tp, o)).tokens).toEqual(a.tokens);
        expect(m.backend.counters.allocations).toBe(allocs);
        expect(m.backend.counters.readbacks).toBe(reads + 1);
        // without log-probs: the same tokens, an empty logp, and the same dispatches
        const d0 = m.backend.counters.dispatches;
        await generate(m, pr, B, Tp, o);
        const d1 = m.backend.counters.dispatches;
        const bare = await generate(m, pr, B, Tp, { ...o, logp: false });
        expect(bare.tokens).toEqual(a.tokens);
        expect(bare.lengths).toEqual(a.lengths);
        expect(bare.logp.length).toBe(0);
        expect(m.backend.counters.dispatches - d1).toBe(d1 - d0);
      }
    });
  }

  it('cuts rows at the first EOS and reports lengths and truncation', async () => {
    const m = await model('learned');
    const pr = prompts(3, 2, 5);
    const o: GenerateOptions = { samples: 2, temperature: 1, maxNewTokens: 9, eosId: 0, seed: 99 };
    const free = await generate(m, pr, 3, 2, { ...o, eosId: V - 1 });
    const eos = free.tokens[2]; // row 0's third token becomes the EOS id
    const res = await generate(m, pr, 3, 2, { ...o, eosId: eos });
    for (let r = 0; r < res.rows; r++) {
      const row = [...res.tokens.subarray(r * 9, (r + 1) * 9)];
      const first = row.indexOf(eos);
      expect(res.lengths[r]).toBe(first < 0 ? 9 : first + 1);
      expect(res.truncated[r]).toBe(first < 0 ? 1 : 0);
      for (let s = res.lengths[r]; s < 9; s++) {
        expect(row[s]).toBe(eos);
        expect(res.logp[r * 9 + s]).toBe(0);
      }
      for (let s = 0; s < res.lengths[r]; s++) expect(res.logp[r * 9 + s]).toBeLessThanOrEqual(0);
    }
    expect(res.lengths[0]).toBeLessThanOrEqual(3);
  });

  it('refuses prompts that do not fit the context, and bad options', async () => {
    const m = await model('rope');
    await expect(
      generate(m, prompts(1, 13, 1), 1, 13, {
        samples: 1,
        temperature: 0,
        maxNewTokens: 1,
        eosId: 0,
        seed: 0,
      }),
    ).rejects.toThrow(/prompt of 13 tokens is longer than the model's context \(blockSize 12\)/);
    await expect(
      generate(m, prompts(1, 8, 1), 1, 8, { samples: 1, temperature: 0, maxNewTokens: 6, eosId: 0, seed: 0 }),
    ).rejects.toThrow(/needs 13 positions/);
    await expect(
      generate(m, prompts(1, 4, 1), 1, 4, {
        samples: 0,
        temperature: -1,
        maxNewTokens: 2,
        eosId: V,
        seed: 0,
      }),
    ).rejects.toThrow(/samples must be a positive integer.*temperature must be >= 0.*eosId 11/);
  });
});
