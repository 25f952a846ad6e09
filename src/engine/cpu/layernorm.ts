// STUB: layer norm (llm.c layernorm_forward/backward). Owned by the kernels helper.
const todo = (): never => { throw new Error('layernorm: not implemented yet'); };
export function layernormForward(_out: Float32Array, _mean: Float32Array, _rstd: Float32Array, _inp: Float32Array, _weight: Float32Array, _bias: Float32Array, _N: number, _C: number): void { todo(); }
export function layernormBackward(_dinp: Float32Array, _dweight: Float32Array, _dbias: Float32Array, _dout: Float32Array, _inp: Float32Array, _weight: Float32Array, _mean: Float32Array, _rstd: Float32Array, _N: number, _C: number): void { todo(); }
