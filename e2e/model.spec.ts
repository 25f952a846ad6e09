// Whole-model checks in real headless Chromium with real WebGPU (src/model/model.browsercheck.ts):
// one training step matches the CPU reference for both positional variants, greedy decoding agrees
// across backends, KV-cached decoding equals full recompute, and a short SFT run learns on WebGPU.
import { test, expect } from '@playwright/test';
import { openHarness, runCheck } from './util';

const CHECKS = [
  'model:step-parity-learned',
  'model:step-parity-rope',
  'model:greedy-parity',
  'model:cached-vs-full',
  'model:sft-webgpu',
];

test.describe('model on WebGPU', () => {
  for (const name of CHECKS) {
    test(name, async ({ page }) => {
      await openHarness(page);
      const r = await runCheck(page, name);
      console.log(`  figures: ${JSON.stringify(r.figures)}`);
      expect(r.ok, `${name} failed:\n${r.lines.filter((l) => !l.startsWith('ok')).join('\n')}`).toBe(true);
    });
  }
});
