// The natural presets and the Compose panel's axes as a user drives them (real headless Chromium, WebGPU in
// the training worker, a tiny recipe through the dev-only test hook): pick a natural preset, see its
// agents pretrained in the page with the corpus ladder's rung in the progress line, see the charts draw;
// reload and start again: read from the page's IndexedDB cache, no pretraining; a damaged entry is rebuilt
// with a notice; compose agents with tokenizer chunk2 and an architecture override on a task with working
// and run 2 steps; a blockSize too small is refused with the numbers, Start off; nothing sticks out at 390 px.
import { test, expect, type Page } from '@playwright/test';
import { collectErrors, overflowing, setHyper } from './util';

const TINY = { maxSteps: 2, evalEvery: 1, valSize: 4, bandSamples: 1, batch: 8, corpusLadder: [20, 30] };

/** Log every distinct status line (progress included) from now on, in window.statusLog. */
async function watchStatus(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { statusLog: string[]; works: number[] };
    w.statusLog = [];
    w.works = [];
    const el = document.querySelector('[data-testid="train-status"]')!;
    new MutationObserver(() => {
      const txt = (el.querySelector('.status-line') as HTMLElement | null)?.innerText ?? '';
      if (w.statusLog.at(-1) !== txt) w.statusLog.push(txt);
      const work = el.getAttribute('data-work');
      if (work !== null) w.works.push(Number(work));
    }).observe(el, { subtree: true, childList: true, characterData: true, attributes: true });
  });
}
const statusLog = (page: Page) =>
  page.evaluate(() => (window as unknown as { statusLog: string[] }).statusLog);

/** Start, wait for the 2-step run to finish, and check the charts drew. */
async function runTwoSteps(page: Page, agents: string[]): Promise<void> {
  await watchStatus(page);
  await page.getByTestId('train-start').click();
  await expect(page.getByTestId('train-status')).toHaveAttribute('data-phase', 'done', { timeout: 150_000 });
  await expect(page.getByTestId('train-status')).toHaveAttribute('data-step', '2');
  for (const c of ['agreement', 'entropy', 'reward-std'])
    await expect(page.getByTestId(`chart-${c}`)).toHaveAttribute('data-points', '2');
  await expect(page.getByTestId('chart-heldout')).toHaveAttribute('data-points', '2');
  for (const a of agents)
    await expect(page.getByTestId('chart-entropy').getByRole('button', { name: `Co-RL ${a}` })).toBeVisible();
}

async function setup(page: Page): Promise<void> {
  await page.goto('/');
  await expect(page.getByTestId('preset-info')).toContainText('lp-nocarry'); // the manifest is read
  await setHyper(page, { batchPrompts: 2, samples: 2, steps: 2, evalEvery: 0, evalProblems: 4 });
  await page.getByTestId('method-ttrl').uncheck();
  await page.getByTestId('method-gt').uncheck();
}

test('natural presets pretrain once into the page cache; composed agents by axes train; bad axes are refused', async ({
  page,
}) => {
  test.setTimeout(400_000);
  const errors = collectErrors(page);
  const fetched: string[] = [];
  // checkpoints served from public/ (a build shipped with the app is looked up first: a miss serves nothing)
  page.on('response', (r) => {
    const html = (r.headers()['content-type'] ?? '').includes('text/html');
    if (/\.ckpt$/.test(new URL(r.url()).pathname) && r.ok() && !html) fetched.push(new URL(r.url()).pathname);
  });
  await page.addInitScript((r) => {
    (window as unknown as Record<string, unknown>).__CORL_TEST_PRETRAIN_RECIPE__ = r;
  }, TINY);
  await setup(page);

  // the picker: shipped presets (paper-demo the worked example), then the twelve natural ones
  const preset = page.getByTestId('preset');
  await expect(preset.locator('option', { hasText: 'paper-demo (the worked example)' })).toHaveCount(1);
  await expect(preset.locator('optgroup[label^="Natural, memorising"] option')).toHaveCount(12);
  await preset.selectOption('natural-addw-seed-only');
  await expect(page.getByTestId('natural-differs')).toHaveText(
    /^nothing: one checkpoint \(nat-rope\.s seed 1\) twice/,
  );
  await expect(page.getByTestId('preset-info')).toContainText('Task: addw');
  await expect(page.getByTestId('pretrain-here')).toHaveCount(0);

  // first Start: one build for A and B (one spec), the ladder's rungs in the progress line
  const t0 = Date.now();
  await runTwoSteps(page, ['A', 'B']);
  const first = await statusLog(page);
  console.log(
    `natural seed-only, first start (pretrain + 2 steps): ${((Date.now() - t0) / 1000).toFixed(1)} s`,
  );
  expect(
    first.some((l) =>
      /Pretraining A, B: nat-rope\.s seed 1, plain view \(build 1 of 1\), corpus [23]0 problems \(rung [12] of 2\): step \d\/2/.test(
        l,
      ),
    ),
  ).toBe(true);

  const works = await page.evaluate(() => (window as unknown as { works: number[] }).works);
  expect(works.length).toBeGreaterThan(0); // the progress bar showed
  await expect(page.getByTestId('build-notice')).toHaveCount(1);
  await expect(page.getByTestId('build-notice')).toContainText(
    /^A, B: nat-rope\.s seed 1, plain view: pretrained here in [\d.]+ s \(2 steps on [23]0 problems, .*; corpus ladder 20 \(\d+%\), 30 \(\d+%\)\), stored in this page's IndexedDB cache as build [0-9a-f]{16}-(?:wasm-relaxed|wasm|webgpu)$/,
  );

  await page.screenshot({ path: 'test-results/natural-first-run.png' });
  // reload and start again: from the cache, no pretraining
  await page.reload();
  await expect(page.getByTestId('preset')).toHaveValue('natural-addw-seed-only'); // the link kept it
  const t1 = Date.now();
  await runTwoSteps(page, ['A', 'B']);
  console.log(
    `natural seed-only after a reload (cache + 2 steps): ${((Date.now() - t1) / 1000).toFixed(1)} s`,
  );
  expect((await statusLog(page)).filter((l) => l.includes('Pretraining'))).toEqual([]);
  await expect(page.getByTestId('build-notice')).toHaveText(
    /^A, B: nat-rope\.s seed 1, plain view: from this page's IndexedDB cache \(build [0-9a-f]{16}-(?:wasm-relaxed|wasm|webgpu)\)$/,
  );

  // a damaged entry (one byte flipped in IndexedDB) is rebuilt, never used, with a notice
  await page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((res, rej) => {
      const r = indexedDB.open('corl-checkpoint-cache');
      r.onsuccess = () => res(r.result);
      r.onerror = () => rej(r.error);
    });
    const store = db.transaction('builds', 'readwrite').objectStore('builds');
    const keys = await new Promise<IDBValidKey[]>(
      (res) => (store.getAllKeys().onsuccess = (e) => res((e.target as IDBRequest<IDBValidKey[]>).result)),
    );
    const v = await new Promise<{ bytes: Uint8Array; sum: string }>(
      (res) => (store.get(keys[0]).onsuccess = (e) => res((e.target as IDBRequest).result)),
    );
    v.bytes[v.bytes.length - 5] ^= 0xff;
    const tx = db.transaction('builds', 'readwrite');
    tx.objectStore('builds').put(v, keys[0]);
    await new Promise((res) => (tx.oncomplete = res));
  });
  await runTwoSteps(page, ['A', 'B']);
  await expect(page.getByTestId('build-notice').first()).toHaveText(
    /^cache entry [0-9a-f]{16}-(?:wasm-relaxed|wasm|webgpu) \(A, B: nat-rope\.s seed 1, plain view\) is damaged: its hash does not check .*; rebuilt it, the damaged entry was not used$/,
  );
  await expect(page.getByTestId('build-notice').nth(1)).toContainText('pretrained here');

  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(200);
  expect(await overflowing(page, '.cohort'), 'the natural preset card fits at 390 px').toEqual([]);
  await page.setViewportSize({ width: 1440, height: 900 });

  // compose on addw: start from the natural preset, B gets chunk2 tokens and one block
  await page.getByTestId('cohort-mode').getByLabel('Compose').check();
  await page.getByTestId('start-from-preset').click();
  await expect(page.getByTestId('compose-task')).toHaveValue('addw');
  const [a, b] = [0, 1].map((i) => page.getByTestId('agent-row').nth(i));
  await expect(b.getByTestId('agent-source')).toHaveValue('pretrain');
  await b.getByTestId('agent-tokenizer').selectOption('chunk2');
  await b.getByTestId('agent-arch-nLayer').fill('1');
  await b.getByTestId('agent-corpus').selectOption('random');
  await expect(b.getByTestId('agent-corpus-stream')).toHaveValue(''); // nat-rope reads the common stream
  await b.getByTestId('agent-corpus-size').fill('30');
  await b.getByTestId('agent-corpus-stream').fill('b');
  // a context too small: refused with the numbers, Start off
  await a.getByTestId('agent-arch-blockSize').fill('10');
  await expect(page.getByTestId('agents-problem')).toHaveText(
    /^agent 1 \(A\): arch\.blockSize 10 cannot hold the prompt \(\d+ tokens\) plus the longest completion with EOS \(\d+ tokens\) of addw\(digits=3, evalFraction=0\.2\) in the plain view: needs at least \d+$/,
  );
  await expect(page.getByTestId('train-start')).toBeDisabled();
  await a.getByTestId('agent-arch-blockSize').fill('');
  await expect(page.getByTestId('agents-problem')).toHaveCount(0);
  await expect(page.getByTestId('train-start')).toBeEnabled();

  // on a phone nothing of the cohort panel sticks out
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(200);
  expect(await overflowing(page, '.cohort'), 'no cohort element sticks out at 390 px').toEqual([]);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.getByTestId('agent-row').nth(1).screenshot({ path: 'test-results/natural-compose-390.png' });
  await page.setViewportSize({ width: 1440, height: 900 });

  await runTwoSteps(page, ['A', 'B']);
  const notes = await page.getByTestId('build-notice').allInnerTexts();
  expect(notes).toEqual([
    expect.stringMatching(/^A: nat-rope\.s seed 1, plain view: from this page's IndexedDB cache/), // the preset's build
    expect.stringMatching(
      /^B: nat-rope\.s seed 1, plain view, chunk2 tokens: pretrained here in [\d.]+ s \(2 steps on 30 problems, [^;]*\), stored/,
    ), // a named size: no ladder
  ]);
  await page.getByTestId('cohort-mode').getByLabel('Preset').check();
  await page.locator('.cohort').screenshot({ path: 'test-results/natural-presets.png' });
  expect(fetched).toEqual([]); // nothing of these runs came from public/
  expect(errors).toEqual([]);
});
