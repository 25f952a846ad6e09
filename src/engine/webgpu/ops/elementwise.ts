// STUB: WebGPU wrappers for shaders/elementwise.wgsl. Owned by the kernels helper.
import type { Tensor } from '../../backend';
import type { GpuContext } from '../context';
const todo = (): never => { throw new Error('webgpu elementwise: not implemented yet'); };
export function geluForward(_ctx: GpuContext, _out: Tensor, _inp: Tensor, _N: number): void { todo(); }
export function geluBackward(_ctx: GpuContext, _dinp: Tensor, _inp: Tensor, _dout: Tensor, _N: number): void { todo(); }
export function residualForward(_ctx: GpuContext, _out: Tensor, _a: Tensor, _b: Tensor, _N: number): void { todo(); }
export function residualBackward(_ctx: GpuContext, _da: Tensor, _db: Tensor, _dout: Tensor, _N: number): void { todo(); }
