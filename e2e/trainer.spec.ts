// Trainer checks in real headless Chromium with real WebGPU (src/rl/trainer.browsercheck.ts): a few GRPO
// steps of a two-agent cohort on WebGPU and on the CPU reference give identical answers, votes and
// rewards and parameters within tolerance, for co-rl, for gt with inner epochs + KL, and for intuitor.
import { test, expect, type Page } from '@playwright/test';

type Report = { ok: boolean; lines: string[]; figures: Record<string, number> };
type Harness = { adapter(): Promise<string>; check(name: string): Promise<unknown> };

async function openHarness(page: Page): Promise<void> {
  page.on('console', (m) => {
    if (m.type() === 'error') console.log(`[browser error] ${m.text()}`);
  });
  await page.goto('/e2e/harness.html');
  await page.waitForFunction(() => document.title === 'harness ready');
  const adapter = await page.evaluate(() => (window as unknown as { harness: Harness }).harness.adapter());
  console.log(`WebGPU adapter: ${adapter}`);
}

const CHECKS = ['trainer:parity-co-rl', 'trainer:parity-gt-epochs-kl', 'trainer:parity-intuitor'];

test.describe('trainer on WebGPU vs CPU', () => {
  for (const name of CHECKS) {
    test(name, async ({ page }) => {
      await openHarness(page);
      const t0 = Date.now();
      const r = (await page.evaluate((n) => (window as unknown as { harness: Harness }).harness.check(n), name)) as Report;
      console.log(`${name} (${Date.now() - t0} ms):`);
      for (const l of r.lines) console.log(`  ${l}`);
      console.log(`  figures: ${JSON.stringify(r.figures)}`);
      expect(r.ok, `${name} failed:\n${r.lines.join('\n')}`).toBe(true);
    });
  }
});
