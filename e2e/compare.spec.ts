// The Compare view (issue 15) in real headless Chromium: three imported runs that differ only by seed
// draw one mean line with one min-max band; a fourth with another learning rate adds a line; the runs
// table names exactly the differing settings; smoothing changes the drawn line, not the data; a run file
// of another version or a damaged one is refused with its problems and nothing changes; 390 px fits.
import { test, expect, type Page } from '@playwright/test';
import { asFile, syntheticRun } from './labFixtures';
import { collectErrors, overflowing, docImage } from './util';

const curve = (page: Page, chart: string, cls: string) =>
  page.getByTestId(`compare-${chart}`).locator(`.${cls} path.recharts-curve`).first().getAttribute('d');

test('compare view: seed band, runs table, smoothing, refused files, phone width', async ({ page }) => {
  const errors = collectErrors(page);
  await page.goto('/#compare');
  await expect(page.getByTestId('compare-empty')).toBeVisible();
  const seeds = [1, 2, 3].map((s) => asFile(`corl-seed${s}.json`, syntheticRun(`co-rl seed ${s}`, s)));
  await page.getByTestId('compare-import').setInputFiles(seeds);
  await expect(page.getByTestId('runs-row')).toHaveCount(3);
  const table = page.getByTestId('runs-table');
  await expect(table).toHaveAttribute('data-differs', 'seed');
  await expect(table.locator('th.differs')).toHaveText(['seed']);
  const ens = page.getByTestId('compare-ensemble');
  await expect(ens).toHaveAttribute('data-bands', '1');
  await expect(ens).toHaveAttribute('data-lines', '1');
  await expect(ens.locator('.compare-band path.recharts-area-area')).toHaveCount(1);
  await expect(ens.locator('.recharts-line')).toHaveCount(1);

  // a run with another learning rate: its own line; the table now names seed and lr, nothing else
  await page
    .getByTestId('compare-import')
    .setInputFiles([asFile('corl-lr.json', syntheticRun('co-rl lr 3e-4', 4, 3e-4))]);
  await expect(page.getByTestId('runs-row')).toHaveCount(4);
  await expect(table).toHaveAttribute('data-differs', 'seed,lr');
  await expect(table.locator('th.differs')).toHaveText(['seed', 'lr']);
  await expect(ens).toHaveAttribute('data-lines', '2');
  await expect(ens).toHaveAttribute('data-bands', '1');
  await expect(ens.locator('.recharts-line')).toHaveCount(2);
  await page.screenshot({ path: docImage('compare-desktop.png'), fullPage: true });

  // smoothing: the raw line is drawn exactly as before (faint), a different smoothed line over it
  const before = await curve(page, 'entropy', 'line');
  const points = await page.getByTestId('compare-entropy').getAttribute('data-points');
  await page.getByTestId('compare-smoothing').fill('0.8');
  await expect(page.getByTestId('compare-entropy')).toHaveAttribute('data-smoothing', '0.8');
  const raw = await curve(page, 'entropy', 'line-raw');
  const smooth = await curve(page, 'entropy', 'line-smooth');
  expect(raw).toBe(before);
  expect(smooth).not.toBe(before);
  await expect(page.getByTestId('compare-entropy')).toHaveAttribute('data-points', points!);
  await page.getByTestId('compare-smoothing').fill('0');
  expect(await curve(page, 'entropy', 'line')).toBe(before);

  // refused: another version and a damaged file, together with a good one; nothing is added
  const v2 = JSON.stringify({ ...JSON.parse(syntheticRun('future', 5)), version: 2 });
  const damaged = syntheticRun('damaged', 6).replace('"ensembleAccuracy":', '"ensembleAccuracy":"high","x":');
  await page
    .getByTestId('compare-import')
    .setInputFiles([
      asFile('v2.json', v2),
      asFile('damaged.json', damaged),
      asFile('ok.json', syntheticRun('fine', 7)),
    ]);
  const notice = page.getByTestId('lab-notice');
  await expect(notice).toHaveAttribute('data-kind', 'error');
  await expect(notice).toContainText('Refused 2 of 3 files; nothing was added');
  await expect(notice).toContainText('v2.json:');
  await expect(notice).toContainText('version 2');
  await expect(notice).toContainText('damaged.json:');
  await expect(notice).toContainText('ensembleAccuracy');
  await expect(page.getByTestId('runs-row')).toHaveCount(4);
  await expect(table).toHaveAttribute('data-differs', 'seed,lr');
  console.log(`refused files notice:\n${await notice.innerText()}`);

  // hiding runs: two seeds of the group left still draw a band; the table follows the shown runs
  await page.getByRole('checkbox', { name: 'show co-rl lr 3e-4' }).uncheck();
  await expect(table).toHaveAttribute('data-differs', 'seed');
  await expect(ens).toHaveAttribute('data-lines', '1');

  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(400);
  expect(await overflowing(page), 'nothing sticks out at 390 px').toEqual([]);
  await page.screenshot({ path: docImage('compare-phone.png'), fullPage: true });
  expect(errors).toEqual([]);
});
