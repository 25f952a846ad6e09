// Pipelines created once and asynchronously (src/rl/pipelines.browsercheck.ts): every registered
// kernel gets exactly one pipeline from WebGpuBackend.prepare(), a dispatch after it creates none, the
// outputs match the synchronous path bit for bit, and a broken kernel's compile error names it. Prints
// the first Co-RL step's time of a fresh backend with and without prepare.
import { test, expect } from '@playwright/test';
import { openHarness, runCheck } from './util';

test('pipelines: one per kernel, prepared asynchronously before the first step', async ({ page }) => {
  await openHarness(page);
  const r = await runCheck(page, 'pipelines:prepare');
  const f = r.figures;
  expect(f.kernels, r.lines.join('\n')).toBeGreaterThan(40);
  expect(f.usedByStep, r.lines.join('\n')).toBeGreaterThan(0);
  expect(f.failures, r.lines.join('\n')).toBe(0);
  expect(r.ok, r.lines.join('\n')).toBe(true);
});
