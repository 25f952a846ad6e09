// Time from opening the default link (the Train view at its default settings) and pressing Start to the
// first point on the held-out chart (the base agents' evaluation, which now also draws the live portrait's
// S = 8 samples per agent and problem), with every new view in place (issue 15). For comparison, the same
// with the portrait samples off (?portraitSamples=0).
import { test, expect, type Page } from '@playwright/test';
import { collectErrors } from './util';

async function firstPoint(page: Page, url: string): Promise<number> {
  const t0 = Date.now();
  await page.goto(url);
  await expect(page.getByTestId('preset-info')).toContainText('lp-nocarry'); // the manifest has loaded
  await page.getByTestId('train-start').click();
  await expect(page.getByTestId('chart-heldout')).toHaveAttribute('data-points', /^[1-9]\d*$/, {
    timeout: 120_000,
  });
  const seconds = (Date.now() - t0) / 1000;
  await page.getByTestId('train-pause').click();
  return seconds;
}

test('default link: Start to the first chart point within 8 s', async ({ page }) => {
  test.setTimeout(300_000);
  const errors = collectErrors(page);
  const withPortrait = await firstPoint(page, '/'); // cold: the assertion's figure
  await expect(page.getByTestId('live-dots')).toHaveAttribute('data-dots', '200', { timeout: 120_000 });
  // warm (caches filled), the portrait off and on again, for comparison
  const without = await firstPoint(page, '/?portraitSamples=0');
  const again = await firstPoint(page, '/');
  console.log(
    `default link to the first chart point: ${withPortrait.toFixed(1)} s cold; warm: ${again.toFixed(1)} s, portrait samples off ${without.toFixed(1)} s`,
  );
  expect(withPortrait).toBeLessThanOrEqual(8);
  expect(errors).toEqual([]);
});
