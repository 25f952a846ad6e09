// What a WebGPU op wrapper sees: a way to run a kernel on tensors with a uniform params block.
import type { Tensor } from '../tensor';

/** A compute entry point: WGSL source, entry name, optional `override` constants. */
export interface Kernel {
  label: string;
  code: string;
  entry: string;
  constants?: Record<string, number>;
}

/** The pipeline-cache key of a kernel: label, entry point and constants (the code is one per label). */
export const kernelKey = (k: Kernel): string => `${k.label}|${k.entry}|${JSON.stringify(k.constants ?? {})}`;

const registry = new Map<string, Kernel>();

/**
 * Register a module-level kernel so WebGpuBackend.prepare() can compile its pipeline ahead of the first
 * dispatch; returns `k`. Two kernels with the same key (label, entry, constants) but different code would share one
 * cached pipeline, so that throws; the same kernel defined again (a module evaluated twice) replaces it.
 */
export function defineKernel(k: Kernel): Kernel {
  const key = kernelKey(k);
  const had = registry.get(key);
  if (had && had.code !== k.code) {
    throw new Error(
      `kernel ${k.label}:${k.entry} is defined twice with different WGSL code; give one of them another label`,
    );
  }
  registry.set(key, k);
  return k;
}

/** Every kernel registered with defineKernel so far (all of them once the op modules are imported). */
export function registeredKernels(): Kernel[] {
  return [...registry.values()];
}

/** One 4-byte uniform field: u32, i32 or f32. Fields are laid out in order (WGSL struct order). */
export type Param = { t: 'u' | 'i' | 'f'; v: number };
export const U = (v: number): Param => ({ t: 'u', v });
export const F = (v: number): Param => ({ t: 'f', v });

export interface GpuContext {
  /**
   * Record one dispatch. Binding 0 is the uniform block built from `params` (omit it in WGSL when
   * params is empty); tensors bind at 1, 2, ... in order. Every declared binding must be used by
   * the entry point (pipelines use layout 'auto').
   */
  run(kernel: Kernel, tensors: readonly Tensor[], params: readonly Param[], groups: readonly number[]): void;
  /** Workgroup grid for `total` 1-D invocations at `wgSize` per group, split in 2-D past 65535 groups. */
  grid(total: number, wgSize: number): [number, number];
  /** A persistent scratch tensor for `key`, reallocated only when it must grow. */
  scratch(key: string, size: number): Tensor;
}

/** Ceiling division. */
export const cdiv = (a: number, b: number): number => Math.ceil(a / b);
