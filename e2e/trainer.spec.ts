// Trainer checks in real headless Chromium with real WebGPU (src/rl/trainer.browsercheck.ts): a few GRPO
// steps of a two-agent cohort on WebGPU and on the CPU reference give identical answers, votes and
// rewards and parameters within tolerance, for co-rl, for gt with inner epochs + KL, and for intuitor; and
// the same run twice on WebGPU gives identical answers, votes and rewards (determinism).
import { test, expect } from '@playwright/test';
import { openHarness, runCheck } from './util';

const CHECKS = ['trainer:parity-co-rl', 'trainer:parity-gt-epochs-kl', 'trainer:parity-intuitor', 'trainer:determinism-webgpu'];

test.describe('trainer on WebGPU vs CPU', () => {
  for (const name of CHECKS) {
    test(name, async ({ page }) => {
      await openHarness(page);
      const r = await runCheck(page, name);
      console.log(`  figures: ${JSON.stringify(r.figures)}`);
      expect(r.ok, `${name} failed:\n${r.lines.join('\n')}`).toBe(true);
    });
  }
});
