// Time from opening the default link (the Train view at its default settings) and pressing Start to the
// first point on the held-out chart (the base agents' evaluation), with every new view in place (issue 15).
import { test, expect } from '@playwright/test';
import { collectErrors } from './util';

test('default link: Start to the first chart point within 8 s', async ({ page }) => {
  test.setTimeout(300_000);
  const errors = collectErrors(page);
  const t0 = Date.now();
  await page.goto('/');
  await expect(page.getByTestId('preset-info')).toContainText('lp-nocarry'); // the manifest has loaded
  await page.getByTestId('train-start').click();
  await expect(page.getByTestId('chart-heldout')).toHaveAttribute('data-points', /^[1-9]\d*$/, {
    timeout: 120_000,
  });
  const seconds = (Date.now() - t0) / 1000;
  console.log(`default link to the first chart point: ${seconds.toFixed(1)} s`);
  await page.getByTestId('train-pause').click();
  expect(seconds).toBeLessThanOrEqual(8);
  expect(errors).toEqual([]);
});
