// The first page as a user sees it: the adapter (or the CPU fallback banner) and a live loss chart.
import { test, expect } from '@playwright/test';
import { collectErrors, docImage } from './util';

test('first page: shows the WebGPU adapter and trains with a live loss chart', async ({ page }) => {
  const errors = collectErrors(page);
  await page.goto('/#demo');
  await expect(page.getByTestId('placeholder-note')).toContainText('Placeholder page');
  await page.getByLabel('Steps').fill('12');
  await page.getByTestId('start').click();
  await expect(page.getByTestId('engine')).toContainText('WebGPU adapter', { timeout: 60_000 });
  console.log(`page reports: ${await page.getByTestId('engine').innerText()}`);
  const chart = page.getByTestId('loss-chart');
  await expect(chart).toHaveAttribute('data-points', /^([5-9]|[1-9]\d+)$/, { timeout: 120_000 });
  await expect(page.getByTestId('status')).toContainText('Held-out accuracy', { timeout: 180_000 });
  await expect(chart).toHaveAttribute('data-points', '12');
  await page.screenshot({ path: docImage('first-page.png'), fullPage: true });
  expect(errors).toEqual([]);
});
