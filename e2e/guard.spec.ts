// A lost GPU device (real headless Chromium, WebGPU worker): the dev-only test hook window.__corl.loseDevice()
// destroys the worker's device mid-run; the page says so (a warning banner and a console warning, never a
// console error), the worker creates a new device, reloads every agent from its last in-memory snapshot
// and the run goes on to the end with the step records 1..12 of every method exactly once.
import { test, expect, type Page } from '@playwright/test';
import { collectErrors, setHyper } from './util';

type Metrics = {
  methods: string[];
  steps: Record<string, { step: number; timing: { total: number } }[]>;
  evals: Record<string, { step: number }[]>;
};
type Corl = { metrics(): Metrics; loseDevice(): void };
const metrics = (page: Page): Promise<Metrics> =>
  page.evaluate(() => (window as unknown as { __corl: Corl }).__corl.metrics());
const stepOf = async (page: Page) => Number(await page.getByTestId('train-status').getAttribute('data-step'));
const range = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

test('a lost GPU device is recreated and the run continues: step records 1..12 exactly once', async ({
  page,
}) => {
  test.setTimeout(150_000);
  const t0 = Date.now();
  const mark = (what: string) => console.log(`[${((Date.now() - t0) / 1000).toFixed(1)} s] ${what}`);
  const errors = collectErrors(page);
  const warnings: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'warning') warnings.push(m.text());
  });
  await page.goto('/?backend=webgpu'); // a device to lose: 'auto' may pick the CPU engine on a software adapter
  await setHyper(page, { batchPrompts: 2, samples: 2, steps: 12, evalEvery: 0, evalProblems: 4 });
  await page.getByTestId('method-gt').uncheck(); // Co-RL and TTRL in lock step
  await page.getByTestId('train-speed').selectOption('250'); // slow enough that the loss lands mid-run on any machine
  await page.getByTestId('train-start').click();
  await expect.poll(() => stepOf(page), { timeout: 90_000, intervals: [50] }).toBeGreaterThanOrEqual(3);
  mark(`step ${await stepOf(page)}: losing the device`);
  await page.evaluate(() => (window as unknown as { __corl: Corl }).__corl.loseDevice());

  const notice = page.getByTestId('guard-notice');
  await expect(notice).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('guard-message')).toContainText('The GPU device was lost');
  await expect(notice).toHaveAttribute('data-kind', 'recovered', { timeout: 60_000 });
  const recovered = await page.getByTestId('guard-message').innerText();
  mark(`recovered: ${recovered}`);
  expect(recovered).toMatch(/on a new WebGPU device/);
  await page.getByTestId('train-speed').selectOption('0');

  await expect(page.getByTestId('train-status')).toHaveAttribute('data-phase', 'done', { timeout: 90_000 });
  mark('done');
  const m = await metrics(page);
  expect(m.methods).toEqual(['co-rl', 'ttrl']);
  for (const k of m.methods)
    expect(
      m.steps[k].map((r) => r.step),
      k,
    ).toEqual(range(12));
  for (const k of m.methods)
    expect(
      m.evals[k].map((r) => r.step),
      k,
    ).toEqual([0, 12]);
  const stepMs = (m.steps['co-rl'].reduce((a, r) => a + r.timing.total, 0) / 12) * 1000;
  const takeMs = await page.getByTestId('persist-status').getAttribute('data-snapshot-take-ms');
  console.log(
    `co-rl step: ${stepMs.toFixed(0)} ms on average; a snapshot of both methods took ${takeMs} ms in the worker`,
  );
  expect(warnings.some((w) => w.includes('The GPU device was lost'))).toBe(true);
  expect(errors).toEqual([]);
});
