// Pretraining on the wasm backend (the Node commands' default) is deterministic: two fresh backends give
// the same checkpoint bytes (the whole-model parity of wasm against the CPU: src/model/wasmModel.test.ts).
import { describe, expect, it } from 'vitest';
import { WasmBackend } from '../engine/wasm/wasmBackend';
import { DEFAULT_TASK } from './presets';
import { pretrainAgent } from './pretrain';

describe('wasm backend: pretraining', () => {
  it('gives identical checkpoint bytes on two fresh wasm backends', async () => {
    const recipe = {
      maxSteps: 24,
      batch: 8,
      evalEvery: 8,
      valSize: 40,
      bandSamples: 2,
      band: [0.99, 1] as [number, number],
      sampledBand: [0.99, 1] as [number, number],
    };
    const spec = { id: 'A', family: 'lp-nocarry', size: 's', seed: 3 };
    const a = await pretrainAgent(await WasmBackend.create(), spec, DEFAULT_TASK, { recipe });
    const b = await pretrainAgent(await WasmBackend.create(), spec, DEFAULT_TASK, { recipe });
    expect(Buffer.from(a.bytes).equals(Buffer.from(b.bytes))).toBe(true);
    expect(a.meta.history.map((h) => h.step)).toEqual([8, 16, 24]);
  }, 60_000);
});
