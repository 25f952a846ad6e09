// STUB: WebGPU wrappers for shaders/encoder.wgsl. Owned by the kernels helper.
import type { Tensor } from '../../backend';
import type { GpuContext } from '../context';
const todo = (): never => { throw new Error('webgpu encoder: not implemented yet'); };
export function encoderForward(_ctx: GpuContext, _out: Tensor, _wte: Tensor, _wpe: Tensor | null, _tokens: Tensor, _B: number, _T: number, _C: number, _tokStride: number, _pos0: number): void { todo(); }
export function encoderBackward(_ctx: GpuContext, _dwte: Tensor, _dwpe: Tensor | null, _dout: Tensor, _tokens: Tensor, _B: number, _T: number, _C: number, _tokStride: number, _pos0: number): void { todo(); }
