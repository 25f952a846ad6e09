// The Sweep view (issue 15) in real headless Chromium: a sweep's report.json with two cell results gives
// the gain-vs-kappa scatter, the claims checklist and the cells; a cell's curves open in the compare
// view; a report of another version or a damaged one is refused with its problems and nothing changes;
// a folder of cell results without report.json opens with the report built in the page (the one --merge
// writes), and damaged cells are refused.
import { cpSync, mkdtempSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, expect } from '@playwright/test';
import { asFile, syntheticSweep } from './labFixtures';
import { collectErrors, overflowing, docImage } from './util';

test('sweep view: scatter, claims, a cell in compare, refused reports, phone width', async ({ page }) => {
  const errors = collectErrors(page);
  const sw = syntheticSweep();
  await page.goto('/#sweep');
  await expect(page.getByTestId('sweep-empty')).toBeVisible();
  await page
    .getByTestId('sweep-open')
    .setInputFiles([asFile('report.json', sw.report), ...sw.cells.map((c) => asFile(c.name, c.text))]);
  await expect(page.getByTestId('sweep-summary')).toHaveAttribute('data-cells', '6');
  const scatter = page.getByTestId('sweep-scatter');
  await expect(scatter).toHaveAttribute('data-points', '3');
  await expect(scatter).toHaveAttribute('data-ttrl-points', '3');
  await expect(scatter.locator('.recharts-scatter-symbol')).toHaveCount(6);
  const claims = page.getByTestId('sweep-claims').locator('li');
  await expect(claims).toHaveCount(7);
  expect(await claims.evaluateAll((ls) => ls.map((l) => l.getAttribute('data-status')))).toEqual([
    'holds',
    'holds',
    'holds',
    'holds',
    'not tested',
    'does not hold',
    'holds',
  ]);
  await expect(page.getByTestId('sweep-cell-compare')).toHaveCount(2);
  await page.screenshot({ path: docImage('sweep-desktop.png'), fullPage: true });

  // refused: another version, and a damaged report; what is shown stays
  const v2 = JSON.stringify({ ...JSON.parse(sw.report), format: 'co-rl-sweep-report/2' });
  const damaged = JSON.stringify({
    ...JSON.parse(sw.report),
    claims: [{ n: 1, claim: 'x', status: 'maybe', figure: 3, png: null }],
  });
  await page.getByTestId('sweep-open').setInputFiles([asFile('report.json', v2)]);
  await expect(page.getByTestId('lab-notice')).toContainText('co-rl-sweep-report/2');
  await page.getByTestId('sweep-open').setInputFiles([asFile('report.json', damaged)]);
  const notice = page.getByTestId('lab-notice');
  await expect(notice).toContainText('Refused: nothing was opened');
  await expect(notice).toContainText('claims[0].status');
  await expect(notice).toContainText('claims[0].figure');
  console.log(`refused report notice:\n${await notice.innerText()}`);
  await expect(page.getByTestId('sweep-summary')).toHaveAttribute('data-cells', '6');
  await expect(claims).toHaveCount(7);

  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(400);
  expect(await overflowing(page), 'nothing sticks out at 390 px').toEqual([]);
  await page.screenshot({ path: docImage('sweep-phone.png'), fullPage: true });
  await page.setViewportSize({ width: 1440, height: 900 });

  // a cell's curves in the compare view
  await page.getByTestId('sweep-cell-compare').first().click();
  await expect(page).toHaveURL(/#compare$/);
  await expect(page.getByTestId('runs-row')).toHaveCount(1);
  await expect(page.getByTestId('compare-ensemble')).toHaveAttribute('data-points', '13');
  expect(errors).toEqual([]);
});

test('sweep view: the whole sweep folder opens (report, cells; sweep.json and logs skipped)', async ({
  page,
}) => {
  const errors = collectErrors(page);
  const sw = syntheticSweep();
  const dir = mkdtempSync(join(tmpdir(), 'sweep-'));
  mkdirSync(join(dir, 'cells'));
  mkdirSync(join(dir, 'logs'));
  writeFileSync(join(dir, 'report.json'), sw.report);
  writeFileSync(join(dir, 'sweep.json'), JSON.stringify({ format: 'co-rl-sweep/1', name: 'kappa-demo' }));
  writeFileSync(join(dir, 'logs', 'c0s1.log'), 'cell log');
  for (const c of sw.cells) writeFileSync(join(dir, 'cells', c.name), c.text);
  await page.goto('/#sweep');
  await page.getByTestId('sweep-folder').setInputFiles(dir);
  await expect(page.getByTestId('lab-notice')).toContainText('with 2 cell results');
  await expect(page.getByTestId('sweep-scatter')).toHaveAttribute('data-points', '3');
  await expect(page.getByTestId('sweep-cell-compare')).toHaveCount(2);
  expect(errors).toEqual([]);
});

test('sweep view: a folder of cell results without report.json opens (report built in the page)', async ({
  page,
}) => {
  const errors = collectErrors(page);
  // e2e/fixtures/sweep-cells: sweep.json and cells/ of a real 4-cell sweep (npm run sweep, CPU engine);
  // sweep-cells.report.json: the report --merge wrote from them
  const fx = join(process.cwd(), 'e2e', 'fixtures');
  const node = JSON.parse(readFileSync(join(fx, 'sweep-cells.report.json'), 'utf8'));
  const dir = mkdtempSync(join(tmpdir(), 'sweep-cells-'));
  cpSync(join(fx, 'sweep-cells'), dir, { recursive: true });
  await page.goto('/#sweep');
  await page.getByTestId('sweep-folder').setInputFiles(dir);
  await expect(page.getByTestId('lab-notice')).toContainText(
    'the report was built here, as --merge builds it',
  );
  await expect(page.getByTestId('sweep-summary')).toHaveAttribute('data-cells', '4');
  await expect(page.getByTestId('sweep-scatter')).toHaveAttribute('data-points', '2');
  await expect(page.getByTestId('sweep-scatter').locator('.recharts-scatter-symbol')).toHaveCount(4);
  const claims = page.getByTestId('sweep-claims').locator('li');
  expect(await claims.evaluateAll((ls) => ls.map((l) => l.getAttribute('data-status')))).toEqual(
    node.claims.map((c: { status: string }) => c.status),
  );
  await expect(page.getByTestId('sweep-cell-compare')).toHaveCount(4);
  // the report built here, downloaded: the one --merge wrote, timing aside
  const [dl] = await Promise.all([page.waitForEvent('download'), page.getByTestId('sweep-download').click()]);
  expect(dl.suggestedFilename()).toBe('report.json');
  const got = JSON.parse(readFileSync(await dl.path(), 'utf8'));
  expect({ ...got, timing: {} }).toEqual({ ...node, timing: {} });
  await page.screenshot({ path: docImage('sweep-cells.png'), fullPage: true });

  // a damaged cell and one of another version: refused with each problem, the shown report stays
  const cells = readdirSync(join(dir, 'cells'));
  const bad = JSON.parse(readFileSync(join(dir, 'cells', cells[0]), 'utf8'));
  bad.result.summary[0].meanGreedy.final = 'high';
  writeFileSync(join(dir, 'cells', cells[0]), JSON.stringify(bad));
  const other = JSON.parse(readFileSync(join(dir, 'cells', cells[1]), 'utf8'));
  writeFileSync(join(dir, 'cells', cells[1]), JSON.stringify({ ...other, format: 'co-rl-sweep-cell/2' }));
  rmSync(join(dir, 'sweep.json'));
  await page.getByTestId('sweep-folder').setInputFiles(dir);
  const notice = page.getByTestId('lab-notice');
  await expect(notice).toContainText('Refused: nothing was opened');
  await expect(notice).toContainText('meanGreedy.final: must be a finite number, got "high"');
  await expect(notice).toContainText('co-rl-sweep-cell/2');
  console.log(`refused cells notice:\n${await notice.innerText()}`);
  await expect(page.getByTestId('sweep-summary')).toHaveAttribute('data-cells', '4');
  await expect(page.getByTestId('sweep-scatter')).toHaveAttribute('data-points', '2');
  expect(errors).toEqual([]);
});
