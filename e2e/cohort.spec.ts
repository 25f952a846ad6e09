// Cohort checks in real headless Chromium with real WebGPU (src/cohort/cohort.browsercheck.ts): every
// shipped base checkpoint loads on WebGPU and on the CPU backend in the page and both give identical
// greedy answers on held-out problems; the pretraining factory runs in the page on WebGPU.
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

async function runCheck(page: Page, name: string): Promise<Report> {
  const t0 = Date.now();
  const r = (await page.evaluate((n) => (window as unknown as { harness: Harness }).harness.check(n), name)) as Report;
  console.log(`${name} (${Date.now() - t0} ms):`);
  for (const l of r.lines) console.log(`  ${l}`);
  return r;
}

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
