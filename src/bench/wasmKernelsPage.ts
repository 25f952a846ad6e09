// Browser side of the bench's wasm kernel-variant rows: window.runWasmKernelsBench(plan) times the wasm
// engine's matmul at every preset shape with the plain SIMD kernels and with the relaxed-SIMD (fused
// multiply-add) ones, in this page (Chromium has relaxed SIMD on by default), alternating the two in two
// rounds and keeping each side's best median, as the Node rows do (src/bench/wasmSuite.ts).
import { WasmBackend } from '../engine/wasm/wasmBackend';
import { relaxedSimdAvailable } from '../engine/wasm/kernels';
import { type BenchPlan, benchOurMatmul, gflops } from './benchSuite';
import { maxAbsDiff } from '../util/diff';

export interface WasmKernelRow {
  name: string;
  N: number;
  C: number;
  OC: number;
  simdGflops: number;
  relaxedGflops: number;
  relaxedVsSimd: number;
  maxAbsDiff: number;
}

async function runWasmKernelsBench(
  plan: BenchPlan,
): Promise<{ relaxed: boolean; rows: WasmKernelRow[]; min: number | null; max: number | null }> {
  if (!relaxedSimdAvailable()) return { relaxed: false, rows: [], min: null, max: null };
  const simd = await WasmBackend.create('simd');
  const relaxed = await WasmBackend.create('relaxed');
  const rows: WasmKernelRow[] = [];
  try {
    for (const s of plan.shapes) {
      // calls per sample: about 1e8 flops (several ms: the page's clock is coarse, and V8 tiers the
      // module up from its baseline compiler while it runs), after 4 untimed samples
      const reps = Math.max(1, Math.ceil(1e8 / (2 * s.N * s.C * s.OC)));
      const p = { ...plan, matmulReps: reps, warmup: Math.max(plan.warmup, 4) };
      const t = { simd: [] as number[], relaxed: [] as number[] };
      let outs = { simd: new Float32Array(0) as Float32Array, relaxed: new Float32Array(0) as Float32Array };
      for (let round = 0; round < 2; round++) {
        const a = await benchOurMatmul(simd, s, p);
        const b = await benchOurMatmul(relaxed, s, p);
        t.simd.push(a.ms);
        t.relaxed.push(b.ms);
        outs = { simd: a.out, relaxed: b.out };
      }
      const [ms, rms] = [Math.min(...t.simd), Math.min(...t.relaxed)];
      rows.push({
        name: s.name,
        N: s.N,
        C: s.C,
        OC: s.OC,
        simdGflops: gflops(s, ms),
        relaxedGflops: gflops(s, rms),
        relaxedVsSimd: ms / rms,
        maxAbsDiff: maxAbsDiff(outs.relaxed, outs.simd),
      });
      console.log(
        `bench: page wasm matmul ${s.name} (${s.N}x${s.C}x${s.OC}): simd ${gflops(s, ms).toFixed(2)}, relaxed ${gflops(s, rms).toFixed(2)} GFLOP/s, ${(ms / rms).toFixed(2)}x`,
      );
    }
  } finally {
    simd.destroy();
    relaxed.destroy();
  }
  const r = rows.map((x) => x.relaxedVsSimd);
  return {
    relaxed: true,
    rows,
    min: r.length ? Math.min(...r) : null,
    max: r.length ? Math.max(...r) : null,
  };
}

(window as unknown as { runWasmKernelsBench: typeof runWasmKernelsBench }).runWasmKernelsBench =
  runWasmKernelsBench;
