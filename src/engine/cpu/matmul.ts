// STUB: matmul with bias (llm.c matmul_forward/backward). Owned by the kernels helper.
const todo = (): never => { throw new Error('matmul: not implemented yet'); };
export function matmulForward(_out: Float32Array, _inp: Float32Array, _weight: Float32Array, _bias: Float32Array | null, _N: number, _C: number, _OC: number): void { todo(); }
export function matmulBackward(_dinp: Float32Array | null, _dweight: Float32Array, _dbias: Float32Array | null, _dout: Float32Array, _inp: Float32Array, _weight: Float32Array, _N: number, _C: number, _OC: number): void { todo(); }
