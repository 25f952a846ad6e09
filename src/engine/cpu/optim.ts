// STUB: global gradient norm and AdamW. Owned by the kernels helper.
import type { AdamWParams } from '../backend';
const todo = (): never => { throw new Error('optim: not implemented yet'); };
export function sumSquares(_out: Float32Array, _inp: Float32Array, _N: number): void { todo(); }
export function adamw(_params: Float32Array, _grads: Float32Array, _m: Float32Array, _v: Float32Array, _normSq: Float32Array | null, _maxNorm: number, _N: number, _hp: AdamWParams): void { todo(); }
