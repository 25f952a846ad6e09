// The wasm SIMD engine chosen in the Train view's settings: the worker compiles the kernel module and a
// tiny run trains on it (the automatic fallback to it without WebGPU is in e2e/fallback.spec.ts).
import { test, expect } from '@playwright/test';
import { collectErrors, setHyper } from './util';

test('the wasm engine chosen in the settings: the engine line says so and a tiny run trains', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const errors = collectErrors(page);
  await page.goto('/');
  await page.getByTestId('backend').selectOption('wasm');
  await setHyper(page, { batchPrompts: 2, samples: 2, steps: 2, evalEvery: 0, evalProblems: 4 });
  await page.getByTestId('train-start').click();
  await expect(page.getByTestId('engine')).toContainText('WebAssembly SIMD engine', { timeout: 30_000 });
  await expect(page.getByTestId('fallback-banner')).toHaveCount(0);
  await expect(page.getByTestId('train-status')).toHaveAttribute('data-phase', 'done', { timeout: 60_000 });
  await expect(page.getByTestId('train-status')).toHaveAttribute('data-step', '2');
  expect(errors).toEqual([]);
});
