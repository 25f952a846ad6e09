// Browser side of `npm run bench`: window.runWebGpuBench(plan) measures, in this page on one
// adapter, our WebGPU backend and TensorFlow.js's WebGPU backend at the same matmul shapes and the
// same supervised step, and returns the report (see docs/performance.md for the method).
import { WebGpuBackend } from '../engine/webgpu/webgpuBackend';
import { type BenchPlan, benchOurMatmul, gflops, median } from './benchSuite';
import { SFT_HP, benchOurSft, benchSftBatch, geomean } from './runBench';
import { TfGpt, startTf, tfMatmul, timeTfStep } from './tfPeer';
import { leanStepFigures, type LeanStepFigures } from '../rl/leanFigures';
import { type BenchKernelOpts, chooseKernels } from './benchKernels';
import { type ScalingCaps, scalingCells, scalingRows } from './scaling';
import { opFigures } from './opBench';
import { CpuBackend } from '../engine/cpu/cpuBackend';
import './wasmKernelsPage'; // window.runWasmKernelsBench: the wasm kernel variants in this page
import { maxAbsDiff } from '../util/diff';

/** Target wall-clock ms of one timed sample of the slower side, and the fewest matmuls per sample. */
const SAMPLE_MS = 30;
const MIN_REPS = 3;

/** Our GPU ms per matmul at one shape from timestamp queries (one timed pass per dispatch). */
async function ourMatmulGpuMs(
  be: WebGpuBackend,
  s: BenchPlan['shapes'][number],
  plan: BenchPlan,
): Promise<number> {
  const inp = be.alloc([s.N, s.C]);
  const w = be.alloc([s.OC, s.C]);
  const b = s.bias ? be.alloc([s.OC]) : null;
  const o = be.alloc([s.N, s.OC]);
  for (const t of [inp, w, b]) if (t) be.fill(t, 0.5);
  try {
    const per: number[] = [];
    for (let i = 0; i < plan.warmup + plan.samples; i++) {
      be.beginTimestamps(plan.matmulReps);
      for (let r = 0; r < plan.matmulReps; r++)
        be.matmulForward({ out: o, inp, weight: w, bias: b, N: s.N, C: s.C, OC: s.OC });
      const ms = (await be.endTimestamps()).reduce((x, y) => x + y.ms, 0) / plan.matmulReps;
      if (i >= plan.warmup) per.push(ms);
    }
    return median(per);
  } finally {
    for (const t of [inp, w, b, o]) if (t) be.free(t);
  }
}

async function runWebGpuBench(
  plan: BenchPlan,
  kernelOpts: BenchKernelOpts = { force: '', cache: null },
  scaling: ScalingCaps | null = null,
): Promise<unknown> {
  const log = (s: string): void => console.log(`bench: ${s}`);
  const be = await WebGpuBackend.create();
  await be.prepare(); // every kernel compiled before anything is timed
  const kernelChoice = await chooseKernels(be, plan, kernelOpts, log); // measured variants (or forced) before any timing
  const tfInfo = await startTf();
  const timestamps = !plan.wallClock && be.hasTimestamps && tfInfo.timestamps;
  const why = plan.wallClock
    ? 'asked for by --wall-clock'
    : !be.hasTimestamps
      ? 'the adapter has no timestamp-query'
      : "TF.js's device has no timestamp-query";
  const wallClockOnly: string[] = [];
  try {
    // ---- matmul: ours vs TF.js at every shape; two alternating rounds, best median of each side
    const matmul = [];
    for (const s of plan.shapes) {
      const oursWall: number[] = [];
      const tfWall: number[] = [];
      let diff = 0;
      let tfKernels: number | null = null;
      // the same matmuls per sample on both sides: enough for ~SAMPLE_MS of the slower one
      const probe = { ...plan, matmulReps: 1, samples: 1, warmup: 1 };
      const slower = Math.max(
        (await benchOurMatmul(be, s, probe)).ms,
        (await tfMatmul(s, probe, 'wall')).wallMs,
      );
      const reps = Math.min(plan.matmulReps, Math.max(MIN_REPS, Math.ceil(SAMPLE_MS / slower)));
      const p = { ...plan, matmulReps: reps };
      for (let round = 0; round < 2; round++) {
        const o = await benchOurMatmul(be, s, p);
        const t = await tfMatmul(s, p, 'wall');
        oursWall.push(o.ms);
        tfWall.push(t.wallMs);
        diff = Math.max(diff, maxAbsDiff(o.out, t.out));
      }
      let oursGpu: number | null = null;
      let tfGpu: number | null = null;
      if (timestamps) {
        oursGpu = await ourMatmulGpuMs(be, s, p);
        const t = await tfMatmul(s, p, 'gpu');
        tfGpu = t.gpuMs;
        tfKernels = t.kernels;
      }
      const ow = Math.min(...oursWall);
      const tw = Math.min(...tfWall);
      const fig = {
        ...s,
        variant: be.kernels.pick('matmul', [s.N, s.C, s.OC]),
        reps,
        ours: { wallMs: ow, gpuMs: oursGpu, gflops: gflops(s, oursGpu ?? ow), wallGflops: gflops(s, ow) },
        tf: {
          wallMs: tw,
          gpuMs: tfGpu,
          gflops: gflops(s, tfGpu ?? tw),
          wallGflops: gflops(s, tw),
          kernels: tfKernels,
        },
        /** ours speed / TF speed, on the GPU timestamps where there are any, else wall clock. */
        ratio: oursGpu !== null && tfGpu !== null ? tfGpu / oursGpu : tw / ow,
        wallRatio: tw / ow,
        maxAbsDiff: diff,
      };
      log(
        `${s.name} (${s.N}x${s.C}x${s.OC}, ${fig.variant}): ours ${fig.ours.gflops.toFixed(3)} TF ${fig.tf.gflops.toFixed(3)} GFLOP/s, ratio ${fig.ratio.toFixed(2)} (wall ${fig.wallRatio.toFixed(2)})`,
      );
      matmul.push(fig);
    }
    if (!timestamps && plan.shapes.length) wallClockOnly.push(`matmul (every shape): ${why}`);

    // ---- the supervised step of each requested agent: ours vs TF.js
    const sft = [];
    for (const m of plan.models.filter((x) => plan.sftAgents.includes(x.agent))) {
      const batch = benchSftBatch(m);
      const ours = await benchOurSft(be, m, plan);
      const peer = new TfGpt(m.cfg, batch.B, batch.T, SFT_HP.lr, SFT_HP.beta1, SFT_HP.beta2, SFT_HP.eps);
      try {
        const tfMs = await timeTfStep(peer, batch.tokens, batch.mask, plan);
        const tfLoss = await peer.step(batch.tokens, batch.mask);
        let tfGpu: { ms: number; kernels: number } | null = null;
        if (timestamps) {
          const per: { ms: number; kernels: number }[] = [];
          for (let i = 0; i < plan.samples; i++) per.push(await peer.stepKernelMs(batch.tokens, batch.mask));
          per.sort((a, b) => a.ms - b.ms);
          tfGpu = per[Math.floor(per.length / 2)];
        }
        const fig = {
          agent: m.agent,
          family: m.family,
          batch: `${batch.B}x${batch.T}`,
          params: ours.params,
          tfParams: peer.paramCount,
          ours: {
            ms: ours.ms,
            gpuMs: ours.gpuMs,
            dispatches: ours.dispatches,
            loss: ours.loss,
            kernels: ours.kernels,
          },
          tf: { ms: tfMs, gpuMs: tfGpu?.ms ?? null, kernels: tfGpu?.kernels ?? null, loss: tfLoss },
          /** TF ms / our ms, wall clock (the whole step, loss read back, as training runs it). */
          ratio: tfMs / ours.ms,
          gpuRatio: ours.gpuMs !== null && tfGpu ? tfGpu.ms / ours.gpuMs : null,
        };
        log(
          `sft ${m.agent}: ours ${ours.ms.toFixed(2)} ms, TF ${tfMs.toFixed(2)} ms, ratio ${fig.ratio.toFixed(2)}`,
        );
        sft.push(fig);
      } finally {
        peer.dispose();
      }
    }
    if (sft.length) {
      wallClockOnly.push(
        timestamps
          ? 'sft step ms and ratio: wall clock of the whole step by design (GPU kernel sums in gpuMs/gpuRatio)'
          : `sft step (every agent): wall clock only, no GPU kernel sums: ${why}`,
      );
    }
    const ratios = matmul.map((f) => f.ratio);
    const first = sft[0];
    // ---- one Co-RL step of the preset's shapes: readbacks, dispatches per token, allocations, memory
    let coRlStep: LeanStepFigures | null = null;
    if (plan.leanSteps > 0) {
      log(`co-rl step: ${plan.leanSteps} steps (counts and memory)...`);
      coRlStep = await leanStepFigures(be, { stepsN: plan.leanSteps, timedSteps: 3, preset: plan.preset });
      log(`co-rl step: ${coRlStep.stepMs.toFixed(0)} ms, ${coRlStep.readbacksPerStep} readbacks/step`);
      wallClockOnly.push('co-rl step ms: wall clock of the whole step by design');
    }
    // ---- every op of the table with a parity case, on WebGPU and on the CPU reference (src/bench/opBench.ts)
    const ops = await opFigures(be, new CpuBackend(), plan, log);
    // ---- the WebGPU rows of the scaling table (--device): the cells of the cpu and wasm rows, on this backend
    const engine = { name: be.info.name, make: async () => be, release: () => {} };
    const scalingTable = scaling
      ? { caps: scaling, rows: await scalingRows(engine, scalingCells(), scaling, log) }
      : null;
    return {
      backend: be.info.name,
      adapter: be.info.adapter,
      features: be.info.features,
      tf: tfInfo,
      timing: timestamps ? 'gpu-timestamp' : 'wall-clock',
      wallClockOnly,
      kernelChoice,
      matmul,
      sft,
      extra: first
        ? { sftStepMs: first.ours.ms, sftParams: first.params, sftBatch: first.batch, sftAgent: first.agent }
        : {},
      coRlStep,
      ops,
      scaling: scalingTable,
      summary: {
        matmulRatioMin: ratios.length ? Math.min(...ratios) : null,
        matmulRatioGeomean: geomean(ratios),
        matmulWallRatioMin: matmul.length ? Math.min(...matmul.map((f) => f.wallRatio)) : null,
        sftRatioMin: sft.length ? Math.min(...sft.map((f) => f.ratio)) : null,
      },
    };
  } finally {
    be.destroy();
  }
}

(window as unknown as { runWebGpuBench: typeof runWebGpuBench }).runWebGpuBench = runWebGpuBench;
document.title = 'bench ready';
