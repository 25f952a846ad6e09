// Cohort checks in real headless Chromium with real WebGPU (src/cohort/cohort.browsercheck.ts): every
// shipped base checkpoint loads on WebGPU and on the CPU backend in the page and both give identical
// greedy answers on held-out problems; the pretraining factory runs in the page on WebGPU.
import { test, expect } from '@playwright/test';
import { openHarness, runCheck } from './util';

const CHECKS = ['cohort:shipped-parity', 'cohort:pretrain-webgpu'];

test.describe('cohort on WebGPU', () => {
  for (const name of CHECKS) {
    test(name, async ({ page }) => {
      await openHarness(page);
      const r = await runCheck(page, name);
      console.log(`  figures: ${JSON.stringify(r.figures)}`);
      expect(r.ok, `${name} failed:\n${r.lines.join('\n')}`).toBe(true);
    });
  }
});
