// STUB: WebGPU wrappers for shaders/matmul.wgsl. Owned by the kernels helper.
import type { Tensor } from '../../backend';
import type { GpuContext } from '../context';
const todo = (): never => { throw new Error('webgpu matmul: not implemented yet'); };
export function matmulForward(_ctx: GpuContext, _out: Tensor, _inp: Tensor, _weight: Tensor, _bias: Tensor | null, _N: number, _C: number, _OC: number): void { todo(); }
export function matmulBackward(_ctx: GpuContext, _dinp: Tensor | null, _dweight: Tensor, _dbias: Tensor | null, _dout: Tensor, _inp: Tensor, _weight: Tensor, _N: number, _C: number, _OC: number): void { todo(); }
