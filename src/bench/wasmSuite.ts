// The wasm sections of `npm run bench` (issue 13), in Node: our wasm matmul at every preset shape (and
// at the 1M-parameter agent's shapes) against TensorFlow.js's WASM backend (XNNPACK, SIMD, one thread
// like ours) and against the CPU reference, alternating the three so they share the machine's noise; every
// op of the table at its parity case's sizes on wasm and cpu (opBench.ts); a Co-RL step of the preset on
// wasm against cpu; the scaling table (src/bench/scaling.ts) on both; and the lock step on 1 vs N model
// workers (src/bench/poolBench.ts); in-page pretraining of a two-build preset on 1 vs 2 model workers
// (src/bench/pretrainBench.ts); and, asked for by name, the forward kernel's profile by ablation
// (src/bench/fmaProfile.ts).
import { poolRows } from './poolBench';
import { LADDER_WORK, pretrainRow } from './pretrainBench';
import { defaultWorkers } from '../rl/pool/nodePool';
import type { Backend } from '../engine/backend';
import { CpuBackend } from '../engine/cpu/cpuBackend';
import { WasmBackend } from '../engine/wasm/wasmBackend';
import { makeNodeBackend } from '../engine/wasm/nodeBackend';
import { makeGPTConfig } from '../model/config';
import { leanRun } from '../rl/leanFigures';
import {
  type BenchModel,
  type BenchPlan,
  type MatmulShape,
  benchOurMatmul,
  gflops,
  median,
  modelMatmulShapes,
  timeMs,
} from './benchSuite';
import {
  NO_CAPS,
  SCALING_SIZES,
  type ScalingCaps,
  type ScalingRow,
  scalingCells,
  scalingRows,
} from './scaling';
import { loadTfWasm, tfWasmMatmul } from './tfWasm';
import { opFigures } from './opBench';
import { fmaProfile } from './fmaProfile';
import { maxAbsDiff } from '../util/diff';

export const WASM_SECTIONS = [
  'matmul',
  'ops',
  'step',
  'scaling',
  'pool',
  'pretrain',
  'pretrain-ladder',
  'fma-profile',
] as const;
export type WasmSection = (typeof WASM_SECTIONS)[number];
/** The sections run when none are named: all but the kernel profile (src/bench/fmaProfile.ts), asked for by name. */
/** Not run unless named: a profile, and a row of minutes (the natural recipe's rungs). */
const OPT_IN: readonly WasmSection[] = ['fma-profile', 'pretrain-ladder'];
const DEFAULT_SECTIONS = WASM_SECTIONS.filter((s) => !OPT_IN.includes(s));
export const WASM_USAGE = `  --wasm SECTIONS|none: wasm sections to run (${WASM_SECTIONS.join(', ')}; default all but fma-profile and pretrain-ladder), --wasm-only: only those`;

/** `--wasm SECTIONS|none` and `--wasm-only` taken out of the bench's arguments. */
export function splitWasmArgs(argv: readonly string[]): {
  rest: string[];
  sections: WasmSection[];
  only: boolean;
  bigShapes: boolean;
} {
  const rest: string[] = [];
  let sections: WasmSection[] | null = null;
  let only = false;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--wasm-only') only = true;
    else if (argv[i] === '--wasm') {
      const v = argv[++i];
      if (v === undefined)
        throw new Error(
          `--wasm needs a value: none or a comma-separated list of ${WASM_SECTIONS.join(', ')}`,
        );
      const names = v === 'none' ? [] : v.split(',').map((s) => s.trim());
      const bad = names.filter((n) => !(WASM_SECTIONS as readonly string[]).includes(n));
      if (bad.length)
        throw new Error(
          `unknown --wasm section${bad.length > 1 ? 's' : ''} ${bad.join(', ')}; valid: ${WASM_SECTIONS.join(', ')}, none`,
        );
      sections = names as WasmSection[];
    } else rest.push(argv[i]);
  }
  const subset = rest.includes('--shape');
  // a shape subset times matmuls only (as the CPU and WebGPU sections do)
  return {
    rest,
    sections: sections ?? (subset ? ['matmul'] : [...DEFAULT_SECTIONS]),
    only,
    bigShapes: !subset,
  };
}

export interface WasmMatmulFigure extends MatmulShape {
  wasmMs: number;
  tfjsMs: number;
  cpuMs: number;
  wasmGflops: number;
  tfjsGflops: number;
  cpuGflops: number;
  /** tfjsMs / wasmMs and cpuMs / wasmMs: how many times faster ours is. */
  vsTfjs: number;
  vsCpu: number;
  /** Largest |difference| of our wasm output and TensorFlow.js's against the CPU reference's. */
  maxAbsDiffWasm: number;
  maxAbsDiffTfjs: number;
  /** The relaxed-SIMD (fused multiply-add) kernels at the same shape, timed in the same rounds, and relaxedMs / wasmMs inverted. */
  relaxedMs: number | null;
  relaxedGflops: number | null;
  relaxedVsSimd: number | null;
  maxAbsDiffRelaxed: number | null;
}

/** The 1M-parameter agent's shapes: the preset's first model with the table's 1M architecture. */
function bigShapes(models: readonly BenchModel[]): MatmulShape[] {
  const size = SCALING_SIZES[SCALING_SIZES.length - 1];
  const m = models[0];
  const cfg = makeGPTConfig({ ...m.cfg, nLayer: size.nLayer, nEmbd: size.nEmbd, nHead: size.nHead });
  return modelMatmulShapes({ ...m, agent: `${size.label}-${m.agent}`, cfg });
}

async function matmulFigure(
  wasm: Backend,
  cpu: Backend,
  tf: Awaited<ReturnType<typeof loadTfWasm>>['tf'],
  s: MatmulShape,
  plan: BenchPlan,
  relaxed: Backend | null,
): Promise<WasmMatmulFigure> {
  // calls per sample: about 1.5e7 flops (a few ms), at least one
  const reps = Math.max(1, Math.ceil(1.5e7 / (2 * s.N * s.C * s.OC)));
  const p = { ...plan, matmulReps: reps };
  const peer = tfWasmMatmul(tf, s);
  const t = { wasm: [] as number[], tfjs: [] as number[], cpu: [] as number[], relaxed: [] as number[] };
  let relaxedOut: Float32Array = new Float32Array(0);
  let outs: Record<'wasm' | 'cpu' | 'tfjs', Float32Array> = {
    wasm: new Float32Array(0),
    cpu: new Float32Array(0),
    tfjs: new Float32Array(0),
  };
  try {
    for (let round = 0; round < 2; round++) {
      const w = await benchOurMatmul(wasm, s, p);
      t.tfjs.push(await timeMs(peer.run, async () => void peer.last(), reps, plan.samples, plan.warmup));
      const c = await benchOurMatmul(cpu, s, p);
      if (relaxed) {
        const r = await benchOurMatmul(relaxed, s, p);
        t.relaxed.push(r.ms);
        relaxedOut = r.out;
      }
      t.wasm.push(w.ms);
      t.cpu.push(c.ms);
      outs = { wasm: w.out, cpu: c.out, tfjs: peer.last() };
    }
  } finally {
    peer.free();
  }
  const [wasmMs, tfjsMs, cpuMs] = [Math.min(...t.wasm), Math.min(...t.tfjs), Math.min(...t.cpu)];
  return {
    ...s,
    wasmMs,
    tfjsMs,
    cpuMs,
    wasmGflops: gflops(s, wasmMs),
    tfjsGflops: gflops(s, tfjsMs),
    cpuGflops: gflops(s, cpuMs),
    vsTfjs: tfjsMs / wasmMs,
    vsCpu: cpuMs / wasmMs,
    maxAbsDiffWasm: maxAbsDiff(outs.wasm, outs.cpu),
    maxAbsDiffTfjs: maxAbsDiff(outs.tfjs, outs.cpu),
    ...relaxedFigures(s, wasmMs, t.relaxed, relaxedOut, outs.cpu),
  };
}

function relaxedFigures(
  s: MatmulShape,
  wasmMs: number,
  ms: number[],
  out: Float32Array,
  ref: Float32Array,
): Pick<WasmMatmulFigure, 'relaxedMs' | 'relaxedGflops' | 'relaxedVsSimd' | 'maxAbsDiffRelaxed'> {
  if (ms.length === 0)
    return { relaxedMs: null, relaxedGflops: null, relaxedVsSimd: null, maxAbsDiffRelaxed: null };
  const relaxedMs = Math.min(...ms);
  return {
    relaxedMs,
    relaxedGflops: gflops(s, relaxedMs),
    relaxedVsSimd: wasmMs / relaxedMs,
    maxAbsDiffRelaxed: maxAbsDiff(out, ref),
  };
}

/** Co-RL steps of the preset at the default B x K on cpu and wasm, alternated twice; medians after a warm-up step. */
async function coRlStep(plan: BenchPlan, log: (s: string) => void): Promise<Record<string, unknown>> {
  const o = { batchPrompts: 16, samples: 8, steps: 4, preset: plan.preset };
  const ms = { cpu: [] as number[], wasm: [] as number[] };
  let wasmAllocs = 0;
  let wasmReadbacks = 0;
  for (let round = 0; round < 2; round++) {
    const c = await leanRun(new CpuBackend(), o);
    ms.cpu.push(median(c.steps.slice(1).map((s) => s.ms)));
    const wbe = await WasmBackend.create();
    const w = await leanRun(wbe, o);
    ms.wasm.push(median(w.steps.slice(1).map((s) => s.ms)));
    wasmAllocs = Math.max(
      wasmAllocs,
      w.steps.slice(1).reduce((a, s) => a + s.allocations, 0),
    );
    wasmReadbacks = Math.max(wasmReadbacks, ...w.steps.map((s) => s.readbacks));
    wbe.destroy();
  }
  const cpuMs = Math.min(...ms.cpu);
  const wasmMs = Math.min(...ms.wasm);
  log(
    `co-rl step (${plan.preset}, BxK 128): cpu ${cpuMs.toFixed(0)} ms, wasm ${wasmMs.toFixed(0)} ms, ${(cpuMs / wasmMs).toFixed(2)}x`,
  );
  return {
    batch: 'B=16 K=8',
    cpuMs,
    wasmMs,
    speedup: cpuMs / wasmMs,
    samples: ms,
    wasmAllocationsAfterFirstStep: wasmAllocs,
    wasmReadbacksPerStep: wasmReadbacks,
  };
}

const minOf = (xs: number[]): number | null => (xs.length ? Math.min(...xs) : null);
const maxOf = (xs: number[]): number | null => (xs.length ? Math.max(...xs) : null);

/** The selected wasm sections of `plan`. */
export async function runWasmBench(
  plan: BenchPlan,
  o: { sections: readonly WasmSection[]; bigShapes: boolean; scalingCaps?: ScalingCaps | null },
  log: (s: string) => void = () => {},
): Promise<Record<string, unknown>> {
  const wasm = await WasmBackend.create();
  const report: Record<string, unknown> = { adapter: wasm.info.adapter };
  const summary: Record<string, unknown> = {};
  if (o.sections.includes('matmul')) {
    const peer = await loadTfWasm();
    report.tfjs = { backend: 'wasm', simd: peer.simd, threads: peer.threads, version: peer.tf.version_core };
    const cpu = new CpuBackend();
    const relaxed = await makeNodeBackend('wasm-relaxed').catch((e: unknown) => {
      log(`wasm matmul: no relaxed-SIMD rows (${(e as Error).message})`);
      return null;
    });
    const preset: WasmMatmulFigure[] = [];
    const big: WasmMatmulFigure[] = [];
    const shapes = [
      ...plan.shapes.map((s) => [s, preset] as const),
      ...(o.bigShapes ? bigShapes(plan.models).map((s) => [s, big] as const) : []),
    ];
    for (const [s, into] of shapes) {
      const f = await matmulFigure(wasm, cpu, peer.tf, s, plan, relaxed);
      log(
        `wasm matmul ${s.name} (${s.N}x${s.C}x${s.OC}): ${f.wasmGflops.toFixed(2)} GFLOP/s, ${f.vsTfjs.toFixed(2)}x tfjs-wasm, ${f.vsCpu.toFixed(2)}x cpu` +
          (f.relaxedVsSimd === null
            ? ''
            : `; relaxed SIMD ${f.relaxedGflops!.toFixed(2)} GFLOP/s, ${f.relaxedVsSimd.toFixed(2)}x plain`),
      );
      into.push(f);
    }
    report.matmul = preset;
    report.matmul1M = big;
    Object.assign(summary, {
      matmulVsTfjsMin: minOf(preset.map((f) => f.vsTfjs)),
      matmulVsCpuMin: minOf(preset.map((f) => f.vsCpu)),
      matmul1MVsTfjsMin: minOf(big.map((f) => f.vsTfjs)),
      matmul1MVsCpuMin: minOf(big.map((f) => f.vsCpu)),
      matmulRelaxedVsSimdMin: minOf(
        preset.flatMap((f) => (f.relaxedVsSimd === null ? [] : [f.relaxedVsSimd])),
      ),
      matmulRelaxedVsSimdMax: maxOf(
        preset.flatMap((f) => (f.relaxedVsSimd === null ? [] : [f.relaxedVsSimd])),
      ),
    });
    relaxed?.destroy();
  }
  if (o.sections.includes('ops')) {
    // every op of the table with a parity case (src/bench/opBench.ts), and which ran the CPU kernel
    report.ops = await opFigures(wasm, new CpuBackend(), plan, log);
    report.cpuKernelOps = wasm.info.cpuKernelOps;
  }
  wasm.destroy();
  if (o.sections.includes('step')) {
    const step = await coRlStep(plan, log);
    report.coRlStep = step;
    summary.coRlStepVsCpu = step.speedup;
  }
  if (o.sections.includes('scaling')) {
    const cells = scalingCells();
    const caps = o.scalingCaps ?? NO_CAPS;
    const rows: ScalingRow[] = [
      ...(await scalingRows(
        { name: 'cpu', make: async () => new CpuBackend(), release: (be) => be.destroy() },
        cells,
        caps,
        log,
      )),
      ...(await scalingRows(
        { name: 'wasm', make: () => WasmBackend.create(), release: (be) => be.destroy() },
        cells,
        caps,
        log,
      )),
    ];
    report.scaling = { caps, rows }; // the table with webgpu beside: the report's summary.scaling
  }
  if (o.sections.includes('pool')) {
    const rows = await poolRows('wasm', defaultWorkers(), log);
    report.pool = rows; // 1 vs N model workers (src/bench/poolBench.ts)
    summary.poolSpeedup = Object.fromEntries(rows.map((r) => [r.row, r.speedup]));
  }
  if (o.sections.includes('pretrain')) {
    const row = await pretrainRow('wasm', 2, log);
    report.pretrain = row; // a two-build preset's pretraining on 1 vs 2 model workers (src/bench/pretrainBench.ts)
    summary.pretrainSpeedup = row.speedup;
  }
  if (o.sections.includes('pretrain-ladder')) {
    const row = await pretrainRow('wasm', 2, log, LADDER_WORK);
    report.pretrainLadder = row; // one build's corpus ladder, its rungs on 1 vs 2 builders (minutes)
    summary.pretrainLadderSpeedup = row.speedup;
  }
  if (o.sections.includes('fma-profile')) {
    // where the forward kernel's time goes: loads, arithmetic, accumulators (src/bench/fmaProfile.ts)
    const prof = await fmaProfile(plan.models, log);
    report.fmaProfile = prof;
    summary.fmaProfile = prof.summary;
  }
  report.summary = summary;
  return report;
}
