// Without WebGPU (Chromium launched with it disabled): the banner says so and training runs on the fallback
// engine (WebAssembly SIMD; e2e/wasm.spec.ts covers the CPU reference where wasm is missing too), on the
// first page's demo and in the Train view.
import { test, expect } from '@playwright/test';
import { setHyper } from './util';

test.use({
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-webgpu',
    ],
  },
});

test('the fallback banner appears and training runs on the wasm engine', async ({ page }) => {
  await page.goto('/#demo');
  await page.getByLabel('Steps').fill('10');
  await page.getByTestId('start').click();
  const banner = page.getByTestId('fallback-banner');
  await expect(banner).toBeVisible({ timeout: 60_000 });
  await expect(banner).toHaveAttribute('data-engine', 'wasm');
  console.log(`fallback banner: ${await banner.innerText()}`);
  await expect(page.getByTestId('status')).toContainText('Held-out accuracy', { timeout: 120_000 });
  await expect(page.getByTestId('loss-chart')).toHaveAttribute('data-points', '10');
});

test('the Train view without WebGPU: the banner says why and a tiny run trains on the wasm engine', async ({
  page,
}) => {
  test.setTimeout(60_000);
  await page.goto('/');
  await expect(page.getByTestId('backend')).toHaveValue('auto');
  await setHyper(page, { batchPrompts: 2, samples: 2, steps: 3, evalEvery: 3, evalProblems: 8 });
  await page.getByTestId('train-start').click();
  const banner = page.getByTestId('fallback-banner');
  await expect(banner).toContainText(
    'WebGPU is unavailable, so training runs on the WebAssembly SIMD engine',
    { timeout: 30_000 },
  );
  console.log(`train view fallback banner: ${await banner.innerText()}`);
  await expect(page.getByTestId('train-status')).toHaveAttribute('data-phase', 'done', { timeout: 40_000 });
  await expect(page.getByTestId('train-status')).toHaveAttribute('data-step', '3');
  for (const c of ['entropy', 'length', 'agreement'])
    await expect(page.getByTestId(`chart-${c}`)).toHaveAttribute('data-points', '3');
  await expect(page.getByTestId('chart-heldout')).toHaveAttribute('data-points', '2'); // steps 0 and 3
  await expect(page.getByTestId('chart-entropy').locator('.recharts-line')).toHaveCount(6);
});
