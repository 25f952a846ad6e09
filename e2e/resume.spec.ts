// Runs kept in IndexedDB (real headless Chromium, WebGPU worker): a reload during a run draws the saved
// points at once, says so, and continues from the last snapshot with step records 1..n (no gap, no
// duplicate, and steps 1..5 as they were); a reload while paused stays paused at the same step; a second
// tab never takes over the run; "Export checkpoints" downloads CORLCKPT files; a full storage quota is
// reported in the page.
import { test, expect, type Page } from '@playwright/test';
import { readFile } from 'node:fs/promises';
import { collectErrors, setHyper } from './util';

type Metrics = {
  methods: string[];
  steps: Record<string, { step: number; timing: unknown }[]>;
  evals: Record<string, { step: number; seconds: number }[]>;
};
const metrics = (page: Page): Promise<Metrics> =>
  page.evaluate(() => (window as unknown as { __corl: { metrics(): Metrics } }).__corl.metrics());
const stepOf = async (page: Page) => Number(await page.getByTestId('train-status').getAttribute('data-step'));
const statusText = (page: Page) => page.getByTestId('train-status').innerText();
const phaseOf = (page: Page) => page.getByTestId('train-status').getAttribute('data-phase');

/** Per method, the step numbers of its records. */
const stepNumbers = (m: Metrics) =>
  Object.fromEntries(m.methods.map((k) => [k, (m.steps[k] ?? []).map((r) => r.step)]));
const range = (n: number) => Array.from({ length: n }, (_, i) => i + 1);
/** The last eval step every method of `m` has recorded, at most n: a step's record reaches the page
 *  before its evaluation does, so a sample taken mid-run can hold step n without its eval. */
const evalHorizon = (m: Metrics, n: number) =>
  Math.min(n, ...m.methods.map((k) => Math.max(-1, ...(m.evals[k] ?? []).map((r) => r.step))));
/** Step records 1..n and evals up to the eval horizon of `ref` (both without their wall-clock fields). */
const upTo = (m: Metrics, n: number, ref: Metrics = m) => {
  const h = evalHorizon(ref, n);
  return m.methods.map((k) => [
    (m.steps[k] ?? []).filter((r) => r.step <= n).map((r) => ({ ...r, timing: null })),
    (m.evals[k] ?? []).filter((r) => r.step <= h).map((r) => ({ ...r, seconds: 0 })),
  ]);
};

async function tinyRun(page: Page): Promise<void> {
  await setHyper(page, { batchPrompts: 2, samples: 2, steps: 40, evalEvery: 5, evalProblems: 4 });
  await page.getByTestId('method-gt').uncheck(); // Co-RL and TTRL in lock step: two methods keep it quick
  // 0.25 s between steps: on a fast GPU the 40 steps must not end before the reload (a finished run is not resumed)
  await page.getByTestId('train-speed').selectOption('250');
  await page.getByTestId('train-start').click();
}

const T0 = Date.now();
const mark = (what: string) => console.log(`[${((Date.now() - T0) / 1000).toFixed(1)} s] ${what}`);

test('a reload resumes the run from its last snapshot: no gap, no duplicate; paused stays paused; export checkpoints', async ({
  page,
  context,
}) => {
  test.setTimeout(240_000);
  const errors = collectErrors(page);
  await page.goto('/?backend=webgpu'); // timed for WebGPU: 'auto' may pick the faster CPU engine on a software adapter
  await expect(page.getByTestId('persist-status')).toContainText('a reload resumes');
  await tinyRun(page);
  mark('started');
  await expect(page.getByTestId('chart-heldout')).toHaveAttribute('data-points', '1', { timeout: 120_000 });
  mark('base evaluated');
  // wait for step 6 and the step-5 snapshot committed to IndexedDB
  await expect.poll(() => stepOf(page), { timeout: 180_000 }).toBeGreaterThanOrEqual(6);
  const snapStep = async () =>
    Number((await page.getByTestId('persist-status').getAttribute('data-snapshot-step')) || -1);
  await expect.poll(snapStep, { timeout: 30_000 }).toBeGreaterThanOrEqual(5);
  const bytes = Number(await page.getByTestId('persist-status').getAttribute('data-snapshot-bytes'));
  const ms = Number(await page.getByTestId('persist-status').getAttribute('data-snapshot-ms'));
  const takeMs = Number(await page.getByTestId('persist-status').getAttribute('data-snapshot-take-ms'));
  const before = await metrics(page);
  const beforeStep = Math.min(...Object.values(stepNumbers(before)).map((s) => s.length));
  console.log(
    `before the reload: step ${beforeStep}; snapshot of step ${await snapStep()}: ${bytes} bytes (2 methods x 2 agents), taken in ${takeMs} ms in the worker, saved in ${ms} ms`,
  );
  expect(bytes).toBeGreaterThan(0);

  mark('reload');
  await page.reload();
  const t0 = Date.now();
  await expect(page.getByTestId('resume-notice')).toContainText(/Resumed run from step \d+ \(saved at .+\)/, {
    timeout: 10_000,
  });
  const from = Number(await page.getByTestId('resume-notice').getAttribute('data-step'));
  // a snapshot every 5 steps: the last one committed before the reload (5, 10, ... up to where the run was)
  expect(
    from % 5 === 0 && from >= 5 && from <= beforeStep,
    `resumed from step ${from}, before the reload at ${beforeStep}`,
  ).toBe(true);
  // the saved points draw at once, before the worker has loaded anything
  await expect(page.getByTestId('chart-entropy')).toHaveAttribute('data-points', String(from), {
    timeout: 5_000,
  });
  await expect(page.getByTestId('chart-heldout')).toHaveAttribute('data-points', String(from / 5 + 1)); // steps 0, 5, ...
  console.log(
    `saved points drawn ${Date.now() - t0} ms after the reload; status ${await phaseOf(page)}@${await stepOf(page)}`,
  );
  await expect(page.getByTestId('hp-steps')).toHaveValue('40'); // the settings came back too
  expect(upTo(await metrics(page), Math.min(from, beforeStep), before)).toEqual(
    upTo(before, Math.min(from, beforeStep)),
  );

  await expect(page.getByTestId('train-status')).toHaveAttribute('data-phase', 'running', {
    timeout: 60_000,
  });
  mark('running again');
  // training continues from the snapshot and passes where it was
  await expect
    .poll(() => stepOf(page), { timeout: 120_000, message: 'the resumed run steps on' })
    .toBeGreaterThanOrEqual(beforeStep + 1)
    .catch(async (e: unknown) => {
      throw new Error(`${String(e)}\nstatus: ${await statusText(page)}`);
    });
  await page.getByTestId('train-pause').click();
  await expect(page.getByTestId('train-status')).toHaveAttribute('data-phase', 'paused', { timeout: 60_000 });
  const n = await stepOf(page);
  const after = await metrics(page);
  for (const s of Object.values(stepNumbers(after))) expect(s).toEqual(range(n));
  expect(after.evals['co-rl'].map((e) => e.step)).toEqual(
    [0, 5, 10, 15, 20, 25, 30, 35].filter((s) => s <= n),
  );
  // the steps recomputed after the reload are the ones the first page had drawn
  expect(upTo(after, beforeStep, before)).toEqual(upTo(before, beforeStep));
  await expect(page.getByTestId('chart-entropy')).toHaveAttribute('data-points', String(n));
  console.log(`resumed and paused at step ${n}: records 1..${n} for every method`);

  mark('paused');
  // export: one CORLCKPT file per method per agent
  const downloads: { name: string; path: string }[] = [];
  page.on('download', async (d) => downloads.push({ name: d.suggestedFilename(), path: await d.path() }));
  await page.getByTestId('export-checkpoints').click();
  await expect(page.getByTestId('export-message')).toContainText('Exported 4 checkpoint files', {
    timeout: 30_000,
  });
  await expect.poll(() => downloads.length, { timeout: 10_000 }).toBe(4);
  await expect.poll(async () => (await Promise.all(downloads.map((d) => d.path))).every(Boolean)).toBe(true);
  for (const d of downloads) {
    expect(d.name).toMatch(new RegExp(`^(co-rl|ttrl)-[AB]-step${n}\\.ckpt$`));
    expect((await readFile(d.path)).subarray(0, 8).toString('latin1')).toBe('CORLCKPT');
  }

  mark('exported');
  // a second tab of the same browser does not take the run over
  const other = await context.newPage();
  await other.goto('/');
  await expect(other.getByTestId('persist-status')).toContainText('a reload resumes');
  await other.waitForTimeout(500);
  await expect(other.getByTestId('resume-notice')).toHaveCount(0);
  await expect(other.getByTestId('train-status')).toHaveAttribute('data-phase', 'idle');
  const key = (p: Page) => p.evaluate(() => sessionStorage.getItem('co-rl-playground:run-key'));
  expect(await key(other)).not.toBe(await key(page));
  await other.close();

  mark('second tab checked');
  // paused: a reload resumes paused at the same step, with nothing lost
  await page.reload();
  await expect(page.getByTestId('resume-notice')).toContainText(`Resumed run from step ${n}`, {
    timeout: 10_000,
  });
  await expect(page.getByTestId('chart-entropy')).toHaveAttribute('data-points', String(n), {
    timeout: 5_000,
  });
  await expect(page.getByTestId('train-status')).toHaveAttribute('data-phase', 'paused', { timeout: 60_000 });
  await page.waitForTimeout(1000);
  expect(await stepOf(page)).toBe(n);
  expect(upTo(await metrics(page), n, after)).toEqual(upTo(after, n));

  mark('resumed paused');
  // discard: the saved run is deleted; the next reload starts empty
  await page.getByTestId('discard-saved-run').first().click();
  await expect(page.getByTestId('persist-status')).toContainText('not saved in the browser');
  await page.reload();
  await expect(page.getByTestId('persist-status')).toContainText('a reload resumes');
  await page.waitForTimeout(500);
  await expect(page.getByTestId('resume-notice')).toHaveCount(0);
  await expect(page.getByTestId('chart-entropy')).toHaveAttribute('data-points', '0');
  expect(errors).toEqual([]);
});

test('a full storage quota is reported in the page, not swallowed', async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto('/');
  const cdp = await page.context().newCDPSession(page);
  const origin = new URL(page.url()).origin;
  await cdp.send('Storage.overrideQuotaForOrigin', { origin, quotaSize: 1024 });
  await tinyRun(page);
  await expect(page.getByTestId('persist-error')).toContainText('QuotaExceededError', { timeout: 90_000 });
  console.log(`shown: ${await page.getByTestId('persist-error').innerText()}`);
  await expect(page.getByTestId('train-status')).not.toHaveAttribute('data-phase', 'error'); // training goes on
  await cdp.send('Storage.overrideQuotaForOrigin', { origin });
});

test('a tab navigated to a link with other settings opens the link; its saved run stays, to resume or discard', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const errors = collectErrors(page);
  await page.goto('/?backend=wasm');
  await tinyRun(page);
  await expect(page.getByTestId('persist-status')).not.toHaveAttribute('data-snapshot-step', '', {
    timeout: 60_000,
  });
  mark(`saved at step ${await stepOf(page)}; navigating this tab to a link with preset same-family`);
  await page.goto('/?backend=wasm&preset=same-family');
  const notice = page.getByTestId('resume-notice');
  await expect(notice).toHaveAttribute('data-ok', 'false');
  await expect(notice).toContainText('(preset paper-demo, saved at');
  await expect(notice).toContainText(
    'was not resumed: the page was opened from a link that sets preset otherwise',
  );
  await expect(page.getByTestId('preset')).toHaveValue('same-family'); // the link's settings, not the run's
  await expect(page.getByTestId('train-status')).toHaveAttribute('data-phase', 'idle');
  console.log(`shown: ${await notice.innerText()}`);
  // "Resume it instead": the saved run, its settings and records, and this tab now owns it (a reload resumes it)
  await page.getByTestId('resume-passed-over').click();
  await expect(notice).toContainText('Resumed run from step', { timeout: 30_000 });
  await expect(page.getByTestId('preset')).toHaveValue('paper-demo');
  const resumedAt = await stepOf(page);
  await page.reload();
  await expect(page.getByTestId('resume-notice')).toContainText('Resumed run from step', { timeout: 30_000 });
  await expect(page.getByTestId('preset')).toHaveValue('paper-demo');
  await expect(page.getByTestId('train-status')).not.toHaveAttribute('data-phase', 'idle');
  mark(`resumed in place at step ${resumedAt}, and again after a reload`);
  // "Discard it": navigated to the link again, the passed-over run is deleted; a plain address then finds nothing
  await page.goto('/?backend=wasm&preset=same-family');
  await expect(notice).toContainText('was not resumed');
  await page.getByTestId('discard-passed-over').click();
  await expect(page.getByTestId('resume-notice')).toHaveCount(0);
  await page.goto('/');
  await expect(page.getByTestId('persist-status')).toBeVisible();
  await expect(page.getByTestId('resume-notice')).toHaveCount(0);
  await expect(page.getByTestId('train-status')).toHaveAttribute('data-phase', 'idle');
  expect(errors).toEqual([]);
});
