// STUB: WebGPU wrappers for shaders/layernorm.wgsl. Owned by the kernels helper.
import type { Tensor } from '../../backend';
import type { GpuContext } from '../context';
const todo = (): never => { throw new Error('webgpu layernorm: not implemented yet'); };
export function layernormForward(_ctx: GpuContext, _out: Tensor, _mean: Tensor, _rstd: Tensor, _inp: Tensor, _weight: Tensor, _bias: Tensor, _N: number, _C: number): void { todo(); }
export function layernormBackward(_ctx: GpuContext, _dinp: Tensor, _dweight: Tensor, _dbias: Tensor, _dout: Tensor, _inp: Tensor, _weight: Tensor, _mean: Tensor, _rstd: Tensor, _N: number, _C: number): void { todo(); }
