// Loading the wasm backend's kernel modules (built from wasm/*.ts, embedded in kernelsWasm.ts and
// kernelsWasmRelaxed.ts): the same code in Node, vitest, the page and the worker (no fetch, no file
// access). A runtime without WebAssembly or without its 128-bit SIMD is refused with a reason the caller
// shows; the relaxed variant is chosen by feature detection where asked for `auto`.
import { KERNELS_WASM_BASE64 } from './kernelsWasm';
import { KERNELS_WASM_RELAXED_BASE64 } from './kernelsWasmRelaxed';

/**
 * The module's exports the hand-written ops call (src/engine/wasm/wasmOps.ts): kernels take byte offsets into
 * memory (0 = a null tensor) and sizes. An export named like an op of the table is that op's kernel, called
 * with its declared arguments in order, and needs no entry here.
 */
export interface Kernels {
  matmulForward(out: number, inp: number, w: number, bias: number, N: number, C: number, OC: number): void;
  matmulForwardT(
    out: number,
    inp: number,
    packed: number,
    w: number,
    bias: number,
    N: number,
    C: number,
    OC: number,
  ): void;
  packPanels(dst: number, w: number, OC: number, C: number): void;
  addRowCombination(
    dst: number,
    coef: number,
    rs: number,
    ks: number,
    src: number,
    R: number,
    K: number,
    C: number,
  ): void;
  biasBackward(dbias: number, dout: number, N: number, OC: number): void;
  attentionBackward(
    dqkv: number,
    dout: number,
    qkv: number,
    att: number,
    B: number,
    T: number,
    C: number,
    NH: number,
    scratch: number,
  ): void;
  attentionCached(
    out: number,
    qkv: number,
    kc: number,
    vc: number,
    B: number,
    T: number,
    pos0: number,
    Tmax: number,
    C: number,
    NH: number,
    scratch: number,
  ): void;
  adamw(
    params: number,
    grads: number,
    m: number,
    v: number,
    N: number,
    scale: number,
    lr: number,
    b1: number,
    b2: number,
    eps: number,
    wd: number,
    bc1: number,
    bc2: number,
  ): void;
}

/** Bytes below this offset belong to the module's static data; tensors start here. */
export const HEAP_BASE = 65536;

/** Thrown where the runtime cannot run the module; the message says why (shown as the fallback reason). */
export class WasmUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WasmUnavailableError';
  }
}

/**
 * The kernel variants: `simd` (128-bit SIMD, every runtime with wasm SIMD) and `relaxed` (the same source
 * with relaxed SIMD, so every multiply-add is one fused `f32x4.relaxed_madd`: on by default in Chromium
 * 156, behind `--experimental-wasm-relaxed-simd` in Node 20). FMA rounds once instead of twice, so the
 * variants differ in the last bits: the variant is part of the engine's id (`wasm` / `wasm-relaxed`) and
 * of every cache key made with it.
 */
export const KERNEL_VARIANTS = ['simd', 'relaxed'] as const;
export type KernelVariant = (typeof KERNEL_VARIANTS)[number];
/** What a caller asks for: a variant, or `auto` (relaxed where the runtime validates it, else simd). */
export type KernelPreference = KernelVariant | 'auto';

/** A module's bytes (decoded from the embedded base64). */
export function kernelBytes(variant: KernelVariant = 'simd'): Uint8Array<ArrayBuffer> {
  const s = atob(variant === 'relaxed' ? KERNELS_WASM_RELAXED_BASE64 : KERNELS_WASM_BASE64);
  const b = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) b[i] = s.charCodeAt(i);
  return b;
}

const compiled = new Map<KernelVariant, Promise<WebAssembly.Module>>();

/** Why this runtime cannot run the kernels ('' when it can). */
export function wasmUnavailableReason(bytes: Uint8Array<ArrayBuffer> = kernelBytes()): string {
  if (typeof WebAssembly === 'undefined') return 'this runtime has no WebAssembly';
  if (!WebAssembly.validate(bytes))
    return "this runtime's WebAssembly has no 128-bit SIMD (the wasm engine needs it)";
  return '';
}

const NO_RELAXED =
  "this runtime's WebAssembly has no relaxed SIMD (Node 20: start it with --experimental-wasm-relaxed-simd; " +
  'Chromium has it from version 114); the simd kernel variant runs everywhere';

/** Whether this runtime validates the relaxed-SIMD module. */
export function relaxedSimdAvailable(): boolean {
  return typeof WebAssembly !== 'undefined' && WebAssembly.validate(kernelBytes('relaxed'));
}

/** The variant a preference gives here; an explicit `relaxed` this runtime lacks is refused with why. */
export function resolveKernelVariant(pref: KernelPreference): KernelVariant {
  if (pref === 'simd') return 'simd';
  const relaxed = relaxedSimdAvailable();
  if (pref === 'relaxed' && !relaxed) throw new WasmUnavailableError(NO_RELAXED);
  return relaxed ? 'relaxed' : 'simd';
}

/** The compiled module of `variant` (compiled once per realm); rejects with WasmUnavailableError naming the reason. */
export function compileKernels(variant: KernelVariant = 'simd'): Promise<WebAssembly.Module> {
  let c = compiled.get(variant);
  if (!c) {
    const bytes = kernelBytes(variant);
    const why = variant === 'simd' ? wasmUnavailableReason(bytes) : relaxedSimdAvailable() ? '' : NO_RELAXED;
    c = why ? Promise.reject(new WasmUnavailableError(why)) : WebAssembly.compile(bytes);
    compiled.set(variant, c);
    c.catch(() => compiled.delete(variant));
  }
  return c;
}

/** An instance of the kernels over a fresh memory of `pages` 64 KiB pages. */
export async function instantiateKernels(
  pages = 16,
  variant: KernelVariant = 'simd',
): Promise<{ kernels: Kernels; memory: WebAssembly.Memory }> {
  const module = await compileKernels(variant);
  const memory = new WebAssembly.Memory({ initial: pages });
  const instance = await WebAssembly.instantiate(module, { env: { memory } });
  return { kernels: instance.exports as unknown as Kernels, memory };
}
