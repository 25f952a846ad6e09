// Kernel parity in real headless Chromium with real WebGPU: every WGSL kernel against its CPU twin.
import { test, expect } from '@playwright/test';
import { openHarness } from './util';

type Harness = {
  parityNames(): string[];
  parity(name: string): Promise<{ ok: boolean; lines: string[] }>;
};

test('every WGSL kernel matches its CPU twin', async ({ page }) => {
  await openHarness(page);
  const filter = process.env.PARITY_FILTER ?? '';
  const all = await page.evaluate(() => (window as unknown as { harness: Harness }).harness.parityNames());
  const names = all.filter((n) => n.includes(filter));
  expect(names.length).toBeGreaterThan(0);
  const failures: string[] = [];
  for (const name of names) {
    const r = await page.evaluate((n) => (window as unknown as { harness: Harness }).harness.parity(n), name);
    for (const l of r.lines) console.log(`  ${name}: ${l}`);
    if (!r.ok) failures.push(name);
  }
  expect(failures, `failing parity cases: ${failures.join(', ')}`).toEqual([]);
});
