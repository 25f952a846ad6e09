// The cohort composer as a user drives it (real headless Chromium, WebGPU in the training worker):
// Compose -> "Start from preset" -> agent B gets a seed nothing is shipped for, so it is pretrained here
// (a tiny recipe through the dev-only test hook) -> a shipped checkpoint file is imported as agent C,
// a text file and the same file twice are refused with the agents unchanged -> a 2-step Co-RL run of
// the three agents (one shipped, one pretrained in the page, one imported) draws its charts.
import { test, expect, type Page } from '@playwright/test';
import { collectErrors, overflowing, setHyper } from './util';

/** Each row's family, size, seed, view and source. */
async function rows(page: Page): Promise<string[]> {
  const out: string[] = [];
  const all = page.getByTestId('agent-row');
  for (let i = 0; i < (await all.count()); i++) {
    const r = all.nth(i);
    const v = await Promise.all(
      ['agent-family', 'agent-size', 'agent-seed', 'agent-view', 'agent-source'].map((t) =>
        r.getByTestId(t).inputValue(),
      ),
    );
    out.push(`${await r.getAttribute('data-agent')} ${v.join(' ')}`);
  }
  return out;
}

test('compose a cohort: shipped, pretrained-here and imported agents train together; bad files are refused', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const errors = collectErrors(page);
  const fetched: string[] = [];
  // checkpoints served from public/ (a build shipped with the app is looked up first: a miss serves nothing)
  page.on('response', (r) => {
    const m = /checkpoints\/.*\.ckpt$/.exec(new URL(r.url()).pathname);
    const html = (r.headers()['content-type'] ?? '').includes('text/html');
    if (m && r.ok() && !html) fetched.push(m[0]);
  });
  // dev-only hook (src/store/cohortStart.ts testPretrainRecipe): pretraining in seconds on SwiftShader
  await page.addInitScript(() => {
    (window as unknown as Record<string, unknown>).__CORL_TEST_PRETRAIN_RECIPE__ = {
      maxSteps: 2,
      evalEvery: 2,
      valSize: 4,
      bandSamples: 2,
      batch: 8,
    };
  });
  await page.goto('/');
  await expect(page.getByTestId('preset-info')).toContainText('lp-nocarry'); // the manifest is read
  // evalEvery 0: held-out evaluation before the first step and after the last
  await setHyper(page, { batchPrompts: 2, samples: 2, steps: 2, evalEvery: 0, evalProblems: 4 });
  await page.getByTestId('method-ttrl').uncheck();
  await page.getByTestId('method-gt').uncheck();

  await page.getByTestId('cohort-mode').getByLabel('Compose').check();
  await expect(page.getByTestId('cohort-mode')).toHaveAttribute('data-mode', 'custom');
  await expect(page.getByTestId('agent-row')).toHaveCount(0);
  await page.getByTestId('start-from-preset').click();
  expect(await rows(page)).toEqual(['A lp-nocarry s 1 plain shipped', 'B rope-carry s 1 plain shipped']);

  // agent B: seed 7 has no shipped checkpoint, so the only sources left are pretraining and import
  const b = page.getByTestId('agent-row').nth(1);
  await b.getByTestId('agent-seed').fill('7');
  await expect(b.getByTestId('agent-source')).toHaveValue('pretrain');
  await expect(b.getByTestId('agent-source').locator('option')).toHaveText(['pretrain here']);
  await b.getByTestId('agent-source').selectOption('pretrain');

  // a real shipped checkpoint file becomes agent C
  await page.getByTestId('import-checkpoint').setInputFiles('public/checkpoints/add-d2/rope-carry.s.s1.ckpt');
  await expect(page.getByTestId('checkpoint-imported')).toContainText(
    'rope-carry.s.s1.ckpt is agent C: rope-carry.s seed 1, plain view, 13,280 params',
  );
  const composed = [
    'A lp-nocarry s 1 plain shipped',
    'B rope-carry s 7 plain pretrain',
    'C rope-carry s 1 plain imported',
  ];
  expect(await rows(page)).toEqual(composed);

  // not a checkpoint, and the same file again: refused with a message, the agents unchanged
  await page.getByTestId('import-checkpoint').setInputFiles({
    name: 'notes.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('some notes, not weights'),
  });
  await expect(page.getByTestId('checkpoint-error')).toHaveText(
    'notes.txt was not imported: not a checkpoint: magic "some not", expected "CORLCKPT". Nothing else changed.',
  );
  expect(await rows(page)).toEqual(composed);
  await page.getByTestId('import-checkpoint').setInputFiles('public/checkpoints/add-d2/rope-carry.s.s1.ckpt');
  await expect(page.getByTestId('checkpoint-error')).toContainText('this file is already agent C');
  expect(await rows(page)).toEqual(composed);
  await expect(page.getByTestId('agents-problem')).toHaveCount(0);

  // a problem blocks Start and names the agent; fixing it unblocks
  await b.getByTestId('agent-seed').fill('-1');
  await expect(page.getByTestId('agents-problem')).toHaveText(
    'agent 2 (B): the seed must be an integer in [0, 4294967295], got -1',
  );
  await expect(page.getByTestId('train-start')).toBeDisabled();
  await b.getByTestId('agent-seed').fill('7');
  await expect(page.getByTestId('train-start')).toBeEnabled();

  // on a phone the composer fits the width
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(200);
  const wide = await overflowing(page, '.cohort');
  expect(wide, 'no composer element sticks out on a phone').toEqual([]);
  await page.setViewportSize({ width: 1440, height: 900 });

  // a 2-step run of the three agents
  const t0 = Date.now();
  await page.evaluate(() => {
    const w = window as unknown as { statusLog: string[] };
    w.statusLog = [];
    const t = performance.now();
    const el = document.querySelector('[data-testid="train-status"]')!;
    let last = '';
    new MutationObserver(() => {
      const txt = (el.querySelector('.status-line') as HTMLElement | null)?.innerText ?? '';
      const key = txt.replace(/step \d+\/\d+.*$/, '');
      if (key !== last)
        w.statusLog.push(`${((performance.now() - t) / 1000).toFixed(1)} s ${txt.slice(0, 90)}`);
      last = key;
    }).observe(el, { subtree: true, childList: true, characterData: true });
  });
  await page.getByTestId('train-start').click();
  await expect(page.getByTestId('train-status')).toHaveAttribute('data-phase', 'done', { timeout: 150_000 });
  console.log(
    `composed cohort (pretrain B + 2 Co-RL steps + 2 evaluations): ${((Date.now() - t0) / 1000).toFixed(1)} s`,
  );
  console.log(
    (await page.evaluate(() => (window as unknown as { statusLog: string[] }).statusLog)).join('\n'),
  );
  await expect(page.getByTestId('train-status')).toHaveAttribute('data-step', '2');
  for (const c of ['agreement', 'entropy', 'kl', 'reward-std'])
    await expect(page.getByTestId(`chart-${c}`)).toHaveAttribute('data-points', '2');
  await expect(page.getByTestId('chart-heldout')).toHaveAttribute('data-points', '2');
  await expect(page.getByTestId('chart-entropy').locator('.recharts-line')).toHaveCount(3); // one line per agent
  for (const a of ['A', 'B', 'C'])
    await expect(page.getByTestId('chart-entropy').getByRole('button', { name: `Co-RL ${a}` })).toBeVisible();
  // only A's shipped file was fetched: B was pretrained in the worker, C's bytes came from the import
  expect([...new Set(fetched)]).toEqual(['checkpoints/add-d2/lp-nocarry.s.s1.ckpt']);
  expect(errors).toEqual([]);
});
