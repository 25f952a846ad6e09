// Runs the whole benchmark suite on one backend and returns its report (shared by Node and browser).
import type { Backend } from '../engine/backend';
import { GPT } from '../model/gpt';
import { sftStep } from '../model/sft';
import { type BackendReport, TINY_BENCH, benchMatmul, modelMatmulShapes, timeMs } from './benchSuite';

/** Milliseconds of one supervised step (forward, loss, backward, AdamW) of the tiny preset. */
export async function benchSftStep(backend: Backend): Promise<{ ms: number; params: number; B: number; T: number }> {
  const { B, model: cfg } = TINY_BENCH;
  const { blockSize: T, vocabSize } = cfg;
  const model = new GPT(backend, cfg);
  const tokens = new Uint32Array(B * (T + 1));
  for (let i = 0; i < tokens.length; i++) tokens[i] = (i * 7 + 3) % vocabSize;
  const batch = { B, T, tokens, mask: new Float32Array(B * T).fill(1) };
  const hp = { lr: 1e-3, beta1: 0.9, beta2: 0.99, eps: 1e-8, weightDecay: 0, step: 1 };
  const ms = await timeMs(backend, () => sftStep(model, batch, hp, 1), 1, 5, 2);
  return { ms, params: model.layout.total, B, T };
}

/** Every figure of the suite for one backend. */
export async function runBench(backend: Backend, matmulReps: number): Promise<BackendReport> {
  const { B, model: cfg } = TINY_BENCH;
  const { blockSize, nEmbd, vocabSize } = cfg;
  const matmul = await benchMatmul(backend, modelMatmulShapes(B * blockSize, nEmbd, vocabSize), matmulReps);
  const sft = await benchSftStep(backend);
  return {
    backend: backend.info.name,
    adapter: backend.info.adapter,
    timing: 'wall-clock',
    matmul,
    extra: { sftStepMs: sft.ms, sftParams: sft.params, sftBatch: `${sft.B}x${sft.T}` },
  };
}
