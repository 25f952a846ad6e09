// A tensor handle, the one type every backend, op and model file shares (src/engine/backend.ts is the
// contract of the ops on them).

/** Element type of a tensor. Token ids are u32; everything else is f32. */
export type DType = 'f32' | 'u32';

/**
 * A handle to backend-owned memory. Its numbers live on the CPU (Float32Array) or on the GPU
 * (GPUBuffer); only `read` brings them back. A view shares its base's storage at an element
 * offset (a multiple of VIEW_ALIGN elements, so WebGPU can bind it directly).
 */
export interface Tensor {
  readonly shape: readonly number[];
  /** Number of elements (product of shape). */
  readonly size: number;
  readonly dtype: DType;
  readonly label: string;
}
