// STUB: token + position embedding (llm.c encoder_forward/backward). Owned by the kernels helper.
const todo = (): never => { throw new Error('encoder: not implemented yet'); };
export function encoderForward(_out: Float32Array, _wte: Float32Array, _wpe: Float32Array | null, _tokens: Uint32Array, _B: number, _T: number, _C: number, _tokStride: number, _pos0: number): void { todo(); }
export function encoderBackward(_dwte: Float32Array, _dwpe: Float32Array | null, _dout: Float32Array, _tokens: Uint32Array, _B: number, _T: number, _C: number, _tokStride: number, _pos0: number): void { todo(); }
