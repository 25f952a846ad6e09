// The Train view's error-overlap panel and the backend choice (real headless Chromium): a tiny run of the
// default preset; the pair's four cells cover every held-out problem before training and now, with
// kappa in [-1, 1]; the method picker switches "now"; and a run with the CPU backend chosen says so.
import { test, expect, type Locator, type Page } from '@playwright/test';
import { collectErrors, setHyper, docImage } from './util';

const EVAL_PROBLEMS = 8;

/** A 3-step run (B 2, K 2) evaluated at steps 0 and 3 on 8 problems, with the methods in `drop` unticked. */
async function tinyRun(page: Page, drop: string[] = []): Promise<void> {
  for (const m of drop) await page.getByTestId(`method-${m}`).uncheck();
  await setHyper(page, { batchPrompts: 2, samples: 2, steps: 3, evalEvery: 3, evalProblems: EVAL_PROBLEMS });
  await page.getByTestId('train-start').click();
  await expect(page.getByTestId('train-status')).toHaveAttribute('data-phase', 'done', { timeout: 80_000 });
}

/** Every pair card of a column: its kappa and its four cells, which must cover the eval problems. */
async function checkColumn(col: Locator, step: number): Promise<number[]> {
  await expect(col).toHaveAttribute('data-step', String(step));
  await expect(col).toHaveAttribute('data-problems', String(EVAL_PROBLEMS));
  const kappas = (await col.getAttribute('data-kappa'))!.split(',').map(Number);
  const cards = col.getByTestId('overlap-pair');
  await expect(cards).toHaveCount(kappas.length);
  for (let i = 0; i < kappas.length; i++) {
    const card = cards.nth(i);
    expect(kappas[i]).toBeGreaterThanOrEqual(-1);
    expect(kappas[i]).toBeLessThanOrEqual(1);
    expect(Number(await card.getAttribute('data-kappa'))).toBe(kappas[i]);
    const cells = (await card.getAttribute('data-cells'))!.split(',').map(Number);
    expect(cells).toHaveLength(4);
    expect(
      cells.reduce((s, x) => s + x, 0),
      `cells ${cells} cover the eval problems`,
    ).toBe(EVAL_PROBLEMS);
    // the 2x2 diagram shows the same counts
    const shown = await card.locator('td.cell').allInnerTexts();
    expect(shown.map((t) => parseInt(t, 10))).toEqual(cells);
    await expect(card).toContainText(/κ\s*-?\d\.\d\d/);
  }
  return kappas;
}

test('overlap view: before training and now, every pair on every eval problem', async ({ page }) => {
  test.setTimeout(90_000); // about 30 s on SwiftShader when the machine is not loaded
  const errors = collectErrors(page);
  await page.goto('/');
  const view = page.getByTestId('overlap-view');
  await expect(view).toContainText('Appears after the step-0 evaluation');
  await tinyRun(page, ['gt']); // Co-RL and TTRL: enough for the method picker, less work for SwiftShader
  await expect(view.getByTestId('overlap-before')).toContainText('Before training (step 0)');
  const before = await checkColumn(view.getByTestId('overlap-before'), 0);
  const now = view.getByTestId('overlap-now');
  await expect(now).toContainText('Now (step 3, Co-RL)');
  const after = await checkColumn(now, 3);
  console.log(`paper-demo pair kappa: before ${before.join(', ')}, co-rl step 3 ${after.join(', ')}`);
  for (const sym of ['κ', 'c', 'u', 'w'])
    await expect(view.locator('.overlap-help dt', { hasText: sym }).first()).toBeVisible();

  // the method picker switches "now" to another method's latest evaluation
  await view.getByTestId('overlap-method').selectOption('ttrl');
  await expect(now).toContainText('Now (step 3, TTRL)');
  await checkColumn(now, 3);
  await view.screenshot({ path: docImage('overlap-desktop.png') });
  await page.setViewportSize({ width: 390, height: 844 });
  await view.scrollIntoViewIfNeeded();
  await view.screenshot({ path: docImage('overlap-phone.png') });
  await page.setViewportSize({ width: 1440, height: 900 });
  expect(errors).toEqual([]);
});

test('the CPU backend chosen in the settings: the engine line says so and the run trains', async ({
  page,
}) => {
  test.setTimeout(60_000);
  const errors = collectErrors(page);
  await page.goto('/');
  await expect(page.getByTestId('backend')).toHaveValue('auto');
  await page.getByTestId('backend').selectOption('cpu');
  await tinyRun(page);
  const engine = page.getByTestId('engine');
  await expect(engine).toContainText('CPU backend');
  await expect(engine).toContainText('chosen in the settings');
  await expect(page.getByTestId('fallback-banner')).toHaveCount(0);
  console.log(`engine line: ${await engine.innerText()}`);
  await expect(page.getByTestId('chart-entropy')).toHaveAttribute('data-points', '3');
  await checkColumn(page.getByTestId('overlap-now'), 3);
  expect(errors).toEqual([]);
});
