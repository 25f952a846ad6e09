// STUB: WebGPU wrappers for shaders/logprob.wgsl. Owned by the kernels helper.
import type { Tensor } from '../../backend';
import type { GpuContext } from '../context';
const todo = (): never => { throw new Error('webgpu logprob: not implemented yet'); };
export function logprobForward(_ctx: GpuContext, _logp: Tensor | null, _entropy: Tensor | null, _certainty: Tensor | null, _logits: Tensor, _targets: Tensor, _N: number, _V: number, _temperature: number): void { todo(); }
export function logprobBackward(_ctx: GpuContext, _dlogits: Tensor, _logits: Tensor, _targets: Tensor, _weights: Tensor, _N: number, _V: number, _temperature: number): void { todo(); }
export function crossEntropyForward(_ctx: GpuContext, _losses: Tensor, _logits: Tensor, _targets: Tensor, _N: number, _V: number): void { todo(); }
export function crossEntropyBackward(_ctx: GpuContext, _dlogits: Tensor, _logits: Tensor, _targets: Tensor, _dlosses: Tensor, _N: number, _V: number): void { todo(); }
