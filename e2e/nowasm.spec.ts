// A browser without WebGPU and without WebAssembly (Chromium with WebGPU disabled and V8 in jitless mode,
// which has no wasm): the page falls back to the CPU reference and the banner says why (the wasm fallback where
// WebAssembly SIMD is present is in e2e/fallback.spec.ts; a wasm without SIMD is refused the same way,
// src/engine/wasm/kernelsWasm.test.ts).
import { test, expect } from '@playwright/test';
import { setHyper } from './util';

test.use({
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-webgpu',
      '--js-flags=--jitless',
    ],
  },
});

test('no WebGPU, no WebAssembly: the Train view falls back to the CPU reference and says why', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await page.goto('/');
  expect(await page.evaluate(() => typeof (globalThis as { WebAssembly?: unknown }).WebAssembly)).toBe(
    'undefined',
  );
  await setHyper(page, { batchPrompts: 2, samples: 2, steps: 2, evalEvery: 0, evalProblems: 4 });
  await page.getByTestId('train-start').click();
  const banner = page.getByTestId('fallback-banner');
  await expect(banner).toHaveAttribute('data-engine', 'cpu', { timeout: 30_000 });
  await expect(banner).toContainText('WebGPU is unavailable, so training runs on the CPU backend');
  await expect(banner).toContainText(
    'The WebAssembly engine cannot run either: this runtime has no WebAssembly',
  );
  console.log(`no-wasm banner: ${await banner.innerText()}`);
  await expect(page.getByTestId('train-status')).toHaveAttribute('data-phase', 'done', { timeout: 60_000 });
  await expect(page.getByTestId('train-status')).toHaveAttribute('data-step', '2');
});
