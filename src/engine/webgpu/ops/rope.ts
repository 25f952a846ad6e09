// STUB: WebGPU wrappers for shaders/rope.wgsl. Owned by the kernels helper.
import type { Tensor } from '../../backend';
import type { GpuContext } from '../context';
const todo = (): never => { throw new Error('webgpu rope: not implemented yet'); };
export function ropeForward(_ctx: GpuContext, _out: Tensor, _inp: Tensor, _B: number, _T: number, _C: number, _NH: number, _pos0: number): void { todo(); }
export function ropeBackward(_ctx: GpuContext, _dinp: Tensor, _dout: Tensor, _B: number, _T: number, _C: number, _NH: number, _pos0: number): void { todo(); }
