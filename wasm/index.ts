// Entry of the wasm backend's kernel module (AssemblyScript): every exported kernel. Build:
// `npm run build:wasm` (src/engine/wasm/buildKernels.ts) writes src/engine/wasm/kernelsWasm.ts.
export { matmulForward, matmulForwardT, packPanels, addRowCombination, biasBackward } from './matmul';
export { layernormForward, layernormBackward } from './layernorm';
export { attentionForward, attentionBackward, attentionCached } from './attention';
export { logprobForward, logprobBackward, crossEntropyForward, crossEntropyBackward } from './logprob';
export { sumSquares, adamw } from './optim';
export * from './elementwise'; // every export of the file is a kernel (an op's, called by name)
