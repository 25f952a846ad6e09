// STUB: GELU and residual. Owned by the kernels helper.
const todo = (): never => { throw new Error('elementwise: not implemented yet'); };
export function geluForward(_out: Float32Array, _inp: Float32Array, _N: number): void { todo(); }
export function geluBackward(_dinp: Float32Array, _inp: Float32Array, _dout: Float32Array, _N: number): void { todo(); }
export function residualForward(_out: Float32Array, _a: Float32Array, _b: Float32Array, _N: number): void { todo(); }
export function residualBackward(_da: Float32Array, _db: Float32Array, _dout: Float32Array, _N: number): void { todo(); }
