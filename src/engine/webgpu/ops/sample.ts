// STUB: WebGPU wrappers for shaders/sample.wgsl. Owned by the kernels helper.
import type { Tensor } from '../../backend';
import type { GpuContext } from '../context';
const todo = (): never => { throw new Error('webgpu sample: not implemented yet'); };
export function sampleTokens(_ctx: GpuContext, _out: Tensor, _logits: Tensor, _rows: number, _V: number, _temperature: number, _seed: number, _counter: number, _outStride: number, _outOffset: number): void { todo(); }
