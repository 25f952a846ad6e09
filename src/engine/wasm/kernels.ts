// Loading the wasm backend's kernel module (built from wasm/*.ts, embedded in kernelsWasm.ts): the same
// code in Node, vitest, the page and the worker (no fetch, no file access). A runtime without
// WebAssembly or without its 128-bit SIMD is refused with a reason the caller shows.
import { KERNELS_WASM_BASE64 } from './kernelsWasm';

/** The module's exports: kernels take byte offsets into memory (0 = a null tensor) and sizes. */
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
  layernormForward(
    out: number,
    mean: number,
    rstd: number,
    inp: number,
    w: number,
    b: number,
    N: number,
    C: number,
  ): void;
  layernormBackward(
    dinp: number,
    dw: number,
    db: number,
    dout: number,
    inp: number,
    w: number,
    mean: number,
    rstd: number,
    N: number,
    C: number,
  ): void;
  attentionForward(out: number, att: number, qkv: number, B: number, T: number, C: number, NH: number): void;
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
  logprobForward(
    logp: number,
    ent: number,
    cert: number,
    logits: number,
    targets: number,
    N: number,
    V: number,
    temperature: number,
  ): void;
  logprobBackward(
    dlogits: number,
    logits: number,
    targets: number,
    weights: number,
    N: number,
    V: number,
    temperature: number,
  ): void;
  crossEntropyForward(losses: number, logits: number, targets: number, N: number, V: number): void;
  crossEntropyBackward(
    dlogits: number,
    logits: number,
    targets: number,
    dlosses: number,
    N: number,
    V: number,
  ): void;
  geluForward(out: number, inp: number, N: number): void;
  geluBackward(dinp: number, inp: number, dout: number, N: number): void;
  residualForward(out: number, a: number, b: number, N: number): void;
  residualBackward(da: number, db: number, dout: number, N: number): void;
  sumSquares(out: number, inp: number, N: number): void;
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

/** The module's bytes (decoded from the embedded base64). */
export function kernelBytes(): Uint8Array<ArrayBuffer> {
  const s = atob(KERNELS_WASM_BASE64);
  const b = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) b[i] = s.charCodeAt(i);
  return b;
}

let compiled: Promise<WebAssembly.Module> | null = null;

/** Why this runtime cannot run the kernels ('' when it can). */
export function wasmUnavailableReason(bytes: Uint8Array<ArrayBuffer> = kernelBytes()): string {
  if (typeof WebAssembly === 'undefined') return 'this runtime has no WebAssembly';
  if (!WebAssembly.validate(bytes))
    return "this runtime's WebAssembly has no 128-bit SIMD (the wasm engine needs it)";
  return '';
}

/** The compiled module (compiled once per realm); rejects with WasmUnavailableError naming the reason. */
export function compileKernels(): Promise<WebAssembly.Module> {
  if (!compiled) {
    const bytes = kernelBytes();
    const why = wasmUnavailableReason(bytes);
    compiled = why ? Promise.reject(new WasmUnavailableError(why)) : WebAssembly.compile(bytes);
    compiled.catch(() => (compiled = null));
  }
  return compiled;
}

/** An instance of the kernels over a fresh memory of `pages` 64 KiB pages. */
export async function instantiateKernels(
  pages = 16,
): Promise<{ kernels: Kernels; memory: WebAssembly.Memory }> {
  const module = await compileKernels();
  const memory = new WebAssembly.Memory({ initial: pages });
  const instance = await WebAssembly.instantiate(module, { env: { memory } });
  return { kernels: instance.exports as unknown as Kernels, memory };
}
