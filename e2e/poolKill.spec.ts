// A model worker that stops mid-run (issue 20, "Bad input and faults"; real headless Chromium, wasm engine,
// 2 model workers): the dev-only test hook window.__corl.killModelWorker() stops the pool's last worker
// after step 3; the page says so (the warning banner, then "recovered"), new workers start, the run reloads
// from its last snapshot and goes on to the end with the step records 1..8 of every method exactly once,
// the same records (wall-clock fields aside) as the same run with no worker stopped.
import { test, expect, type Page } from '@playwright/test';
import { collectErrors, setHyper } from './util';

type Metrics = {
  methods: string[];
  steps: Record<string, Record<string, unknown>[]>;
  evals: Record<string, Record<string, unknown>[]>;
};
type Corl = { metrics(): Metrics; killModelWorker(): void };
const corl = (page: Page) => page.evaluate(() => (window as unknown as { __corl: Corl }).__corl.metrics());
const stepOf = async (page: Page) => Number(await page.getByTestId('train-status').getAttribute('data-step'));
const STEPS = 8;

/** The run's records without their wall-clock fields. */
const canonical = (m: Metrics): string =>
  JSON.stringify(
    m.methods.map((k) => [
      (m.steps[k] ?? []).map((r) => ({ ...r, timing: null })),
      (m.evals[k] ?? []).map((r) => ({ ...r, seconds: 0 })),
    ]),
  );

async function run(page: Page, kill: boolean): Promise<Metrics> {
  await page.goto('/?backend=wasm&workers=2');
  await setHyper(page, { batchPrompts: 2, samples: 2, steps: STEPS, evalEvery: 4, evalProblems: 4 });
  await page.getByTestId('method-gt').uncheck(); // Co-RL and TTRL in lock step: 4 models on 2 workers
  // 1 s between steps while the stop is sent: the stop lands steps before the run's end even when the page is
  // busy drawing (at 0.25 s a stop sent at step 3 could arrive after step 8, and the spec failed for that)
  await page.getByTestId('train-speed').selectOption(kill ? '1000' : '250');
  await page.getByTestId('train-start').click();
  if (kill) {
    await expect.poll(() => stepOf(page), { timeout: 90_000, intervals: [50] }).toBeGreaterThanOrEqual(3);
    await page.evaluate(() => (window as unknown as { __corl: Corl }).__corl.killModelWorker());
    const notice = page.getByTestId('guard-notice');
    await expect(notice).toHaveAttribute('data-kind', 'recovered', { timeout: 60_000 });
    await expect(page.getByTestId('guard-message')).toContainText('every agent was reloaded from step');
    await expect(page.getByTestId('guard-message')).toContainText('into new model workers');
  }
  await page.getByTestId('train-speed').selectOption('0');
  await expect(page.getByTestId('train-status')).toHaveAttribute('data-phase', 'done', { timeout: 120_000 });
  await expect(page.getByTestId('throughput')).toContainText('2 model workers');
  return corl(page);
}

test('a model worker stopped mid-run: new workers, step records 1..8 exactly once, the same records', async ({
  page,
}) => {
  test.setTimeout(360_000);
  const errors = collectErrors(page);
  const killed = await run(page, true);
  expect(killed.methods).toEqual(['co-rl', 'ttrl']);
  const range = Array.from({ length: STEPS }, (_, i) => i + 1);
  for (const k of killed.methods)
    expect(
      killed.steps[k].map((r) => r.step),
      k,
    ).toEqual(range);
  const whole = await run(page, false);
  expect(canonical(killed)).toBe(canonical(whole));
  expect(errors).toEqual([]);
});
