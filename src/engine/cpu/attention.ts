// STUB: causal multi-head attention and KV cache. Owned by the kernels helper.
const todo = (): never => { throw new Error('attention: not implemented yet'); };
export function attentionForward(_out: Float32Array, _att: Float32Array, _qkv: Float32Array, _B: number, _T: number, _C: number, _NH: number): void { todo(); }
export function attentionBackward(_dqkv: Float32Array, _dout: Float32Array, _qkv: Float32Array, _att: Float32Array, _B: number, _T: number, _C: number, _NH: number): void { todo(); }
export function kvCacheWrite(_kcache: Float32Array, _vcache: Float32Array, _qkv: Float32Array, _B: number, _T: number, _pos0: number, _Tmax: number, _C: number): void { todo(); }
export function attentionCached(_out: Float32Array, _qkv: Float32Array, _kcache: Float32Array, _vcache: Float32Array, _B: number, _T: number, _pos0: number, _Tmax: number, _C: number, _NH: number): void { todo(); }
