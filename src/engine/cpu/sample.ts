// STUB: temperature sampling and greedy choice. Owned by the kernels helper.
const todo = (): never => { throw new Error('sample: not implemented yet'); };
export function sampleTokens(_out: Uint32Array, _logits: Float32Array, _rows: number, _V: number, _temperature: number, _seed: number, _counter: number, _outStride: number, _outOffset: number): void { todo(); }
