// The Theory view as a user sees it: tabs and deep links, trajectories on both sides of the separatrix,
// the worked example, the tabular simulation next to the ODE, screenshots at desktop and phone sizes.
import { test, expect, type Page } from '@playwright/test';
import { collectErrors, overflowing, docImage } from './util';

/** Parse "(0.998, 0.997)" into numbers. */
async function pair(page: Page, testId: string): Promise<[number, number]> {
  const text = await page.getByTestId(testId).innerText();
  const m = /\(\s*([\d.]+)\s*,\s*([\d.]+)\s*\)/.exec(text);
  expect(m, `${testId} shows a pair, got "${text}"`).not.toBeNull();
  return [Number(m![1]), Number(m![2])];
}

async function draw(page: Page, pA: string, pB: string): Promise<void> {
  await page.getByTestId('input-pa').fill(pA);
  await page.getByTestId('input-pb').fill(pB);
  await page.getByTestId('draw').click();
  await expect(page.getByTestId('traj-start')).toHaveText(
    `(${Number(pA).toFixed(2)}, ${Number(pB).toFixed(2)})`,
  );
}

test('deep links open a view; the tab bar works with the keyboard', async ({ page }) => {
  const errors = collectErrors(page);
  await page.goto('/?view=help');
  await expect(page.getByRole('tab', { name: 'Help' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('heading', { name: 'How to read the charts' })).toBeVisible();
  // the docs' pictures of the help view: desktop (1440x900) and a 390-wide phone
  await page.screenshot({ path: docImage('help-desktop.png'), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: docImage('help-phone.png'), fullPage: true });
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/#theory');
  await expect(page.getByTestId('portrait')).toBeVisible();
  await page.getByRole('tab', { name: 'Theory' }).focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('tab', { name: 'Help' })).toBeFocused();
  await expect(page).toHaveURL(/#help$/);
  await page.keyboard.press('Home');
  await expect(page.getByTestId('placeholder-note')).toContainText('Theory view is live');
  await page.goBack();
  await expect(page.getByRole('tab', { name: 'Help' })).toHaveAttribute('aria-selected', 'true');
  expect(errors).toEqual([]);
});

test('theory view: separatrix trajectories, worked example, tabular agents next to the ODE', async ({
  page,
}) => {
  const errors = collectErrors(page);
  await page.goto('/');
  await page.getByRole('tab', { name: 'Theory' }).click();
  await expect(page).toHaveURL(/#theory$/);
  await expect(page.getByTestId('portrait')).toBeVisible();
  await expect(page.getByTestId('portrait').getByText('separatrix pA + pB = 1')).toBeVisible();

  // K = 1: a group of one sample has no reward spread, so there is no field and nothing moves
  await page.getByTestId('k-select').selectOption('1');
  await expect(page.getByTestId('field')).toHaveAttribute('data-arrows', '0');
  await expect(page.getByTestId('traj-end')).toHaveText('(0.300, 0.800)');
  await page.getByTestId('k-select').selectOption('7');
  await expect(page.getByTestId('field')).toHaveAttribute('data-arrows', '224'); // 15 x 15 cells, none at the saddle

  // above the separatrix: both agents learn; alone, A (0.3 < 1/2) would collapse and B would learn
  await draw(page, '0.3', '0.8');
  const [upA, upB] = await pair(page, 'traj-end');
  expect(upA).toBeGreaterThan(0.95);
  expect(upB).toBeGreaterThan(0.95);
  const [selfA, selfB] = await pair(page, 'self-end');
  expect(selfA).toBeLessThan(0.05);
  expect(selfB).toBeGreaterThan(0.95);

  // below the separatrix: both settle on the wrong answer
  await draw(page, '0.3', '0.6');
  const [dnA, dnB] = await pair(page, 'traj-end');
  expect(dnA).toBeLessThan(0.05);
  expect(dnB).toBeLessThan(0.05);

  // a click on the portrait picks a start: (0.8, 0.9) in plot coordinates
  const portrait = page.getByTestId('portrait');
  const box = (await portrait.boundingBox())!;
  const [, , w, h] = (await portrait.getAttribute('viewBox'))!.split(' ').map(Number);
  const [left, top, plot] = (await portrait.getAttribute('data-plot'))!.split(',').map(Number);
  await page.mouse.click(
    box.x + ((left + 0.8 * plot) / w) * box.width,
    box.y + ((top + 0.1 * plot) / h) * box.height,
  );
  await expect(page.getByTestId('traj-start')).toHaveText('(0.80, 0.90)');
  await draw(page, '0.3', '0.8');

  // worked example: self-rewarding 0.5, Co-RL 1.0 (to 2 decimals)
  await expect(page.getByTestId('worked-self')).toHaveText('0.50');
  await expect(page.getByTestId('worked-corl')).toHaveText('1.00');
  await expect(page.getByTestId('worked-chart').locator('.recharts-line')).toHaveCount(2);

  // the tabular simulation runs in chunks and draws next to the ODE
  await page.getByTestId('tab-seed').fill('3');
  await page.getByTestId('tab-run').click();
  const status = page.getByTestId('tabular-status');
  await expect(status).toHaveAttribute('data-status', 'done', { timeout: 30_000 });
  console.log(`tabular: ${await status.innerText()}`);
  const chart = page.getByTestId('tabular-chart');
  expect(Number(await chart.getAttribute('data-points'))).toBeGreaterThan(20);
  await expect(chart.locator('.recharts-line')).toHaveCount(4);
  const final = /Final mean p: \(([\d.]+), ([\d.]+)\)/.exec(await status.innerText())!;
  expect(Number(final[1])).toBeGreaterThan(0.6); // the stochastic run rises with the ODE from (0.3, 0.8)
  expect(Number(final[2])).toBeGreaterThan(0.85);

  await page.screenshot({ path: docImage('theory-desktop.png'), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByTestId('portrait')).toBeVisible();
  await page.waitForTimeout(300); // let the charts re-measure
  const wide = await overflowing(page);
  expect(wide, 'no element sticks out on a phone').toEqual([]);
  await page.screenshot({ path: docImage('theory-phone.png'), fullPage: true });
  expect(errors).toEqual([]);
});
