// Browser-side model checks (run by e2e/model.spec.ts through e2e/harness.ts): whole-model parity of
// one supervised step on WebGPU vs the CPU reference (llm.c test_gpt2.c style: logits, loss, every
// named gradient, every parameter after AdamW), greedy decoding on both backends, KV-cached decoding
// vs full recompute on the GPU, and a short SFT run on WebGPU.
import type { Backend } from '../engine/backend';
import { compareArrays, describeCompare, type CompareResult } from '../engine/compare';
import { CpuBackend } from '../engine/cpu/cpuBackend';
import { makeUniformStream } from '../engine/random';
import type { WebGpuBackend } from '../engine/webgpu/webgpuBackend';
import { makeGPTConfig, type GPTConfig, type PosVariant } from './config';
import { generate, generateNoCache, releaseDecoders, type GenerateOptions } from './generate';
import { GPT } from './gpt';
import { makeSFTBatch, releaseSFTBuffers, sftStep, trainSFT, type SFTBatch } from './sft';

/** What every check returns: pass/fail, printable lines, and figures. */
export interface CheckReport {
  ok: boolean;
  lines: string[];
  figures: Record<string, number>;
}

const ATOL = 1e-4;
const RTOL = 1e-4;

function parityConfig(pos: PosVariant): GPTConfig {
  // awkward sizes: C=36 (head size 18), V=29, T=13, B=3
  return makeGPTConfig({
    vocabSize: 29,
    blockSize: 16,
    nLayer: 2,
    nHead: 2,
    nEmbd: 36,
    mlpRatio: 4,
    pos,
    seed: 11,
  });
}

function randomBatch(B: number, T: number, V: number, seed: number, promptLen: number): SFTBatch {
  const r = makeUniformStream(seed);
  const tokens = new Uint32Array(B * (T + 1)).map(() => Math.floor(r() * V));
  const mask = new Float32Array(B * T).map((_, i) => (i % T >= promptLen - 1 ? 1 : 0));
  return { B, T, tokens, mask };
}

/** The same model on both backends, with weights scaled up from init so every path carries signal. */
async function twinModels(gpu: Backend, cfg: GPTConfig, scale: number): Promise<[GPT, GPT]> {
  const c = new GPT(new CpuBackend(), cfg);
  const p = (await c.readParams()).map((x, i) => (x === 0 ? 0 : x * scale + 0.01 * Math.sin(i)));
  c.writeParams(p);
  const g = new GPT(gpu, cfg);
  g.writeParams(p);
  return [g, c];
}

function cleanup(...models: GPT[]): void {
  for (const m of models) {
    releaseDecoders(m);
    releaseSFTBuffers(m);
    m.free();
  }
}

async function compareNamed(
  g: GPT,
  c: GPT,
  which: 'param' | 'grad',
  prefix: string,
): Promise<CompareResult[]> {
  const out: CompareResult[] = [];
  for (const s of c.layout.specs) {
    const tg = which === 'param' ? g.param(s.name) : g.grad(s.name);
    const tc = which === 'param' ? c.param(s.name) : c.grad(s.name);
    out.push(
      compareArrays(`${prefix}${s.name}`, await g.backend.read(tg), await c.backend.read(tc), ATOL, RTOL),
    );
  }
  return out;
}

/** One supervised step on both backends; compares logits, loss, every gradient and every parameter. */
async function stepParity(gpu: Backend, pos: PosVariant): Promise<CheckReport> {
  const cfg = parityConfig(pos);
  const [g, c] = await twinModels(gpu, cfg, 3);
  const batch = randomBatch(3, 13, cfg.vocabSize, 7, 4);
  const hp = { lr: 1e-3, beta1: 0.9, beta2: 0.95, eps: 1e-8, weightDecay: 0.1, step: 1 };
  const maxNorm = 0.5; // small enough that clipping is active
  const rg = await sftStep(g, batch, hp, maxNorm);
  const rc = await sftStep(c, batch, hp, maxNorm);
  const results: CompareResult[] = [
    compareArrays('logits', await gpu.read(g.lastLogits()), await c.backend.read(c.lastLogits()), ATOL, RTOL),
    compareArrays('loss', [rg.loss], [rc.loss], ATOL, RTOL),
    compareArrays('gradNorm', [rg.gradNorm], [rc.gradNorm], ATOL, RTOL),
    ...(await compareNamed(g, c, 'grad', 'd')),
    ...(await compareNamed(g, c, 'param', 'adamw:')),
  ];
  cleanup(g, c);
  const worst = (f: (r: CompareResult) => boolean): number =>
    Math.max(...results.filter(f).map((r) => r.maxAbsDiff));
  return {
    ok: results.every((r) => r.ok),
    lines: [
      `${pos}: loss gpu ${rg.loss.toFixed(6)} cpu ${rc.loss.toFixed(6)}, grad norm ${rc.gradNorm.toFixed(4)} (clip ${maxNorm})`,
      ...results.map(describeCompare),
    ],
    figures: {
      loss: rc.loss,
      maxAbsLogits: results[0].maxAbsDiff,
      maxAbsGrad: worst((r) => r.name.startsWith('d')),
      maxAbsParam: worst((r) => r.name.startsWith('adamw:')),
    },
  };
}

const prompts = (B: number, Tp: number, V: number, seed: number): Uint32Array => {
  const r = makeUniformStream(seed);
  return new Uint32Array(B * Tp).map(() => Math.floor(r() * V));
};

/** Greedy decoding gives identical tokens on both backends (and close log-probs). */
async function greedyParity(gpu: Backend): Promise<CheckReport> {
  const lines: string[] = [];
  let ok = true;
  const figures: Record<string, number> = {};
  for (const pos of ['learned', 'rope'] as const) {
    const cfg = parityConfig(pos);
    const [g, c] = await twinModels(gpu, cfg, 8);
    const pr = prompts(3, 5, cfg.vocabSize, 3);
    const o: GenerateOptions = { samples: 2, temperature: 0, maxNewTokens: 10, eosId: 0, seed: 5 };
    const a = await generate(g, pr, 3, 5, o);
    const b = await generate(c, pr, 3, 5, o);
    const same = a.tokens.every((t, i) => t === b.tokens[i]);
    const lp = compareArrays(`${pos} greedy logp`, a.logp, b.logp, ATOL, RTOL);
    // sampled tokens: same draws, so they agree unless a draw falls within rounding of a CDF edge
    const sa = await generate(g, pr, 3, 5, { ...o, temperature: 1 });
    const sb = await generate(c, pr, 3, 5, { ...o, temperature: 1 });
    const agree = sa.tokens.filter((t, i) => t === sb.tokens[i]).length;
    ok &&= same && lp.ok;
    figures[`${pos}.sampledAgree`] = agree / sa.tokens.length;
    lines.push(
      `${pos}: greedy tokens ${same ? 'identical' : 'DIFFER'} (${a.tokens.length} tokens; gpu [${[...a.tokens.subarray(0, 10)]}] cpu [${[...b.tokens.subarray(0, 10)]}])`,
      describeCompare(lp),
      `${pos}: sampled (T=1) tokens agree ${agree}/${sa.tokens.length}`,
    );
    cleanup(g, c);
  }
  return { ok, lines, figures };
}

/** KV-cached decoding equals full recomputation on the GPU (tokens exactly, log-probs within 1e-5). */
async function cachedVsFull(gpu: Backend): Promise<CheckReport> {
  const lines: string[] = [];
  let ok = true;
  const figures: Record<string, number> = {};
  for (const pos of ['learned', 'rope'] as const) {
    const cfg = parityConfig(pos);
    const [g, c] = await twinModels(gpu, cfg, 8);
    cleanup(c);
    const pr = prompts(2, 4, cfg.vocabSize, 9);
    for (const temperature of [1, 0]) {
      const o: GenerateOptions = { samples: 3, temperature, maxNewTokens: 9, eosId: 0, seed: 77 };
      const t0 = performance.now();
      const a = await generate(g, pr, 2, 4, o);
      const t1 = performance.now();
      const b = await generateNoCache(g, pr, 2, 4, o);
      const t2 = performance.now();
      const allocs = gpu.counters.allocations;
      const again = await generate(g, pr, 2, 4, o);
      const reuse = gpu.counters.allocations === allocs && again.tokens.every((t, i) => t === a.tokens[i]);
      ok &&= reuse;
      const same =
        a.tokens.every((t, i) => t === b.tokens[i]) && a.lengths.every((l, i) => l === b.lengths[i]);
      // cached decoding runs the fused decode kernels (src/engine/decode.ts), whose sums run in another order
      // than the full forward's matmuls: the kernel parity bound's relative part (1e-4) on top of 1e-5
      const lp = compareArrays(`${pos} T=${temperature} logp cached vs full`, a.logp, b.logp, 1e-5, 1e-4);
      ok &&= same && lp.ok;
      figures[`${pos}.T${temperature}.maxAbsLogp`] = lp.maxAbsDiff;
      lines.push(
        `${pos} T=${temperature}: tokens ${same ? 'identical' : 'DIFFER'} (${a.rows} rows x ${a.maxNewTokens}), lengths [${[...a.lengths]}]; cached ${(t1 - t0).toFixed(0)} ms, full ${(t2 - t1).toFixed(0)} ms`,
        describeCompare(lp),
        `${pos} T=${temperature}: repeated call ${reuse ? 'reproduces the tokens with no new allocations' : 'DIFFERS or allocates'}`,
      );
    }
    cleanup(g);
  }
  return { ok, lines, figures };
}

/** A short SFT run on WebGPU (reverse 4 digits) shows the loss falling; the CPU runs the same steps. */
async function sftRun(gpu: Backend): Promise<CheckReport> {
  const V = 14;
  const cfg = makeGPTConfig({
    vocabSize: V,
    blockSize: 12,
    nLayer: 1,
    nHead: 2,
    nEmbd: 32,
    pos: 'learned',
    seed: 3,
  });
  const batches: SFTBatch[] = [];
  const r = makeUniformStream(42);
  const steps = 40; // ~0.3-0.5 s/step on SwiftShader
  for (let s = 0; s < steps; s++) {
    const ex = Array.from({ length: 16 }, () => {
      const d = Array.from({ length: 4 }, () => 2 + Math.floor(r() * 10));
      return { prompt: [...d, 1], completion: [...d].reverse() };
    });
    batches.push(makeSFTBatch(ex, 10, 0));
  }
  const opts = { steps, lr: 1e-2, warmupSteps: 5 };
  const g = new GPT(gpu, cfg);
  const t0 = performance.now();
  let allocsAfterFirst = 0;
  const lg = await trainSFT(
    g,
    (s) => batches[s],
    opts,
    ({ step }) => {
      if (step === 0) allocsAfterFirst = gpu.counters.allocations;
    },
  );
  const ms = performance.now() - t0;
  const newAllocs = gpu.counters.allocations - allocsAfterFirst;
  const c = new GPT(new CpuBackend(), cfg);
  const lc = await trainSFT(c, (s) => batches[s], opts);
  cleanup(g, c);
  const first = lg[0];
  const last = lg.slice(-5).reduce((a, b) => a + b, 0) / 5;
  const every = (l: number[]): string =>
    l
      .filter((_, i) => i % 10 === 0 || i === l.length - 1)
      .map((x) => x.toFixed(3))
      .join(' ');
  return {
    ok: last < 0.6 * first && lg.every(Number.isFinite) && newAllocs === 0,
    lines: [
      `GPU allocations after the first step: ${newAllocs} (steady loop must allocate nothing)`,
      `webgpu loss: ${every(lg)} (${steps} steps, ${ms.toFixed(0)} ms, ${(ms / steps).toFixed(1)} ms/step)`,
      `cpu    loss: ${every(lc)}`,
      `first ${first.toFixed(4)}, mean of last 5 ${last.toFixed(4)}; max |gpu - cpu| loss over the run ${Math.max(...lg.map((x, i) => Math.abs(x - lc[i]))).toExponential(2)}`,
    ],
    figures: { first, last, msPerStep: ms / steps },
  };
}

export const checks: Record<string, (gpu: WebGpuBackend) => Promise<CheckReport>> = {
  'model:step-parity-learned': (gpu) => stepParity(gpu, 'learned'),
  'model:step-parity-rope': (gpu) => stepParity(gpu, 'rope'),
  'model:greedy-parity': greedyParity,
  'model:cached-vs-full': cachedVsFull,
  'model:sft-webgpu': sftRun,
};
