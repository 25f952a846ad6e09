// Parity of the wasm backend's SIMD kernels (wasm/*.ts), in either kernel variant, against the CPU reference (src/engine/cpu/) at
// awkward sizes (rows, columns, head sizes and vocabularies off multiples of 4, 8 and 16), with poisoned
// (NaN) outputs so every element must be written, and pre-filled gradients so backward ops must accumulate.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Backend } from '../backend';
import type { Tensor } from '../tensor';
import { CpuBackend } from '../cpu/cpuBackend';
import { describeCompare, type CompareResult } from '../compare';
import { type Pair, pair, poisoned, randInt, randn } from '../parity/parityUtil';
import type { KernelVariant } from './kernels';
import { WasmBackend } from './wasmBackend';

let wasm: WasmBackend;
const cpu = new CpuBackend();

/** Run `f` on the wasm side, then on the CPU side, with the matching tensor of each pair. */
function both(f: (be: Backend, t: (x: Pair | null) => Tensor | null) => void): void {
  f(wasm, (x) => (x ? x.gpu : null));
  f(cpu, (x) => (x ? x.cpu : null));
}
const P = (shape: number[], seed: number, scale = 1): Pair =>
  pair(
    wasm,
    cpu,
    shape,
    randn(
      shape.reduce((a, b) => a * b, 1),
      seed,
      scale,
    ),
  );

async function expectAll(pairs: [string, Pair][], atol = 1e-4, rtol = 1e-4): Promise<void> {
  const res: CompareResult[] = [];
  for (const [name, x] of pairs) res.push(await x.check(name, atol, rtol));
  const bad = res.filter((r) => !r.ok);
  expect(bad.map(describeCompare)).toEqual([]);
  for (const [, x] of pairs) x.free();
}

/** Every parity case, on the kernel variant `kernels` (wasmParity.test.ts: simd; wasmParity.relaxed.test.ts: relaxed). */
export function wasmParitySuite(kernels: KernelVariant): void {
beforeAll(async () => {
  wasm = await WasmBackend.create(kernels);
  expect(wasm.kernels).toBe(kernels);
});
afterAll(() => wasm.destroy());

describe('wasm matmul vs the CPU reference', () => {
  const shapes: [number, number, number, boolean, boolean][] = [
    // N, C, OC, bias, dinp
    [37, 45, 67, true, true],
    [1, 5, 3, true, true],
    [70, 13, 130, false, true],
    [2, 1, 1, true, true],
    [129, 64, 256, true, false],
    [200, 128, 29, false, true],
    [3, 4, 1, false, true],
    [64, 24, 72, true, true],
    [128, 96, 24, true, true],
    [11, 7, 9, true, true],
    [517, 130, 33, true, true],
  ];
  for (const [[N, C, OC, hasBias, hasDinp], variant] of shapes.flatMap((s) =>
    (['dot', 'broadcast'] as const).map((v) => [s, v] as const),
  )) {
    it(`N=${N} C=${C} OC=${OC}${hasBias ? '' : ' no bias'}${hasDinp ? '' : ' no dinp'} (${variant}): out, dinp, dweight, dbias`, async () => {
      wasm.matmulForwardVariant = variant;
      const s = N + C + OC;
      const inp = P([N, C], s);
      const w = P([OC, C], s + 1);
      const bias = hasBias ? P([OC], s + 2) : null;
      const out = poisoned(wasm, cpu, [N, OC]);
      const dout = P([N, OC], s + 3);
      const dinp = hasDinp ? P([N, C], s + 4) : null;
      const dw = P([OC, C], s + 5);
      const db = hasBias ? P([OC], s + 6) : null;
      both((be, t) => {
        be.matmulForward({ out: t(out)!, inp: t(inp)!, weight: t(w)!, bias: t(bias), N, C, OC });
        be.matmulBackward({ dinp: t(dinp), dweight: t(dw)!, dbias: t(db), dout: t(dout)!, inp: t(inp)!, weight: t(w)!, N, C, OC });
      });
      const outs: [string, Pair][] = [
        ['out', out],
        ['dweight', dw],
      ];
      if (dinp) outs.push(['dinp', dinp]);
      if (db) outs.push(['dbias', db]);
      await expectAll(outs);
      for (const x of [inp, w, bias, dout]) x?.free();
      wasm.matmulForwardVariant = 'auto';
    });
  }

  it('reads a weight through a view into a larger buffer', async () => {
    const [N, C, OC] = [19, 21, 23];
    const big = P([64 + OC * C + 5], 7);
    const wv = { gpu: wasm.view(big.gpu, 64, [OC, C]), cpu: cpu.view(big.cpu, 64, [OC, C]) };
    const inp = P([N, C], 8);
    const out = poisoned(wasm, cpu, [N, OC]);
    wasm.matmulForward({ out: out.gpu, inp: inp.gpu, weight: wv.gpu, bias: null, N, C, OC });
    cpu.matmulForward({ out: out.cpu, inp: inp.cpu, weight: wv.cpu, bias: null, N, C, OC });
    await expectAll([['out', out]]);
  });
});

describe('wasm layer norm, attention, log-softmax, AdamW vs the CPU reference', () => {
  for (const [N, C] of [
    [1, 1],
    [7, 5],
    [33, 36],
    [64, 24],
    [130, 130],
  ]) {
    it(`layernorm N=${N} C=${C}: out, mean, rstd, dinp, dweight, dbias`, async () => {
      const inp = P([N, C], 1 + C, 2);
      const w = P([C], 2 + C);
      const b = P([C], 3 + C);
      const out = poisoned(wasm, cpu, [N, C]);
      const mean = poisoned(wasm, cpu, [N]);
      const rstd = poisoned(wasm, cpu, [N]);
      const dout = P([N, C], 4 + C);
      const dinp = P([N, C], 5 + C);
      const dw = P([C], 6 + C);
      const db = P([C], 7 + C);
      both((be, t) => {
        be.layernormForward({ out: t(out)!, mean: t(mean)!, rstd: t(rstd)!, inp: t(inp)!, weight: t(w)!, bias: t(b)!, N, C });
        be.layernormBackward({ dinp: t(dinp)!, dweight: t(dw)!, dbias: t(db)!, dout: t(dout)!, inp: t(inp)!, weight: t(w)!, mean: t(mean)!, rstd: t(rstd)!, N, C });
      });
      await expectAll([
        ['out', out],
        ['mean', mean],
        ['rstd', rstd],
        ['dinp', dinp],
        ['dweight', dw],
        ['dbias', db],
      ]);
    });
  }

  for (const [B, T, C, NH] of [
    [2, 13, 36, 3],
    [3, 7, 45, 5],
    [1, 1, 16, 2],
    [32, 10, 24, 4],
    [2, 17, 32, 4],
    [1, 33, 20, 2],
  ]) {
    it(`attention B=${B} T=${T} C=${C} NH=${NH}: out, att, dqkv, cached decode`, async () => {
      const qkv = P([B, T, 3 * C], T + C);
      const out = poisoned(wasm, cpu, [B, T, C]);
      const att = poisoned(wasm, cpu, [B, NH, T, T]);
      const dout = P([B, T, C], T + C + 1);
      const dqkv = P([B, T, 3 * C], T + C + 2);
      both((be, t) => {
        be.attentionForward({ out: t(out)!, att: t(att)!, qkv: t(qkv)!, B, T, C, NH });
        be.attentionBackward({ dqkv: t(dqkv)!, dout: t(dout)!, qkv: t(qkv)!, att: t(att)!, B, T, C, NH });
      });
      // cached: write the first T-2 positions, then attend the last 2 (pos0 = T-2) over a longer cache
      const Tmax = T + 3;
      const pos0 = Math.max(0, T - 2);
      const Tn = T - pos0;
      const kc = poisoned(wasm, cpu, [B, Tmax, C]);
      const vc = poisoned(wasm, cpu, [B, Tmax, C]);
      const qn = P([B, Tn, 3 * C], T + C + 3);
      const outc = poisoned(wasm, cpu, [B, Tn, C]);
      const prev = P([B, Math.max(pos0, 1), 3 * C], T + C + 4);
      both((be, t) => {
        if (pos0 > 0) be.kvCacheWrite({ kcache: t(kc)!, vcache: t(vc)!, qkv: t(prev)!, B, T: pos0, pos0: 0, Tmax, C });
        be.kvCacheWrite({ kcache: t(kc)!, vcache: t(vc)!, qkv: t(qn)!, B, T: Tn, pos0, Tmax, C });
        be.attentionCached({ out: t(outc)!, qkv: t(qn)!, kcache: t(kc)!, vcache: t(vc)!, B, T: Tn, pos0, Tmax, C, NH });
      });
      await expectAll([
        ['out', out],
        ['att', att],
        ['dqkv', dqkv],
        ['cached out', outc],
      ]);
      for (const x of [qkv, dout, kc, vc, qn, prev]) x.free();
    });
  }

  for (const [N, V, temp] of [
    [1, 1, 1],
    [7, 5, 1],
    [33, 29, 0.7],
    [64, 15, 1.3],
    [5, 130, 1],
    [9, 4, 2],
  ]) {
    it(`log-softmax N=${N} V=${V} T=${temp}: logp, entropy, certainty, cross-entropy and both backwards`, async () => {
      const logits = P([N, V], N + V, 3);
      const tg = randInt(N, N + V + 1, V);
      const targets = pair(wasm, cpu, [N], tg, 'targets');
      const logp = poisoned(wasm, cpu, [N]);
      const ent = poisoned(wasm, cpu, [N]);
      const cert = poisoned(wasm, cpu, [N]);
      const ce = poisoned(wasm, cpu, [N]);
      const wts = P([N], N + V + 2);
      const dl1 = P([N, V], N + V + 3);
      const dl2 = P([N, V], N + V + 4);
      const lpOnly = poisoned(wasm, cpu, [N]);
      both((be, t) => {
        be.logprobForward({ logp: t(logp), entropy: t(ent), certainty: t(cert), logits: t(logits)!, targets: t(targets)!, N, V, temperature: temp });
        be.logprobForward({ logp: t(lpOnly), entropy: null, certainty: null, logits: t(logits)!, targets: t(targets)!, N, V, temperature: temp });
        be.crossEntropyForward({ losses: t(ce)!, logits: t(logits)!, targets: t(targets)!, N, V });
        be.logprobBackward({ dlogits: t(dl1)!, logits: t(logits)!, targets: t(targets)!, weights: t(wts)!, N, V, temperature: temp });
        be.crossEntropyBackward({ dlogits: t(dl2)!, logits: t(logits)!, targets: t(targets)!, dlosses: t(wts)!, N, V });
      });
      await expectAll([
        ['logp', logp],
        ['entropy', ent],
        ['certainty', cert],
        ['logp only', lpOnly],
        ['ce', ce],
        ['dlogits (logprob)', dl1],
        ['dlogits (ce)', dl2],
      ]);
      for (const x of [logits, targets, wts]) x.free();
    });
  }

  for (const [n, clip] of [
    [1, 0],
    [7, 1],
    [1000, 1],
    [4099, 0],
  ]) {
    it(`sumSquares and AdamW on ${n} elements${clip ? ' with clipping' : ''}`, async () => {
      const params = P([n], n, 1);
      const grads = P([n], n + 1, 2);
      const m = P([n], n + 2, 0.1);
      const v = pair(
        wasm,
        cpu,
        [n],
        randn(n, n + 3).map((x) => x * x * 0.01),
        'v',
      );
      const norm = poisoned(wasm, cpu, [1]);
      both((be, t) => {
        be.sumSquares({ out: t(norm)!, inp: t(grads)!, N: n });
        be.adamw({ params: t(params)!, grads: t(grads)!, m: t(m)!, v: t(v)!, normSq: clip ? t(norm) : null, maxNorm: 0.5, N: n, hp: {
          lr: 1e-2,
          beta1: 0.9,
          beta2: 0.95,
          eps: 1e-8,
          weightDecay: 0.1,
          step: 3,
        } });
      });
      await expectAll(
        [
          ['sumSquares', norm],
          ['params', params],
          ['m', m],
          ['v', v],
        ],
        1e-5,
        1e-5,
      );
      grads.free();
    });
  }
});

describe('wasm elementwise kernels vs the CPU reference', () => {
  for (const n of [1, 3, 1003, 4096]) {
    it(`gelu and residual forward and backward on ${n} elements`, async () => {
      const x = P([n], n, 3);
      const y = P([n], n + 1);
      const dout = P([n], n + 2);
      const g = poisoned(wasm, cpu, [n]);
      const r = poisoned(wasm, cpu, [n]);
      const dx = P([n], n + 3);
      const da = P([n], n + 4);
      const db = P([n], n + 5);
      both((be, t) => {
        be.geluForward({ out: t(g)!, inp: t(x)!, N: n });
        be.geluBackward({ dinp: t(dx)!, inp: t(x)!, dout: t(dout)!, N: n });
        be.residualForward({ out: t(r)!, a: t(x)!, b: t(y)!, N: n });
        be.residualBackward({ da: t(da)!, db: t(db)!, dout: t(dout)!, N: n });
      });
      await expectAll(
        [
          ['gelu', g],
          ['dgelu', dx],
          ['residual', r],
          ['da', da],
          ['db', db],
        ],
        1e-5,
        1e-5,
      );
      for (const z of [x, y, dout]) z.free();
    });
  }
});

describe('wasm ops on the CPU reference code, over wasm memory', () => {
  it('encoder, rope, gelu, residual and sampling match the CPU backend', async () => {
    const [B, T, C, NH, V] = [3, 5, 12, 2, 11];
    const wte = P([V, C], 1);
    const wpe = P([T, C], 2);
    const tokens = pair(wasm, cpu, [B, T], randInt(B * T, 3, V), 'tokens');
    const enc = poisoned(wasm, cpu, [B, T, C]);
    const qkv = P([B, T, 3 * C], 4);
    const rot = poisoned(wasm, cpu, [B, T, 3 * C]);
    const g = poisoned(wasm, cpu, [B * T * C]);
    const r = poisoned(wasm, cpu, [B * T * C]);
    const logits = P([B, V], 5, 2);
    const sampled = poisoned(wasm, cpu, [B], 'u32');
    const dwte = P([V, C], 6);
    const dwpe = P([T, C], 7);
    const dqkv = P([B, T, 3 * C], 8);
    both((be, t) => {
      be.encoderForward({ out: t(enc)!, wte: t(wte)!, wpe: t(wpe), tokens: t(tokens)!, B, T, C, tokStride: T, pos0: 0 });
      be.encoderBackward({ dwte: t(dwte)!, dwpe: t(dwpe), dout: t(enc)!, tokens: t(tokens)!, B, T, C, tokStride: T, pos0: 0 });
      be.ropeForward({ out: t(rot)!, inp: t(qkv)!, B, T, C, NH, pos0: 0 });
      be.ropeBackward({ dinp: t(dqkv)!, dout: t(rot)!, B, T, C, NH, pos0: 0 });
      be.geluForward({ out: t(g)!, inp: t(enc)!, N: B * T * C });
      be.residualForward({ out: t(r)!, a: t(g)!, b: t(enc)!, N: B * T * C });
      be.sampleTokens({ out: t(sampled)!, logits: t(logits)!, rows: B, V, temperature: 1, seed: 9, counter: 0, outStride: 1, outOffset: 0 });
    });
    await expectAll(
      [
        ['encoder', enc],
        ['dwte', dwte],
        ['dwpe', dwpe],
        ['rope', rot],
        ['drope', dqkv],
        ['gelu', g],
        ['residual', r],
        ['sampled', sampled],
      ],
      1e-6,
      1e-6,
    );
  });

  it('keeps tensors valid across memory growth and recycles freed blocks by size', async () => {
    const a = wasm.alloc([5], 'f32', 'a');
    wasm.write(a, new Float32Array([1, 2, 3, 4, 5]));
    const before = wasm.memoryBytes;
    const big = wasm.alloc([8 * 2 ** 20], 'f32', 'big'); // 32 MiB: forces growth
    expect(wasm.memoryBytes).toBeGreaterThan(before);
    expect([...(await wasm.read(a))]).toEqual([1, 2, 3, 4, 5]);
    const allocs = wasm.counters.allocations;
    wasm.free(big);
    const again = wasm.alloc([8 * 2 ** 20], 'f32', 'again');
    expect(wasm.counters.allocations).toBe(allocs); // served from the pool
    wasm.free(again);
    wasm.free(a);
  });
});
}
