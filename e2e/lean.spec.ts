// The lean Co-RL step in real headless Chromium with real WebGPU (src/rl/lean.browsercheck.ts): agents
// shaped like the paper-demo preset; at most 3 GPU-to-CPU readbacks per step, 11 dispatches per
// generated token (the fused decode kernels) at both B x K = 16 and 256, no buffer allocation after the first step, and the same engine
// memory after step 10 and after the last step of a long run.
import { test, expect } from '@playwright/test';
import { openHarness, runCheck } from './util';

test.describe('lean Co-RL step on WebGPU', () => {
  test('readbacks, dispatches per token and allocations of one step', async ({ page }) => {
    await openHarness(page);
    const r = await runCheck(page, 'lean:counts');
    const f = r.figures;
    expect(f.readbacksPerStep, r.lines.join('\n')).toBeLessThanOrEqual(3);
    // fused decode (src/engine/decode.ts): A (2 blocks) 3 per block + 1 head, B (1 block) 3 + 1 = 11 (was 42)
    expect(f.dispatchesPerToken16, r.lines.join('\n')).toBe(11);
    expect(f.dispatchesPerToken256, r.lines.join('\n')).toBe(f.dispatchesPerToken16);
    expect(f.allocationsAfterFirst, r.lines.join('\n')).toBe(0);
    expect(r.ok).toBe(true);
  });

  test('engine memory is the same after step 10 and the last step', async ({ page }) => {
    await openHarness(page);
    const r = await runCheck(page, 'lean:memory');
    const f = r.figures;
    expect(f.bytesHeldStep10, r.lines.join('\n')).toBeGreaterThan(0);
    expect(f.bytesHeldStepN, r.lines.join('\n')).toBe(f.bytesHeldStep10);
    expect(f.allocationsAfterFirst, r.lines.join('\n')).toBe(0);
    expect(f.readbacksPerStep, r.lines.join('\n')).toBeLessThanOrEqual(3);
    expect(r.ok).toBe(true);
  });
});

test('fused decode kernels: fewer dispatches than the per-op path, times side by side', async ({ page }) => {
  await openHarness(page);
  const r = await runCheck(page, 'decode:fused-vs-unfused');
  expect(r.figures.fusedDispatches, r.lines.join('\n')).toBeLessThan(r.figures.unfusedDispatches);
  expect(r.ok).toBe(true);
});
