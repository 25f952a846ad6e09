// STUB: rotary position embedding on q,k of qkv. Owned by the kernels helper.
const todo = (): never => { throw new Error('rope: not implemented yet'); };
export function ropeForward(_out: Float32Array, _inp: Float32Array, _B: number, _T: number, _C: number, _NH: number, _pos0: number): void { todo(); }
export function ropeBackward(_dinp: Float32Array, _dout: Float32Array, _B: number, _T: number, _C: number, _NH: number, _pos0: number): void { todo(); }
