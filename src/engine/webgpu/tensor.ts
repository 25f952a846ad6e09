// A WebGPU tensor: a GPUBuffer and an element offset into it (views share their base's buffer).
import type { DType, Tensor } from '../tensor';

/** A GPU tensor: a buffer plus an element offset (non-zero for views). */
export class GpuTensor implements Tensor {
  constructor(
    readonly shape: readonly number[],
    readonly dtype: DType,
    readonly label: string,
    readonly buffer: GPUBuffer,
    readonly offset: number,
    readonly size: number,
    readonly isView: boolean,
  ) {}
}
