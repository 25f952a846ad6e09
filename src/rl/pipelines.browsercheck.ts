// Browser-side pipeline check (run by e2e/pipelines.spec.ts through e2e/harness.ts): WebGpuBackend.prepare()
// compiles every registered kernel once, asynchronously, before the first dispatch. Fresh backends, in
// this order: (A) no prepare, every kernel compiled synchronously at its first dispatch; (B) prepare()
// awaited, then the same work; (C) prepare() running in the background (as WebGpuBackend.create starts
// it) while the first step's dispatches race it. Asserts one pipeline per registered kernel, no pipeline created by a
// dispatch after prepare, outputs bit-identical either way, and a WGSL compile error that names its
// kernel. The Co-RL step (B=2, K=2, 3 completion slots, paper-demo-shaped agents) comes from
// src/rl/leanFigures.ts, which is why this check lives in src/rl/ (a check follows its highest room).
import type { Backend } from '../engine/backend';
import { registeredKernels } from '../engine/webgpu/context';
import { WebGpuBackend } from '../engine/webgpu/webgpuBackend';
import { leanRun } from './leanFigures';

interface CheckReport {
  ok: boolean;
  lines: string[];
  figures: Record<string, number>;
}

const N = 8,
  C = 48,
  OC = 40;

/** One small matmul (with bias) on deterministic inputs; its output. */
async function smallMatmul(g: Backend): Promise<Float32Array> {
  let s = 12345;
  const rand = (n: number) =>
    Float32Array.from({ length: n }, () => (s = (s * 1103515245 + 12345) >>> 0) / 2 ** 32 - 0.5);
  const [inp, w, b, out] = [g.alloc([N, C]), g.alloc([OC, C]), g.alloc([OC]), g.alloc([N, OC])];
  g.write(inp, rand(N * C));
  g.write(w, rand(OC * C));
  g.write(b, rand(OC));
  g.matmulForward({ out, inp, weight: w, bias: b, N, C, OC });
  const r = (await g.read(out)) as Float32Array;
  for (const t of [inp, w, b, out]) g.free(t);
  return r.slice();
}

const sameBits = (a: Float32Array, b: Float32Array): boolean => {
  const x = new Uint32Array(a.buffer, a.byteOffset, a.length);
  const y = new Uint32Array(b.buffer, b.byteOffset, b.length);
  return x.length === y.length && x.every((v, i) => v === y[i]);
};

/** The first Co-RL step of fresh agents: agents built + step 1 wall time, and the step alone. */
async function firstStep(g: Backend): Promise<{ totalMs: number; stepMs: number }> {
  const t0 = performance.now();
  const r = await leanRun(g, { batchPrompts: 2, samples: 2, steps: 1, maxNewTokens: 3 });
  return { totalMs: performance.now() - t0, stepMs: r.steps[0].ms };
}

async function pipelinesCheck(shared: WebGpuBackend): Promise<CheckReport> {
  const kernels = registeredKernels();
  // the harness's shared backend compiles in the background from its creation: let it finish first
  const sharedPrep = await shared.prepare();
  const lines: string[] = [
    `${kernels.length} registered kernels (the harness backend's background prepare: ${sharedPrep.ms.toFixed(0)} ms)`,
  ];
  const fails: string[] = [];
  const expect = (cond: boolean, what: string) => {
    if (!cond) fails.push(what);
  };

  // (A) synchronous: each kernel compiled at its first dispatch
  const a = await WebGpuBackend.create({ prepare: false });
  let mmA: Float32Array, stepA: { totalMs: number; stepMs: number }, usedA: number;
  try {
    mmA = await smallMatmul(a);
    stepA = await firstStep(a);
    usedA = a.counters.pipelines;
  } finally {
    a.destroy();
  }
  lines.push(
    `(A) no prepare: first Co-RL step ${stepA.stepMs.toFixed(0)} ms (${stepA.totalMs.toFixed(0)} ms with building the agents), ${usedA} pipelines created synchronously`,
  );

  // (B) prepare() awaited first
  const b = await WebGpuBackend.create({ prepare: false });
  let prep: { kernels: number; ms: number },
    stepB: { totalMs: number; stepMs: number },
    badMessage = '';
  try {
    prep = await b.prepare();
    expect(
      prep.kernels === kernels.length,
      `prepare reported ${prep.kernels} kernels, ${kernels.length} registered`,
    );
    expect(
      b.counters.pipelines === kernels.length,
      `after prepare ${b.counters.pipelines} pipelines for ${kernels.length} kernels`,
    );
    const missing = kernels.filter((k) => !b.hasPipeline(k)).map((k) => `${k.label}:${k.entry}`);
    expect(missing.length === 0, `no pipeline after prepare for ${missing.join(', ')}`);
    const again = await b.prepare();
    expect(
      b.counters.pipelines === kernels.length,
      `a second prepare created ${b.counters.pipelines - kernels.length} pipelines`,
    );
    lines.push(
      `(B) prepare: ${prep.kernels} kernels in ${prep.ms.toFixed(0)} ms (a second prepare: ${again.ms.toFixed(1)} ms)`,
    );
    const mmB = await smallMatmul(b);
    expect(sameBits(mmA, mmB), 'matmul output differs between the synchronous and the prepared pipeline');
    stepB = await firstStep(b);
    expect(
      b.counters.pipelines === kernels.length,
      `dispatches after prepare created ${b.counters.pipelines - kernels.length} pipelines`,
    );
    lines.push(
      `(B) after prepare: first Co-RL step ${stepB.stepMs.toFixed(0)} ms (${stepB.totalMs.toFixed(0)} ms with building the agents), 0 pipelines created by dispatches`,
    );
    // a WGSL compile error names its kernel (checked last: it leaves a validation error on this device)
    const broken = {
      label: 'pipelines_broken',
      code: '@compute @workgroup_size(1) fn main() { let x: u32 = 1.5; }',
      entry: 'main',
    };
    try {
      await b.prepare([broken]);
    } catch (e) {
      badMessage = e instanceof Error ? e.message : String(e);
    }
    expect(
      badMessage.includes('pipelines_broken:main'),
      `a broken kernel's error does not name it: "${badMessage}"`,
    );
    lines.push(`broken WGSL: ${badMessage || '(no error)'}`);
  } finally {
    b.destroy();
  }

  // (C) background prepare (as create() starts it) while the first step runs at once: dispatches create the
  // kernels not ready yet synchronously, the background results for those are dropped; one pipeline each
  const c = await WebGpuBackend.create({ prepare: true });
  let mmC: Float32Array, stepC: { totalMs: number; stepMs: number }, raced: number;
  try {
    stepC = await firstStep(c);
    raced = c.counters.pipelines;
    mmC = await smallMatmul(c);
    await c.prepare();
    expect(
      c.counters.pipelines === kernels.length,
      `background prepare: ${c.counters.pipelines} pipelines for ${kernels.length} kernels`,
    );
    await c.sync();
  } finally {
    c.destroy();
  }
  expect(sameBits(mmA, mmC), 'matmul output differs with a background prepare');
  lines.push(
    `(C) background prepare, not awaited: first Co-RL step ${stepC.stepMs.toFixed(0)} ms (${stepC.totalMs.toFixed(0)} ms with building the agents), ${raced} pipelines ready after it, ${kernels.length} in all, each once`,
  );
  lines.push(...fails.map((f) => `FAIL: ${f}`));
  return {
    ok: fails.length === 0,
    lines,
    figures: {
      kernels: kernels.length,
      prepareMs: prep.ms,
      usedByStep: usedA,
      firstStepMsSync: stepA.stepMs,
      firstStepMsPrepared: stepB.stepMs,
      firstStepMsBackground: stepC.stepMs,
      firstRunMsSync: stepA.totalMs,
      firstRunMsPrepared: stepB.totalMs,
      firstRunMsBackground: stepC.totalMs,
      failures: fails.length,
    },
  };
}

export const checks: Record<string, (g: WebGpuBackend) => Promise<CheckReport>> = {
  'pipelines:prepare': pipelinesCheck,
};
