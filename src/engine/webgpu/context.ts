// What a WebGPU op wrapper sees: a way to run a kernel on tensors with a uniform params block.
import type { Tensor } from '../backend';

/** A compute entry point: WGSL source, entry name, optional `override` constants. */
export interface Kernel {
  label: string;
  code: string;
  entry: string;
  constants?: Record<string, number>;
}

/** One 4-byte uniform field: u32, i32 or f32. Fields are laid out in order (WGSL struct order). */
export type Param = { t: 'u' | 'i' | 'f'; v: number };
export const U = (v: number): Param => ({ t: 'u', v });
export const I = (v: number): Param => ({ t: 'i', v });
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
