// TensorFlow.js's WASM backend (@tensorflow/tfjs-backend-wasm, XNNPACK kernels, SIMD) in Node, as the
// peer of our wasm matmul: its .wasm files load from the npm package (no network), one thread like ours.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { MatmulShape } from './benchSuite';
import { matmulInputs } from './benchSuite';

type Tf = typeof import('@tensorflow/tfjs-core');

/** tfjs-core with the wasm backend ready; what it reports about SIMD and threads. */
export async function loadTfWasm(): Promise<{ tf: Tf; simd: boolean; threads: number }> {
  const tf = await import('@tensorflow/tfjs-core');
  const wasm = await import('@tensorflow/tfjs-backend-wasm');
  const require = createRequire(import.meta.url);
  const dist = join(dirname(require.resolve('@tensorflow/tfjs-backend-wasm/package.json')), 'dist') + '/';
  wasm.setWasmPaths(dist);
  wasm.setThreadsCount(1);
  if (!(await tf.setBackend('wasm'))) throw new Error('TensorFlow.js wasm backend failed to initialise');
  await tf.ready();
  const simd = tf.env().getBool('WASM_HAS_SIMD_SUPPORT') as boolean;
  const threads = tf.env().getBool('WASM_HAS_MULTITHREAD_SUPPORT') ? wasm.getThreadsCount() : 1;
  return { tf, simd, threads };
}

/**
 * TensorFlow.js's out = inp @ weight^T (+ bias) at `s`: one matmul (fused with the bias add when there is
 * one) with the weight stored (C, OC), its fastest layout (the transposeB path runs 10-25x slower in
 * tfjs-backend-wasm 4.22, so it would flatter us). A function doing one call and disposing the previous
 * result, the last result's values, and a cleanup.
 */
export function tfWasmMatmul(
  tf: Tf,
  s: MatmulShape,
): { run: () => void; last: () => Float32Array; free: () => void } {
  const d = matmulInputs(s);
  const a = tf.tensor2d(d.inp, [s.N, s.C]);
  const wT = new Float32Array(s.C * s.OC);
  for (let o = 0; o < s.OC; o++) for (let c = 0; c < s.C; c++) wT[c * s.OC + o] = d.weight[o * s.C + c];
  const b = tf.tensor2d(wT, [s.C, s.OC]);
  const bias = d.bias ? tf.tensor1d(d.bias) : undefined;
  let out: ReturnType<Tf['matMul']> | null = null;
  return {
    run: () => {
      out?.dispose();
      out = bias ? tf.fused.matMul({ a, b, bias }) : tf.matMul(a, b);
    },
    last: () => (out ? Float32Array.from(out.dataSync() as Float32Array) : new Float32Array(0)),
    free: () => {
      out?.dispose();
      for (const t of [a, b, bias]) t?.dispose();
    },
  };
}
