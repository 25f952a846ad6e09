// STUB: WebGPU wrappers for shaders/attention.wgsl. Owned by the kernels helper.
import type { Tensor } from '../../backend';
import type { GpuContext } from '../context';
const todo = (): never => { throw new Error('webgpu attention: not implemented yet'); };
export function attentionForward(_ctx: GpuContext, _out: Tensor, _att: Tensor, _qkv: Tensor, _B: number, _T: number, _C: number, _NH: number): void { todo(); }
export function attentionBackward(_ctx: GpuContext, _dqkv: Tensor, _dout: Tensor, _qkv: Tensor, _att: Tensor, _B: number, _T: number, _C: number, _NH: number): void { todo(); }
export function kvCacheWrite(_ctx: GpuContext, _kcache: Tensor, _vcache: Tensor, _qkv: Tensor, _B: number, _T: number, _pos0: number, _Tmax: number, _C: number): void { todo(); }
export function attentionCached(_ctx: GpuContext, _out: Tensor, _qkv: Tensor, _kcache: Tensor, _vcache: Tensor, _B: number, _T: number, _pos0: number, _Tmax: number, _C: number, _NH: number): void { todo(); }
