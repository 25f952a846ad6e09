// The Backend interface: memory, and every tensor op the model and trainer use (declared once in the op
// table, src/engine/ops/), run by the CPU reference backend (plain loops), the wasm backend (SIMD kernels)
// and the WebGPU backend (WGSL kernels). Conventions follow
// karpathy/llm.c: arguments (named) are outputs first, then inputs, then sizes; all tensors are flat,
// row-major float32 (or uint32 for token ids); backward ops ACCUMULATE (+=) into every gradient
// they write, so callers zero gradient buffers before a backward pass.
import type { DecodeOps } from './decode';
import type { DType, Tensor } from './tensor';
import type { OpMethods } from './ops/table';
import { shapeSize } from '../util/shape';

/** Views must start at a multiple of this many elements (256 bytes: WebGPU's binding alignment). */
export const VIEW_ALIGN = 64;

/** The element count of a view of `shape` at `offset` into `base`, or the error a Backend's `view` throws. */
export function checkedViewSize(base: Tensor, offset: number, shape: readonly number[]): number {
  const n = shapeSize(shape);
  if (offset % VIEW_ALIGN !== 0) throw new Error(`view offset ${offset} is not a multiple of ${VIEW_ALIGN}`);
  if (offset + n > base.size)
    throw new Error(`view [${offset}, ${offset + n}) exceeds ${base.label} (${base.size})`);
  return n;
}

/** The error a Backend's `write` throws when `data` does not fill `t` exactly. */
export function checkWrite(t: Tensor, data: Float32Array | Uint32Array): void {
  if (data.length !== t.size)
    throw new Error(`write to ${t.label}: ${data.length} values for ${t.size} elements`);
}

/**
 * Work recorded on a backend whose result needs tensors read back: `tensors` to read, and `finish` to
 * build the result from their values (in order). Lets callers batch many results into one readback.
 */
export interface Pending<T> {
  readonly tensors: readonly Tensor[];
  finish(values: (Float32Array | Uint32Array)[]): T;
}

/** Resolve pending results with ONE readback of all their tensors (none when no tensor is needed). */
export async function resolvePending<T>(backend: Backend, pending: readonly Pending<T>[]): Promise<T[]> {
  const all = pending.flatMap((p) => p.tensors);
  const values = all.length > 0 ? await backend.readMany(all) : [];
  let i = 0;
  return pending.map((p) => {
    const mine = values.slice(i, i + p.tensors.length);
    i += p.tensors.length;
    return p.finish(mine);
  });
}

export type { AdamWParams } from './ops/declare';

/** What a backend says about where it runs (shown in the UI and printed by tests/benchmarks). */
export interface BackendInfo {
  name: 'cpu' | 'webgpu' | 'wasm';
  /** e.g. "google swiftshader" or "nvidia hopper", or "JavaScript (Node 20)". */
  adapter: string;
  /** Optional-feature flags the backend uses (e.g. 'timestamp-query', 'subgroups'). */
  features: string[];
  /** WebGPU only: the adapter is a software one (SwiftShader, or marked as a fallback adapter). */
  software?: boolean;
  /** wasm only: the kernel variant, 'simd' or 'relaxed' (fused multiply-add; src/engine/wasm/kernels.ts). */
  kernels?: 'simd' | 'relaxed';
  /** wasm only: the ops with no wasm kernel, run by their CPU kernel over wasm memory (calls: WasmBackend.cpuFallbacks). */
  cpuKernelOps?: string[];
}

/**
 * The engine's id where results must compare like with like (cache keys, cell ids, byte-identity checks):
 * the backend's name, with the wasm kernel variant when it is not the plain one ('wasm-relaxed').
 */
export const engineId = (info: BackendInfo): string =>
  info.name === 'wasm' && info.kernels === 'relaxed' ? 'wasm-relaxed' : info.name;

/** Counters every backend keeps so benchmarks and tests can check dispatch/readback/alloc budgets. */
export interface BackendCounters {
  dispatches: number;
  readbacks: number;
  /** Fresh storage allocations (pool misses on WebGPU). */
  allocations: number;
  /** Bytes currently held by live tensors plus pooled free buffers. */
  bytesHeld: number;
  /** Compute pipelines created (WebGPU: one per kernel, by prepare() or at its first dispatch; CPU: 0). */
  pipelines: number;
}

/**
 * Memory and every op of the op table (src/engine/ops/table.ts), each taking its named arguments; the fused
 * decode ops (src/engine/decode.ts) are optional (generate falls back to the unfused ones).
 */
export interface Backend extends OpMethods, Partial<DecodeOps> {
  readonly info: BackendInfo;
  readonly counters: BackendCounters;
  /**
   * Compile every kernel's pipeline ahead of its first dispatch (WebGPU; the CPU backend has none).
   * Resolves to the kernel count and wall time; rejects naming a kernel that fails to compile.
   */
  prepare?(): Promise<{ kernels: number; ms: number }>;

  // ---- memory --------------------------------------------------------------------------------
  /** A new tensor of the given shape; contents are unspecified (poison-test friendly). */
  alloc(shape: readonly number[], dtype?: DType, label?: string): Tensor;
  /** A view of `base` starting at element `offset` (multiple of VIEW_ALIGN) with `shape`. */
  view(base: Tensor, offset: number, shape: readonly number[], label?: string): Tensor;
  /** Copy host data into a tensor (data.length must equal t.size). */
  write(t: Tensor, data: Float32Array | Uint32Array): void;
  /** Read a tensor back to the host; resolves after all queued work that writes it. */
  read(t: Tensor): Promise<Float32Array | Uint32Array>;
  /**
   * Read several tensors back in ONE readback (one staging buffer, one map on WebGPU; counted once):
   * result i holds tensors[i]'s values (Float32Array or Uint32Array by its dtype).
   */
  readMany(tensors: readonly Tensor[]): Promise<(Float32Array | Uint32Array)[]>;
  /** Set every element to `value`. */
  fill(t: Tensor, value: number): void;
  /** dst[dstOffset + i] = src[srcOffset + i] for i < n (elements; same dtype). */
  copy(dst: Tensor, src: Tensor, n: number, dstOffset?: number, srcOffset?: number): void;
  /** Return a tensor's storage to the backend (views free nothing). */
  free(t: Tensor): void;
  /** Submit queued work and wait for it to finish. */
  sync(): Promise<void>;
  /** Release everything the backend holds. */
  destroy(): void;
}
