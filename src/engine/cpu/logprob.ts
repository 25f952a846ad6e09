// STUB: log-softmax, log-probs, entropy, cross-entropy. Owned by the kernels helper.
const todo = (): never => { throw new Error('logprob: not implemented yet'); };
export function logprobForward(_logp: Float32Array | null, _entropy: Float32Array | null, _certainty: Float32Array | null, _logits: Float32Array, _targets: Uint32Array, _N: number, _V: number, _temperature: number): void { todo(); }
export function logprobBackward(_dlogits: Float32Array, _logits: Float32Array, _targets: Uint32Array, _weights: Float32Array, _N: number, _V: number, _temperature: number): void { todo(); }
export function crossEntropyForward(_losses: Float32Array, _logits: Float32Array, _targets: Uint32Array, _N: number, _V: number): void { todo(); }
export function crossEntropyBackward(_dlogits: Float32Array, _logits: Float32Array, _targets: Uint32Array, _dlosses: Float32Array, _N: number, _V: number): void { todo(); }
