// STUB: WebGPU wrappers for shaders/optim.wgsl. Owned by the kernels helper.
import type { Tensor } from '../../backend';
import type { GpuContext } from '../context';
import type { AdamWParams } from '../../backend';
const todo = (): never => { throw new Error('webgpu optim: not implemented yet'); };
export function sumSquares(_ctx: GpuContext, _out: Tensor, _inp: Tensor, _N: number): void { todo(); }
export function adamw(_ctx: GpuContext, _params: Tensor, _grads: Tensor, _m: Tensor, _v: Tensor, _normSq: Tensor | null, _maxNorm: number, _N: number, _hp: AdamWParams): void { todo(); }
