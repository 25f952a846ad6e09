// How an op is declared (issue 19, step 1): its name, its named arguments as an ordered spec of kinds
// (tensors by dtype, numbers, the AdamW hyperparameters) and its CPU reference implementation over typed
// arrays. The spec's key order is the order a generic kernel takes them in: a wasm export of the same
// name gets pointers and numbers in that order, a WGSL entry its tensors as bindings 0.. and its numbers
// as uniforms. src/engine/ops/table.ts lists every op; the backends are built from it.
import type { Tensor } from '../tensor';

/** AdamW's hyperparameters for one step (decoupled weight decay, as in Loshchilov & Hutter). */
export interface AdamWParams {
  lr: number;
  beta1: number;
  beta2: number;
  eps: number;
  weightDecay: number;
  /** 1-based step count, used for bias correction. */
  step: number;
}

/** What each argument kind is at the call (a Tensor) and in the CPU kernel (its typed array). */
interface Kinds {
  f32: [Tensor, Float32Array];
  u32: [Tensor, Uint32Array];
  /** A tensor that may be null (the op skips what it would write or read there). */
  'f32|null': [Tensor | null, Float32Array | null];
  /** An argument the caller may leave out (null in the kernel). */
  'f32?': [Tensor | null | undefined, Float32Array | null];
  /** A count or size (u32 in a WGSL uniform). */
  int: [number, number];
  /** A real number (f32 in a WGSL uniform). */
  float: [number, number];
  'int?': [number | undefined, number | undefined];
  adamw: [AdamWParams, AdamWParams];
}
export type ArgKind = keyof Kinds;
export type ArgSpec = Readonly<Record<string, ArgKind>>;

type Optional<S extends ArgSpec> = { [K in keyof S]: S[K] extends `${string}?` ? K : never }[keyof S];
type Required<S extends ArgSpec> = Exclude<keyof S, Optional<S>>;
/** The named arguments a caller passes (tensors), from a spec. */
export type CallArgs<S extends ArgSpec> = { [K in Required<S>]: Kinds[S[K]][0] } & {
  [K in Optional<S>]?: Kinds[S[K]][0];
};
/** The same arguments as the CPU kernel sees them (typed arrays). */
export type KernelArgs<S extends ArgSpec> = { [K in keyof S]: Kinds[S[K]][1] };

/**
 * A WGSL entry point that runs an op one thread per element of `threads` (256-wide groups, a 1-D grid split
 * in 2-D past 65535 groups; src/engine/webgpu/ops/generic.ts): the op's tensors bind at 1, 2, ... and its
 * numbers (int as u32, float as f32) form the uniform block at binding 0, both in declared order.
 */
export interface GpuEntry<S extends ArgSpec> {
  /** The WGSL file under shaders/ (with common.wgsl before it). */
  readonly shader: 'elementwise';
  readonly entry: string;
  readonly threads: keyof S & string;
}

export interface OpDecl<S extends ArgSpec = ArgSpec> {
  readonly args: S;
  /** The CPU reference: a literal transcription of the op's math (the oracle every kernel is tested against). */
  readonly cpu: (a: KernelArgs<S>) => void;
  /** Its WebGPU kernel when that is one thread per element; otherwise src/engine/webgpu/webgpuOps.ts names its wrapper. */
  readonly gpu?: GpuEntry<S>;
}

/** Declare an op (the spec's key order is the generic kernels' argument order). */
export const declareOp = <const S extends ArgSpec>(d: OpDecl<S>): OpDecl<S> => d;

/** Is this argument kind a tensor? */
export const isTensorKind = (k: ArgKind): k is 'f32' | 'u32' | 'f32|null' | 'f32?' =>
  k === 'f32' || k === 'u32' || k === 'f32|null' || k === 'f32?';

/** How a backend sees its tensors' memory as typed arrays (CPU: the tensor's own; wasm: views of linear memory). */
export interface ArrayAccess {
  f(t: Tensor): Float32Array;
  u(t: Tensor): Uint32Array;
}

/** The kernel's view of a call: each tensor argument as its typed array (null for null or left out). */
export function kernelArgs<S extends ArgSpec>(spec: S, a: CallArgs<S>, mem: ArrayAccess): KernelArgs<S> {
  const src = a as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key in spec) {
    const kind = spec[key];
    const v = src[key];
    if (kind === 'f32') out[key] = mem.f(v as Tensor);
    else if (kind === 'u32') out[key] = mem.u(v as Tensor);
    else if (kind === 'f32|null' || kind === 'f32?') out[key] = v ? mem.f(v as Tensor) : null;
    else out[key] = v;
  }
  return out as KernelArgs<S>;
}
