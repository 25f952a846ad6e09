// Teaching with the playground (real headless Chromium): the guided tour end to end by keyboard alone, embed
// mode showing only the chosen panels, the co-labeling diagnostics chart with a peer teacher (N = 3), a peer
// teacher refused for N = 2, unknown tour/embed parameters listed, and no overflow at 390 px wide.
import { expect, test, type Page } from '@playwright/test';
import { collectErrors, overflowing, setHyper, docImage } from './util';

const title = (page: Page) => page.getByTestId('tour-title');

test('the guided tour runs end to end by keyboard alone', async ({ page }) => {
  test.setTimeout(170_000);
  const errors = collectErrors(page);
  await page.goto('/?batchPrompts=4&samples=4&evalProblems=16&evalEvery=2#tour');
  await expect(title(page)).toBeFocused();
  await expect(title(page)).toHaveText('1 · A majority vote');
  await expect(page.getByTestId('tour-vote')).toHaveAttribute('data-vote', '12');
  await page.keyboard.press('ArrowRight');
  await expect(title(page)).toHaveText('2 · Grading yourself vs grading a peer');
  await expect(page).toHaveURL(/#tour\?step=2$/);
  await expect(page.getByTestId('tour-self')).toHaveText('1 1 0 1');
  await expect(page.getByTestId('tour-peer')).toHaveText('0 0 1 0');
  await page.screenshot({ path: docImage('tour-desktop.png') });
  await page.keyboard.press('ArrowRight');
  await expect(title(page)).toHaveText('3 · The phase portrait');
  await expect(page.getByRole('tab', { name: 'Theory' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.locator('.portrait-card.tour-target')).toBeVisible();
  await page.keyboard.press('ArrowLeft'); // Back works too
  await expect(title(page)).toHaveText('2 · Grading yourself vs grading a peer');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expect(title(page)).toHaveText('4 · A live run of the default preset');
  await expect(page.locator('.run-controls.tour-target')).toBeVisible();
  // Tab from the title reaches the step's button; Enter starts the run
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('tour-start')).toBeFocused();
  // 0.25 s between steps, so a fast engine (wasm, a real GPU) is still running at the end of the tour
  await page.evaluate(() => {
    const sel = document.querySelector<HTMLSelectElement>('[data-testid="train-speed"]')!;
    sel.value = '250';
    sel.dispatchEvent(new Event('change', { bubbles: true }));
  });
  await expect(page.getByTestId('tour-start')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('tour-run-note')).toContainText('Started');
  await expect(page.getByTestId('train-status')).toHaveAttribute('data-phase', 'running', {
    timeout: 60_000,
  });
  await page.keyboard.press('ArrowRight');
  await expect(title(page)).toHaveText('5 · Watch the curves separate');
  await expect(page.locator('[data-testid="chart-heldout"].tour-target')).toBeVisible();
  await expect(page.getByTestId('chart-heldout')).toHaveAttribute('data-points', /^[1-9]\d*$/, {
    timeout: 60_000,
  });
  // the Next button by Tab + Enter, as a keyboard user without arrow keys would
  for (
    let i = 0;
    i < 8 && !(await page.getByTestId('tour-next').evaluate((b) => b === document.activeElement));
    i++
  )
    await page.keyboard.press('Tab');
  await expect(page.getByTestId('tour-next')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(title(page)).toHaveText('6 · The overlap matrix');
  await expect(page.locator('[data-testid="overlap-view"].tour-target')).toBeVisible();
  await page.keyboard.press('ArrowRight');
  await expect(title(page)).toHaveText('7 · The live phase portrait');
  // the live portrait when this build has it, else the Theory view's portrait (and the card says so)
  await expect(page.locator('.tour-target')).toHaveCount(1, { timeout: 15_000 });
  const live = await page.locator('[data-testid="live-portrait"]').count();
  console.log(
    `tour step 7 points at: ${live ? 'the live phase portrait' : 'the Theory portrait (no live portrait in this build)'}`,
  );
  await page.screenshot({ path: docImage('tour-live-step.png') });
  await page.keyboard.press('ArrowRight');
  await expect(title(page)).toHaveText('8 · Take it to class');
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await overflowing(page, '.tour-card')).toEqual([]);
  await expect.poll(() => overflowing(page), { timeout: 10_000 }).toEqual([]); // charts resize a moment later
  await page.screenshot({ path: docImage('tour-phone.png') });
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('tour')).toHaveCount(0);
  await expect(page).not.toHaveURL(/#tour/);
  await expect(page.getByTestId('tour-open')).toBeVisible(); // the header button opens it again
  await expect.poll(() => overflowing(page), { timeout: 10_000 }).toEqual([]);
  await page.getByTestId('train-pause').click();
  expect(errors).toEqual([]);
});

test('Help describes the tour, embed panels, throughput and the teacher modes; no overflow at 390 px', async ({
  page,
}) => {
  await page.goto('/#help');
  await expect(
    page.getByRole('heading', { name: 'Teaching with it: the tour and embed links' }),
  ).toBeVisible();
  await expect(page.getByTestId('help-panels').locator('li')).toHaveCount(18);
  await expect(
    page.getByRole('heading', {
      name: /Co-RL teachers and co-labeling diagnostics \(extension, not in the paper\)/,
    }),
  ).toBeVisible();
  await page.setViewportSize({ width: 390, height: 844 });
  await expect.poll(() => overflowing(page), { timeout: 10_000 }).toEqual([]);
  await page.locator('#help-teach').screenshot({ path: docImage('help-teach-phone.png') });
});

test('unknown tour parameters are listed and the default step kept', async ({ page }) => {
  await page.goto('/#tour?step=99&speed=2');
  await expect(title(page)).toHaveText('1 · A majority vote');
  const n = page.getByTestId('tour-notice');
  await expect(n).toContainText('step=99 (must be a whole number from 1 to 8');
  await expect(n).toContainText('speed=2 (unknown tour parameter');
  await page.goto('/');
  await page.goto('/#tour?step=6');
  await expect(title(page)).toHaveText('6 · The overlap matrix');
});

test('embed mode shows only the chosen panels; unknown panels are listed', async ({ page }) => {
  test.setTimeout(120_000);
  const errors = collectErrors(page);
  await page.goto(
    '/?embed=1&show=heldout,portrait,bogus&run=1&batchPrompts=4&samples=4&evalProblems=16&evalEvery=1',
  );
  const embed = page.getByTestId('embed');
  await expect(embed).toHaveAttribute('data-found', 'heldout,portrait');
  await expect(page.getByTestId('embed-notice')).toContainText('show=bogus (unknown panel');
  await expect(page.getByTestId('chart-heldout')).toBeVisible();
  await expect(page.locator('.portrait-card')).toBeVisible();
  // nothing else: no header, no settings, no controls, no other chart
  await expect(page.locator('.app-header')).toHaveCount(0);
  for (const id of ['train-start', 'chart-agreement', 'chart-kl', 'overlap-view', 'inspector', 'preset'])
    await expect(page.getByTestId(id)).toBeHidden();
  await expect(page.locator('.card.worked')).toBeHidden();
  await expect(page.locator('.theory .intro')).toBeHidden();
  const shown = await page.evaluate(() =>
    [...document.querySelectorAll('[data-testid^="chart-"]')]
      .filter((e) => (e as HTMLElement).offsetParent !== null)
      .map((e) => e.getAttribute('data-testid')),
  );
  expect(shown).toEqual(['chart-heldout']);
  // run=1 started the run: the chart fills
  await expect(page.getByTestId('chart-heldout')).toHaveAttribute('data-points', /^[2-9]\d*$/, {
    timeout: 90_000,
  });
  await page.screenshot({ path: docImage('embed-desktop.png'), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await expect.poll(() => overflowing(page), { timeout: 10_000 }).toEqual([]); // charts resize a moment later
  await page.screenshot({ path: docImage('embed-phone.png'), fullPage: true });
  expect(errors).toEqual([]);
});

test('the co-labeling diagnostics chart draws with a peer teacher (N = 3); N = 2 refuses it', async ({
  page,
}) => {
  test.setTimeout(150_000);
  const errors = collectErrors(page);
  await page.goto('/?preset=ring&methods=co-rl,ttrl&teacher=union#train');
  await expect(page.getByTestId('hp-teacher')).toHaveValue('union');
  await expect(page.getByTestId('hp-teacher-help')).toContainText('extension, not in the paper');
  await setHyper(page, { batchPrompts: 4, samples: 4, steps: 1000, evalEvery: 0, evalProblems: 8 });
  // 0.25 s between steps: a fast engine (wasm, a real GPU) must not finish the 1000 steps before the pause below
  await page.getByTestId('train-speed').selectOption('250');
  await page.getByTestId('train-start').click();
  const chart = page.getByTestId('chart-diagnostics');
  await expect(chart).toHaveAttribute('data-points', /^([3-9]|[1-9]\d+)$/, { timeout: 120_000 });
  await expect(chart.locator('.recharts-line')).toHaveCount(6); // co-rl and ttrl x 3 agents
  await expect(chart.locator('h3')).toContainText('Co-RL teacher: union');
  await page.getByTestId('diagnostic-pick').selectOption('unanimousRate');
  await expect(chart.locator('.recharts-line')).toHaveCount(2);
  await page.getByTestId('diagnostic-pick').selectOption('supervisionContainsTruth');
  await page.getByTestId('train-pause').click();
  await expect(page.getByTestId('train-status')).toHaveAttribute('data-phase', 'paused', { timeout: 30_000 });
  await chart.scrollIntoViewIfNeeded();
  await page.locator('#diagnostics-chart').screenshot({ path: docImage('diagnostics-chart.png') });
  await page.setViewportSize({ width: 390, height: 844 });
  await expect.poll(() => overflowing(page), { timeout: 10_000 }).toEqual([]); // charts resize a moment later
  await page.setViewportSize({ width: 1440, height: 900 });
  // a two-agent preset: the peer teacher is refused with the reason, and Start is off
  await page.getByTestId('preset').selectOption('paper-demo');
  await expect(page.getByTestId('hp-teacher-help')).toContainText('needs N >= 3 agents');
  await expect(page.getByTestId('train-start')).toBeDisabled();
  expect(errors).toEqual([]);
});
