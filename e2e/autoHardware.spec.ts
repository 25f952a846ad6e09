// Backend 'auto' on a hardware adapter (issue 20): there is no hardware GPU here, so the dev build's test
// hook window.__corl.fakeAdapter (src/worker/fakeAdapter.ts) dresses the real WebGPU adapter as a hardware
// one and makes auto's measurement give chosen rates. A fake fast GPU keeps WebGPU and the engine line
// gives both figures; a fake slow one gives way to the CPU engine, named with both figures; a second
// selection for the same adapter and the cohort's shapes takes the cached decision without measuring.
import { test, expect, type Page } from '@playwright/test';
import { collectErrors, setHyper } from './util';

type Corl = { fakeAdapter(adapter: string, gpuRate: number, cpuRate: number): void };

async function runOnce(page: Page): Promise<void> {
  await page.getByTestId('train-start').click();
  await expect(page.getByTestId('train-status')).toHaveAttribute('data-phase', 'done', { timeout: 90_000 });
}

const fake = (page: Page, adapter: string, gpu: number, cpu: number) =>
  page.evaluate(([a, g, c]) => (window as unknown as { __corl: Corl }).__corl.fakeAdapter(a, g, c), [
    adapter,
    gpu,
    cpu,
  ] as [string, number, number]);

test('auto measures a hardware adapter: a fast one keeps WebGPU, a slow one gives way, both with figures, then cached', async ({
  page,
}) => {
  test.setTimeout(240_000);
  const errors = collectErrors(page);
  await page.goto('/');
  await expect(page.getByTestId('preset-info')).toContainText('lp-nocarry');
  await setHyper(page, { batchPrompts: 2, samples: 2, steps: 1, evalEvery: 0, evalProblems: 4 });
  await expect(page.getByTestId('backend')).toHaveValue('auto');

  await fake(page, 'fake fast gpu', 5000, 400);
  await runOnce(page);
  await expect(page.getByTestId('engine')).toContainText('WebGPU adapter: fake fast gpu');
  const fast = (await page.getByTestId('engine-note').textContent()) ?? '';
  console.log(`fast: ${fast}`);
  expect(fast).toMatch(
    /auto measured: hardware WebGPU adapter \(fake fast gpu\) 5000 vs CPU engine \(WebAssembly SIMD128.*\) 400 .*this cohort's shapes \(4 rows x width \d+ x MLP \d+\), timed in \d+ ms, so WebGPU is 12\.5x faster and trains/,
  );

  await fake(page, 'fake slow gpu', 50, 400);
  await runOnce(page);
  await expect(page.getByTestId('engine')).toContainText('Training runs on the WebAssembly SIMD engine');
  const slow = (await page.getByTestId('engine-note').textContent()) ?? '';
  console.log(`slow: ${slow}`);
  expect(slow).toMatch(
    /auto measured: hardware WebGPU adapter \(fake slow gpu\) 50 vs CPU engine .* 400 .*timed in \d+ ms, so the CPU engine is 8\.0x faster and trains/,
  );
  await expect(page.getByTestId('fallback-banner')).toHaveCount(0); // a measured choice, not a failure

  // the same fake adapter again (a new selection): the cached decision, no measurement
  await fake(page, 'fake slow gpu', 50, 400);
  await runOnce(page);
  await expect(page.getByTestId('engine-note')).toContainText(
    /50 vs CPU engine .* 400 .*cached \d{4}-\d\d-\d\d/,
  );
  expect(errors).toEqual([]);
});
