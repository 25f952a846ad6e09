// The default link (the Train view at its default settings): Start gives the first point on the held-out
// chart (the base agents' evaluation, which also draws the live portrait's S = 8 samples per agent and
// problem), with every view in place, on a cold page, warm, and with the portrait samples off. The time it
// takes is printed here; its 8 s goal is checked by `npm run bench` (src/bench/firstPoint.ts), since a
// timed bound in a test fails on a loaded machine without saying anything about the code.
import { test, expect } from '@playwright/test';
import { collectErrors } from './util';
import { timeFirstPoint } from '../src/bench/firstPoint';

test('default link: Start gives the first chart point and the live portrait, cold and warm', async ({
  page,
}) => {
  test.setTimeout(300_000);
  const errors = collectErrors(page);
  const cold = await timeFirstPoint(page, '/');
  await expect(page.getByTestId('chart-heldout')).toHaveAttribute('data-points', /^[1-9]\d*$/);
  await expect(page.getByTestId('live-dots')).toHaveAttribute('data-dots', '200', { timeout: 120_000 });
  const without = await timeFirstPoint(page, '/?portraitSamples=0');
  await expect(page.getByTestId('chart-heldout')).toHaveAttribute('data-points', /^[1-9]\d*$/);
  // warm: the default link again in a new tab of the same browser (its caches warm). In this tab the plain
  // address would resume the tab's own run, whose settings are the portrait-off link's.
  const tab = await page.context().newPage();
  const tabErrors = collectErrors(tab);
  const again = await timeFirstPoint(tab, '/');
  await expect(tab.getByTestId('live-dots')).toHaveAttribute('data-dots', '200', { timeout: 120_000 });
  console.log(
    `default link to the first chart point: ${cold.toFixed(1)} s cold; warm: ${again.toFixed(1)} s, ` +
      `portrait samples off ${without.toFixed(1)} s (the 8 s goal: npm run bench -- --app-only)`,
  );
  expect(errors).toEqual([]);
  expect(tabErrors).toEqual([]);
});
