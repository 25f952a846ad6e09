// The default link's first chart point with every new view in place (its time is printed; the 8 s goal is a
// figure of `npm run bench`, src/bench/firstPoint.ts, not a bound here), the live throughput beside the
// status, and how backend 'auto' chose (it times the adapter, here SwiftShader, against the CPU engine and
// says which won and why). Real headless Chromium.
import { expect, test } from '@playwright/test';
import { collectErrors, docImage } from './util';

test('default link: first chart point, throughput live, auto says how it chose', async ({ page }) => {
  const errors = collectErrors(page);
  // one untimed load first: the dev server transforms every module on its first request, which a built app
  // (and a second visit) never pays; the figure is the page's own time
  await page.goto('/');
  await expect(page.getByTestId('preset-info')).toContainText('lp-nocarry');
  const t0 = Date.now();
  await page.goto('/');
  const start = page.getByTestId('train-start');
  await expect(start).toBeEnabled({ timeout: 30_000 });
  await start.click();
  await expect(page.getByTestId('chart-heldout')).toHaveAttribute('data-points', /^[1-9]\d*$/, {
    timeout: 60_000,
  });
  const firstPoint = (Date.now() - t0) / 1000;
  await expect(page.getByTestId('chart-reward-std')).toHaveAttribute('data-points', /^[1-9]\d*$/, {
    timeout: 60_000,
  });
  const firstStep = (Date.now() - t0) / 1000;
  console.log(
    `default link: first chart point (base evaluation) after ${firstPoint.toFixed(1)} s, first step point after ${firstStep.toFixed(1)} s`,
  );
  const engine = page.getByTestId('engine');
  await expect(engine).toBeVisible();
  console.log(`engine line: ${await engine.innerText()}`);
  // auto measured the adapter (or took its cached decision), and the line says what, which kind and why
  const text = await engine.innerText();
  expect(text).toMatch(/auto measured: (software|hardware) WebGPU adapter .* chains\/s/);
  if (/swiftshader/i.test(text)) expect(text).toMatch(/auto measured: software WebGPU adapter/);
  const tp = page.getByTestId('throughput');
  await expect(tp).toContainText(/\d ms\/step · [\d.]+ rollouts\/s · [\d.]+ tokens\/s/, { timeout: 60_000 });
  console.log(`throughput: ${await tp.innerText()}`);
  const ms = Number(await tp.getAttribute('data-ms-per-step'));
  expect(ms).toBeGreaterThan(0);
  await page.getByTestId('train-pause').click();
  await page.locator('.run-controls').screenshot({ path: docImage('throughput.png') });
  expect(errors).toEqual([]);
});
