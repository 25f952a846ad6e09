// The modules of the fused multiply-add profile (src/bench/fmaProfile.ts): the shipped wasm kernels (plain and
// relaxed, as embedded) and the ablation kernels of wasm/profile/fmaAblation.ts, which are profiling code, not
// product: compiled here, in memory, with and without relaxed SIMD, never part of the shipped modules. Each
// module gets its own memory holding one matmul's input, weight, packed panels and output.
import { compileKernels } from '../engine/wasm/buildKernels';
import { HEAP_BASE, type Kernels, kernelBytes } from '../engine/wasm/kernels';
import type { MatmulShape } from './benchSuite';

/** The ablation file (relative to the repository root). */
export const ABLATION_ENTRY = 'wasm/profile/fmaAblation.ts';

/** The ablation modes of `profileForward` (the constants of wasm/profile/fmaAblation.ts). */
export const ABLATION_MODES = { loads: 0, arith8: 1, arith4: 2, mm6x8: 3, mm8x8: 4 } as const;
export type AblationMode = keyof typeof ABLATION_MODES;
/** The modes whose output is the matmul (the others only keep their work observable). */
export const MATMUL_MODES: readonly AblationMode[] = ['mm6x8', 'mm8x8'];

/** Which module: the shipped kernels or the ablation kernels, each built plain or relaxed. */
export type ProfileModule = 'shipped-simd' | 'shipped-relaxed' | 'ablation-simd' | 'ablation-relaxed';

/** The shipped exports the profile calls (the ablation module has packPanels too) and the ablation ones. */
type Exports = Pick<Kernels, 'packPanels'> &
  Partial<Pick<Kernels, 'matmulForwardT'>> & {
    profileForward?(
      mode: number,
      out: number,
      inp: number,
      packed: number,
      N: number,
      C: number,
      OC: number,
    ): void;
    addChain?(p: number, n: number): void;
  };

/** One module instance over its own memory, holding the data of one shape. */
export interface ProfileInstance {
  readonly module: ProfileModule;
  readonly x: Exports;
  readonly memory: WebAssembly.Memory;
  /** Byte offsets of inp (N, C), weight (OC, C), packed panels, out (N, OC) and 8 floats of scratch. */
  readonly at: { inp: number; w: number; packed: number; out: number; scratch: number };
  readonly shape: MatmulShape;
}

/** Turn on relaxed SIMD in this process (Node 20: a V8 flag, as `--backend wasm-relaxed` does). */
export async function enableRelaxedSimd(): Promise<void> {
  const v8 = await import('node:v8');
  v8.setFlagsFromString('--experimental-wasm-relaxed-simd');
}

/**
 * Every module compiled once (the ablation ones built now from their source), so every shape's instances run
 * the same machine code (a compile per shape places the loops anew: one suspect of 20 % outliers in early runs).
 */
export async function profileModules(): Promise<Record<ProfileModule, WebAssembly.Module>> {
  const own = async (v: 'simd' | 'relaxed'): Promise<WebAssembly.Module> =>
    WebAssembly.compile(new Uint8Array(await compileKernels(v, ABLATION_ENTRY)));
  return {
    'shipped-simd': await WebAssembly.compile(kernelBytes('simd')),
    'shipped-relaxed': await WebAssembly.compile(kernelBytes('relaxed')),
    'ablation-simd': await own('simd'),
    'ablation-relaxed': await own('relaxed'),
  };
}

/** Shapes the profile takes: whole 4 x 8 blocks (the ablations other than MATMUL_MODES need them). */
export function checkProfileShape(s: MatmulShape): void {
  if (s.OC % 8 !== 0 || s.N % 4 !== 0 || s.N < 8)
    throw new Error(
      `the fma profile needs N a multiple of 4 (at least 8) and OC a multiple of 8, the shapes where matmulForwardT ` +
        `runs only 4 x 8 blocks; ${s.name} is ${s.N}x${s.C}x${s.OC}`,
    );
}

/** An instance of `compiled` over a fresh memory holding inp and weight (and the weight packed by packPanels). */
export async function profileInstance(
  module: ProfileModule,
  compiled: WebAssembly.Module,
  s: MatmulShape,
  inp: Float32Array,
  weight: Float32Array,
): Promise<ProfileInstance> {
  const f = (n: number): number => Math.ceil((n * 4) / 16) * 16; // bytes, 16-aligned
  const at = { inp: HEAP_BASE, w: 0, packed: 0, out: 0, scratch: 0 };
  at.w = at.inp + f(s.N * s.C);
  at.packed = at.w + f(s.OC * s.C);
  at.out = at.packed + f(s.OC * s.C);
  at.scratch = at.out + f(s.N * s.OC);
  const memory = new WebAssembly.Memory({ initial: Math.ceil((at.scratch + 64) / 65536) });
  const instance = await WebAssembly.instantiate(compiled, { env: { memory } });
  const x = instance.exports as unknown as Exports;
  const mem = new Float32Array(memory.buffer);
  mem.set(inp, at.inp / 4);
  mem.set(weight, at.w / 4);
  mem.set([0, 0, 0, 0, 1e-7, 1e-7, 1e-7, 1e-7], at.scratch / 4);
  x.packPanels(at.packed, at.w, s.OC, s.C);
  return { module, x, memory, at, shape: s };
}

/** The shipped forward kernel over the packed weight (no bias, no packing: the kernel alone). */
export function runShipped(p: ProfileInstance): void {
  const { N, C, OC } = p.shape;
  p.x.matmulForwardT!(p.at.out, p.at.inp, p.at.packed, p.at.w, 0, N, C, OC);
}

/** The shipped weight packing (what the engine's matmulForward does before each call). */
export function runPack(p: ProfileInstance): void {
  p.x.packPanels(p.at.packed, p.at.w, p.shape.OC, p.shape.C);
}

/** Ablation `mode` over the instance's data. */
export function runAblation(p: ProfileInstance, mode: AblationMode): void {
  const { N, C, OC } = p.shape;
  p.x.profileForward!(ABLATION_MODES[mode], p.at.out, p.at.inp, p.at.packed, N, C, OC);
}

/** A dependent chain of `n` vector adds (n a multiple of 8). */
export function runAddChain(p: ProfileInstance, n: number): void {
  p.x.addChain!(p.at.scratch, n);
}

/** A copy of the instance's output (N, OC). */
export function profileOutput(p: ProfileInstance): Float32Array {
  return new Float32Array(p.memory.buffer, p.at.out, p.shape.N * p.shape.OC).slice();
}
