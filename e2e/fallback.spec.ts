// Without WebGPU (Chromium launched with it disabled): the banner says so and training runs on the CPU.
import { test, expect } from '@playwright/test';

test.use({
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-webgpu'],
  },
});

test('the fallback banner appears and training runs on the CPU backend', async ({ page }) => {
  await page.goto('/#demo');
  await page.getByLabel('Steps').fill('10');
  await page.getByTestId('start').click();
  const banner = page.getByTestId('fallback-banner');
  await expect(banner).toBeVisible({ timeout: 60_000 });
  console.log(`fallback banner: ${await banner.innerText()}`);
  await expect(page.getByTestId('status')).toContainText('Held-out accuracy', { timeout: 120_000 });
  await expect(page.getByTestId('loss-chart')).toHaveAttribute('data-points', '10');
});
