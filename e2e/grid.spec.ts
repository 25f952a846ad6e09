// A small grid run in the page (issue 15): two seeds of a tiny Co-RL run, cell after cell in the
// training worker (WebGPU), each kept in the Compare view where the two seeds draw one band; a grid of
// more than 8 cells is refused with the reason and nothing runs; the grid's sweep report (claims and
// scatter) shows in the Sweep view and downloads as report.json.
import { readFileSync } from 'node:fs';
import { test, expect } from '@playwright/test';
import { collectErrors, docImage } from './util';

test('grid in the page: two seeds run one after another and draw one band; 9 cells refused', async ({
  page,
}) => {
  test.setTimeout(600_000);
  const errors = collectErrors(page);
  // the link's settings are read when the Train view first shows; then the grid runs from them
  await page.goto(
    '/?methods=co-rl&steps=3&batchPrompts=2&samples=2&evalEvery=1&evalProblems=6&portraitSamples=2',
  );
  await expect(page.getByTestId('preset-info')).toContainText('lp-nocarry');
  await page.getByRole('tab', { name: 'Compare' }).click();
  await page.getByText('Run a small grid here').click();
  await page.getByTestId('grid-a-values').fill('1,2,3');
  await page.getByTestId('grid-add-axis').click();
  await page.getByTestId('grid-b-values').fill('0.0001, 0.0002, 0.0003');
  await page.getByTestId('grid-run').click();
  await expect(page.getByTestId('grid-errors')).toContainText('9 cells: the page runs at most 8');
  await expect(page.getByTestId('grid-status')).toHaveCount(0); // nothing ran
  await page.getByRole('button', { name: 'remove axis 2' }).click();
  await page.getByTestId('grid-a-values').fill('1, 2');
  await page.getByTestId('grid-run').click();
  const status = page.getByTestId('grid-status');
  await expect(status).toHaveAttribute('data-running', 'false', { timeout: 240_000 });
  await expect(status).toHaveAttribute('data-done', '2');
  console.log(`grid: ${await status.innerText()}`);
  await expect(page.getByTestId('runs-row')).toHaveCount(3); // the current run (the last cell) and the two kept cells
  await expect(page.getByTestId('runs-table')).toHaveAttribute('data-differs', 'seed');
  const ens = page.getByTestId('compare-ensemble');
  await expect(ens).toHaveAttribute('data-bands', '1');
  await expect(ens).toHaveAttribute('data-points', '4'); // evaluations at steps 0..3

  // the grid's sweep report (the one npm run sweep writes) in the Sweep view: claims and scatter draw
  await page.getByTestId('grid-report-link').click();
  await expect(page).toHaveURL(/#sweep$/);
  const summary = page.getByTestId('sweep-summary');
  await expect(summary).toHaveAttribute('data-cells', '2');
  await expect(summary).toContainText('2 cells done, 0 failed, 0 missing; 1 cohorts.');
  await expect(page.getByTestId('sweep-claims').locator('li')).toHaveCount(7);
  const scatter = page.getByTestId('sweep-scatter');
  await expect(scatter).toHaveAttribute('data-points', '1'); // one cohort (the two seeds), Co-RL only
  await expect(scatter.locator('.recharts-scatter-symbol')).toHaveCount(1);
  await expect(page.getByTestId('sweep-cell-compare')).toHaveCount(2);
  const [dl] = await Promise.all([page.waitForEvent('download'), page.getByTestId('sweep-download').click()]);
  const report = JSON.parse(readFileSync(await dl.path(), 'utf8'));
  expect(report.format).toBe('co-rl-sweep-report/1');
  expect(report.cells.map((c: { label: string; status: string }) => `${c.label} ${c.status}`)).toEqual([
    'seed=1 done',
    'seed=2 done',
  ]);
  expect(report.groups[0].seeds).toEqual([1, 2]);
  expect(report.cells.every((c: { metricsHash: string }) => /^[0-9a-f]{16}$/.test(c.metricsHash))).toBe(true);
  await page.screenshot({ path: docImage('grid-report.png'), fullPage: true });
  expect(errors).toEqual([]);
});
