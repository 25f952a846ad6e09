// The cohort in parallel in the page (issue 20): the same short run on the wasm engine with every model in
// the training worker (workers=1) and with the models in 2 model workers (Web Workers the training worker
// starts) gives byte-identical metrics (every step and evaluation record, wall-clock fields left out); a
// pool size of 0 or above 64 in a link is refused with the reason.
import { test, expect, type Page } from '@playwright/test';
import { collectErrors, setHyper } from './util';

type Metrics = {
  methods: string[];
  steps: Record<string, Record<string, unknown>[]>;
  evals: Record<string, Record<string, unknown>[]>;
};
const metrics = (page: Page): Promise<Metrics> =>
  page.evaluate(() => (window as unknown as { __corl: { metrics(): Metrics } }).__corl.metrics());

/** The run's records without their wall-clock fields, as one JSON text. */
const canonical = (m: Metrics): string =>
  JSON.stringify(
    m.methods.map((k) => [
      (m.steps[k] ?? []).map((r) => ({ ...r, timing: null })),
      (m.evals[k] ?? []).map((r) => ({ ...r, seconds: 0 })),
    ]),
  );

async function run(page: Page, workers: number): Promise<{ json: string; notices: string[] }> {
  await page.goto(`/?backend=wasm&workers=${workers}`);
  await setHyper(page, {
    batchPrompts: 2,
    samples: 4,
    steps: 3,
    evalEvery: 3,
    evalProblems: 6,
    portraitSamples: 0,
  });
  await page.getByTestId('train-start').click();
  await expect(page.getByTestId('train-status')).toHaveAttribute('data-phase', 'done', { timeout: 180_000 });
  const m = await metrics(page);
  expect(m.methods.length).toBeGreaterThan(0);
  for (const k of m.methods) expect(m.steps[k]).toHaveLength(3);
  const notices = await page.getByTestId('build-notice').allInnerTexts();
  const line = await page.getByTestId('throughput').innerText();
  expect(line.includes('2 model workers'), `the throughput line names the pool: ${line}`).toBe(workers === 2);
  return { json: canonical(m), notices };
}

test('metrics are byte-identical with 1 and 2 model workers (wasm)', async ({ page }) => {
  test.setTimeout(420_000);
  const errors = collectErrors(page);
  const one = await run(page, 1);
  expect(one.notices.join('\n')).not.toContain('model workers');
  const two = await run(page, 2);
  expect(two.notices.join('\n')).toMatch(
    /models of each lock step train in 2 model workers \(wasm(-relaxed)?\)/,
  );
  expect(two.json).toBe(one.json);
  expect(errors).toEqual([]);
});

test('a pool size of 0 or above 64 in a link is refused with the reason', async ({ page }) => {
  for (const bad of ['0', '65']) {
    await page.goto(`/?workers=${bad}`);
    const notice = page.getByTestId('url-notice');
    await expect(notice).toContainText('workers');
    await expect(notice).toContainText('a whole number of workers from 1 to 64');
  }
});
