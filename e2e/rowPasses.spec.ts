// The policy pass in row passes (train.rowsPerPass) on real WebGPU (src/rl/rowPasses.browsercheck.ts): 13 rows
// in passes of 5, 5, 3 and of 4, 4, 4, 1 give the log-probs, entropies, self-certainties and gradient of one pass.
import { test, expect } from '@playwright/test';
import { openHarness, runCheck } from './util';

test('row passes: the figures and gradient of one pass on WebGPU', async ({ page }) => {
  await openHarness(page);
  const r = await runCheck(page, 'policy:row-passes');
  const f = r.figures;
  expect(f.maxFigureDiff, r.lines.join('\n')).toBeLessThanOrEqual(1e-5);
  expect(f.maxGradRelDiff, r.lines.join('\n')).toBeLessThanOrEqual(1e-5);
  expect(f.otherRowsGradRelDiff, r.lines.join('\n')).toBeGreaterThan(1e-2);
  expect(r.ok).toBe(true);
});
