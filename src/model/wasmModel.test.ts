// Whole-model parity of the wasm backend against the CPU reference, the llm.c test_gpt2.c way (the same
// checks the WebGPU backend passes in e2e/model.spec.ts, src/model/model.browsercheck.ts): one supervised
// step with clipping and weight decay compares logits, loss, the gradient norm, every named gradient and
// every parameter after AdamW, for learned and rotary positions; greedy decoding gives identical tokens
// (pretraining on wasm: src/cohort/pretrainWasm.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Backend } from '../engine/backend';
import { WasmBackend } from '../engine/wasm/wasmBackend';
import { checks, type CheckReport } from './model.browsercheck';

let wasm: WasmBackend;
beforeAll(async () => {
  wasm = await WasmBackend.create();
});
afterAll(() => wasm.destroy());

/** A check written for any backend (its parameter is typed WebGpuBackend only for the page harness). */
const run = (name: string): Promise<CheckReport> =>
  (checks[name] as unknown as (b: Backend) => Promise<CheckReport>)(wasm);

describe('wasm backend: whole-model training step vs the CPU reference', () => {
  for (const name of ['model:step-parity-learned', 'model:step-parity-rope', 'model:greedy-parity']) {
    it(name, async () => {
      const r = await run(name);
      const failed = r.lines.filter((l) => l.startsWith('FAIL') || l.includes('DIFFER'));
      expect(failed).toEqual([]);
      expect(r.ok).toBe(true);
      if (name.startsWith('model:step')) {
        // the check compared every named gradient and parameter: one line each, plus logits, loss, norm
        expect(r.lines.filter((l) => l.includes(' d')).length).toBeGreaterThan(10);
        expect(r.lines.filter((l) => l.includes('adamw:')).length).toBeGreaterThan(10);
        expect(r.figures.maxAbsGrad).toBeLessThan(1e-4);
      }
    });
  }
});
