// Our side of the benchmark on any backend (Node for CPU, the bench page for WebGPU): the supervised
// step of a benchmark model, and the CPU report (our matmul against a plain triple loop at every
// shape, and the supervised step of every model).
import type { Backend } from '../engine/backend';
import { CpuBackend } from '../engine/cpu/cpuBackend';
import { GPT } from '../model/gpt';
import { sftStep, type SFTBatch } from '../model/sft';
import { leanStepFigures, type LeanStepFigures } from '../rl/leanFigures';
import {
  type BenchModel,
  type BenchPlan,
  type MatmulShape,
  benchOurMatmul,
  gflops,
  matmulInputs,
  naiveMatmul,
  timeMs,
} from './benchSuite';

/** Adam hyperparameters of the benchmarked step (both sides; no clipping, no weight decay). */
export const SFT_HP = { lr: 1e-3, beta1: 0.9, beta2: 0.99, eps: 1e-8, weightDecay: 0 };

/**
 * The benchmark batch of a model: B rows of T+1 tokens (deterministic ids below the vocabulary); the
 * loss counts the completion part (targets from the last prompt position on), as pretraining does.
 */
export function benchSftBatch(m: BenchModel): SFTBatch {
  const { B, T } = m.sft;
  const V = m.cfg.vocabSize;
  const tokens = new Uint32Array(B * (T + 1));
  for (let i = 0; i < tokens.length; i++) tokens[i] = (i * 7 + 3 + Math.floor(i / 5)) % V;
  const mask = new Float32Array(B * T);
  for (let b = 0; b < B; b++) for (let t = m.rl.Tp - 1; t < T; t++) mask[b * T + t] = 1;
  return { B, T, tokens, mask };
}

export interface OurSft {
  /** Wall-clock ms of one step (upload, forward, loss, backward, Adam, loss read back). */
  ms: number;
  /** Sum of the step's kernels' GPU ms (timestamp queries), when the backend has them. */
  gpuMs: number | null;
  dispatches: number;
  params: number;
  loss: number;
  /** GPU ms per kernel entry point in one step (timestamp queries), largest first. */
  kernels: { kernel: string; calls: number; ms: number }[] | null;
}

interface Timestamps {
  hasTimestamps: boolean;
  beginTimestamps(n: number): void;
  endTimestamps(): Promise<{ kernel: string; ms: number }[]>;
}
const timestampsOf = (b: Backend): Timestamps | null => {
  const t = b as unknown as Partial<Timestamps>;
  return t.hasTimestamps && t.beginTimestamps && t.endTimestamps ? (t as Timestamps) : null;
};

/** Our supervised step of `m` on `backend`: median wall-clock ms, dispatches, and GPU kernel time. */
export async function benchOurSft(backend: Backend, m: BenchModel, plan: BenchPlan): Promise<OurSft> {
  const model = new GPT(backend, m.cfg);
  const batch = benchSftBatch(m);
  let step = 0;
  let loss = NaN;
  const run = async (): Promise<void> => {
    loss = (await sftStep(model, batch, { ...SFT_HP, step: ++step }, 0)).loss;
  };
  try {
    const ms = await timeMs(run, async () => {}, plan.sftReps, plan.samples, plan.warmup);
    const d0 = backend.counters.dispatches;
    await run();
    const dispatches = backend.counters.dispatches - d0;
    let gpuMs: number | null = null;
    let kernels: OurSft['kernels'] = null;
    const ts = timestampsOf(backend);
    if (ts) {
      const per: { total: number; list: { kernel: string; ms: number }[] }[] = [];
      for (let i = 0; i < plan.samples; i++) {
        ts.beginTimestamps(dispatches + 16);
        await run();
        const list = await ts.endTimestamps();
        per.push({ total: list.reduce((a, b) => a + b.ms, 0), list });
      }
      per.sort((a, b) => a.total - b.total);
      const mid = per[Math.floor(per.length / 2)];
      gpuMs = mid.total;
      const by = new Map<string, { kernel: string; calls: number; ms: number }>();
      for (const k of mid.list) {
        const e = by.get(k.kernel) ?? { kernel: k.kernel, calls: 0, ms: 0 };
        e.calls++;
        e.ms += k.ms;
        by.set(k.kernel, e);
      }
      kernels = [...by.values()].sort((a, b) => b.ms - a.ms);
    }
    return { ms, gpuMs, dispatches, params: model.layout.count, loss, kernels };
  } finally {
    model.free();
  }
}

export interface CpuMatmulFigure extends MatmulShape {
  ms: number;
  gflops: number;
  naiveMs: number;
  naiveGflops: number;
  /** naiveMs / ms: how many times faster our CPU matmul is than the plain triple loop. */
  speedup: number;
}

/** Our CPU matmul against the plain triple loop at `s`, alternating the two to share any noise. */
async function cpuMatmul(be: CpuBackend, s: MatmulShape, plan: BenchPlan): Promise<CpuMatmulFigure> {
  const d = matmulInputs(s);
  const out = new Float32Array(s.N * s.OC);
  // enough calls per sample for ~5 ms of the naive loop
  const reps = Math.max(1, Math.ceil(5e6 / (2 * s.N * s.C * s.OC)));
  const p = { ...plan, matmulReps: reps };
  const ours: number[] = [];
  const naive: number[] = [];
  for (let round = 0; round < 2; round++) {
    ours.push((await benchOurMatmul(be, s, p)).ms);
    naive.push(
      await timeMs(
        () => naiveMatmul(out, d.inp, d.weight, d.bias, s.N, s.C, s.OC),
        async () => {},
        reps,
        plan.samples,
        plan.warmup,
      ),
    );
  }
  const ms = Math.min(...ours);
  const naiveMs = Math.min(...naive);
  return { ...s, ms, gflops: gflops(s, ms), naiveMs, naiveGflops: gflops(s, naiveMs), speedup: naiveMs / ms };
}

export interface CpuReport {
  backend: string;
  adapter: string;
  timing: 'wall-clock';
  matmul: CpuMatmulFigure[];
  sft: ({ agent: string } & OurSft)[];
  /** The first timed agent's step, as earlier reports had it. */
  extra: { sftStepMs?: number; sftParams?: number; sftBatch?: string; sftAgent?: string };
  summary: { matmulSpeedupMin: number | null; matmulSpeedupGeomean: number | null };
  /** One Co-RL step of the preset's shapes (src/rl/leanFigures.ts); null when skipped. */
  coRlStep: LeanStepFigures | null;
}

const geomean = (xs: number[]): number | null =>
  xs.length ? Math.exp(xs.reduce((a, x) => a + Math.log(x), 0) / xs.length) : null;

/** Every CPU figure of `plan`: matmul against the triple loop at each shape, and the supervised steps. */
export async function runCpuBench(plan: BenchPlan, log: (s: string) => void = () => {}): Promise<CpuReport> {
  const be = new CpuBackend();
  const matmul: CpuMatmulFigure[] = [];
  for (const s of plan.shapes) {
    const f = await cpuMatmul(be, s, plan);
    log(`cpu matmul ${s.name}: ${f.gflops.toFixed(2)} GFLOP/s, ${f.speedup.toFixed(2)}x the triple loop`);
    matmul.push(f);
  }
  const sft: CpuReport['sft'] = [];
  for (const m of plan.models.filter((x) => plan.sftAgents.includes(x.agent))) {
    const r = await benchOurSft(be, m, { ...plan, sftReps: 1 });
    log(`cpu sft ${m.agent}: ${r.ms.toFixed(1)} ms`);
    sft.push({ agent: m.agent, ...r });
  }
  const sp = matmul.map((f) => f.speedup);
  const first = plan.models.find((m) => m.agent === sft[0]?.agent);
  let coRlStep: LeanStepFigures | null = null;
  if (plan.leanSteps > 0) {
    log(`cpu co-rl step: ${plan.leanSteps} steps...`);
    coRlStep = await leanStepFigures(be, { stepsN: plan.leanSteps, timedSteps: 3, preset: plan.preset });
    log(`cpu co-rl step: ${coRlStep.stepMs.toFixed(0)} ms, ${coRlStep.readbacksPerStep} readbacks/step`);
  }
  return {
    backend: be.info.name,
    adapter: be.info.adapter,
    timing: 'wall-clock',
    matmul,
    sft,
    extra: first
      ? {
          sftStepMs: sft[0].ms,
          sftParams: sft[0].params,
          sftBatch: `${first.sft.B}x${first.sft.T}`,
          sftAgent: first.agent,
        }
      : {},
    summary: { matmulSpeedupMin: sp.length ? Math.min(...sp) : null, matmulSpeedupGeomean: geomean(sp) },
    coRlStep,
  };
}

export { geomean };
