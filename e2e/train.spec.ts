// The Train view as a user sees it (real headless Chromium, WebGPU in the training worker): a tiny run
// of the default preset with Co-RL, TTRL and GT compared in lock step, every chart drawing, pause /
// step-once / reset to the same first step, legend toggles, main-thread long tasks, and screenshots.
import { test, expect, type Page } from '@playwright/test';
import { collectErrors, overflowing, setHyper, docImage } from './util';

const CHARTS = ['heldout', 'agreement', 'pseudo-label', 'reward-std', 'zero-std', 'length', 'entropy', 'kl'];

async function points(page: Page): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const c of CHARTS) out[c] = Number(await page.getByTestId(`chart-${c}`).getAttribute('data-points'));
  return out;
}

async function statusOf(page: Page): Promise<string> {
  const s = page.getByTestId('train-status');
  return `${await s.getAttribute('data-phase')}@${await s.getAttribute('data-step')}`;
}

/** Per method: the agents' step-1 entropies, from "co-rl A 0.5000 0.8123 B ... | ttrl ...". */
function firstEntropies(first: string): Record<string, string> {
  return Object.fromEntries(
    first.split(' | ').map((part) => {
      const [method, ...rest] = part.split(' ');
      return [method, rest.filter((_, i) => i % 3 === 2).join(',')];
    }),
  );
}

test('train view: a live comparison of Co-RL, TTRL and GT; pause, step, reset; screenshots', async ({
  page,
}) => {
  test.setTimeout(600_000);
  const errors = collectErrors(page);
  await page.addInitScript(() => {
    const w = window as unknown as { longTasks: number[] };
    w.longTasks = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.longTasks.push(e.duration);
    }).observe({ type: 'longtask', buffered: true });
  });
  await page.goto('/');
  await expect(page.getByRole('tab', { name: 'Train' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('preset')).toHaveValue('paper-demo');
  await expect(page.getByTestId('preset-info')).toContainText('lp-nocarry'); // read from the manifest
  for (const m of ['co-rl', 'ttrl', 'gt']) await expect(page.getByTestId(`method-${m}`)).toBeChecked();
  for (const m of ['intuitor', 'rent', 'random', 'co-rl-frozen'])
    await expect(page.getByTestId(`method-${m}`)).not.toBeChecked();
  // the distillation control is listed, and marked as a control
  await expect(page.getByTestId('method-co-rl-frozen').locator('..')).toContainText('Co-RL frozen (control)');

  // a tiny run, sized for SwiftShader
  // 1000 steps: on a fast engine the run must still be going when the test pauses it a few seconds in,
  await setHyper(page, { batchPrompts: 4, samples: 4, steps: 1000, evalEvery: 1, evalProblems: 8 });
  // and 0.25 s between lock steps: the wasm engine (what auto picks over SwiftShader) or a real GPU runs the
  // 1000 steps of this tiny run in seconds, before the pause below
  await page.getByTestId('train-speed').selectOption('250');
  const t0 = Date.now();
  const loadTasks = await page.evaluate(
    () => (window as unknown as { longTasks: number[] }).longTasks.length,
  );
  await page.getByTestId('train-start').click();
  // auto: WebGPU on a hardware adapter; on a software one whichever it measured faster, saying so
  await expect(page.getByTestId('engine')).toContainText(/WebGPU adapter|auto measured/, {
    timeout: 120_000,
  });
  console.log(`page reports: ${await page.getByTestId('engine').innerText()}`);
  for (const c of CHARTS)
    await expect(page.getByTestId(`chart-${c}`)).toHaveAttribute('data-points', /^([5-9]|[1-9]\d+)$/, {
      timeout: 400_000,
    });
  const seconds = (Date.now() - t0) / 1000;
  const atFive = await points(page);
  console.log(`>= 5 points on every chart after ${seconds.toFixed(1)} s: ${JSON.stringify(atFive)}`);

  // comparison: three methods x two agents on shared axes, from the same base agents
  const entropyChart = page.getByTestId('chart-entropy');
  await expect(entropyChart.locator('.recharts-line')).toHaveCount(6);
  await expect(page.getByTestId('chart-agreement').locator('.recharts-line')).toHaveCount(3);
  await expect(page.getByTestId('chart-heldout').locator('.recharts-line')).toHaveCount(9);
  const first = (await page.getByTestId('first-step').getAttribute('data-first-step'))!;
  console.log(`first step (reward mean, entropy per agent): ${first}`);
  const ent = firstEntropies(first);
  expect(Object.keys(ent)).toEqual(['co-rl', 'ttrl', 'gt']);
  expect(ent.ttrl, 'identical step-1 rollouts for every method').toBe(ent['co-rl']);
  expect(ent.gt).toBe(ent['co-rl']);

  // a legend entry toggles its series
  await entropyChart.getByRole('button', { name: 'TTRL A' }).click();
  await expect(entropyChart.locator('.recharts-line')).toHaveCount(5);
  await entropyChart.getByRole('button', { name: 'TTRL A' }).click();
  await expect(entropyChart.locator('.recharts-line')).toHaveCount(6);

  // pause, then exactly one more step of every method
  await page.getByTestId('train-pause').click();
  await expect(page.getByTestId('train-status')).toHaveAttribute('data-phase', 'paused', {
    timeout: 120_000,
  });
  const longest = await page.evaluate(
    (k) => (window as unknown as { longTasks: number[] }).longTasks.slice(k),
    loadTasks,
  );
  const n = Number(await page.getByTestId('train-status').getAttribute('data-step'));
  // every chart draws every step (the held-out chart also the base agents at step 0); charts redraw staggered
  const expected = Object.fromEntries(CHARTS.map((c) => [c, c === 'heldout' ? n + 1 : n]));
  await expect.poll(() => points(page), { timeout: 10_000 }).toEqual(expected);
  const before = await points(page);

  await page.screenshot({ path: docImage('train-desktop.png'), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByText('Hyperparameters', { exact: true }).click(); // folded, as a phone opens the view
  await page.waitForTimeout(400); // let the charts re-measure
  const wide = await overflowing(page);
  expect(wide, 'no element sticks out on a phone').toEqual([]);
  await page.screenshot({ path: docImage('train-phone.png'), fullPage: true });
  await page.setViewportSize({ width: 1440, height: 900 });

  await page.getByTestId('train-step').click();
  await expect.poll(() => statusOf(page), { timeout: 120_000 }).toBe(`paused@${n + 1}`);
  const more = Object.fromEntries(CHARTS.map((c) => [c, before[c] + 1]));
  await expect.poll(() => points(page), { timeout: 10_000 }).toEqual(more);
  const after = await points(page);
  await page.waitForTimeout(500);
  expect(await points(page), 'still paused').toEqual(after);

  // reset: back to the base agents and the same seed, paused at step 0; the next step is step 1 again
  await page.getByTestId('train-reset').click();
  await expect.poll(() => statusOf(page), { timeout: 120_000 }).toBe('paused@0');
  await expect(page.getByTestId('chart-entropy')).toHaveAttribute('data-points', '0');
  await expect(page.getByTestId('chart-heldout')).toHaveAttribute('data-points', '1');
  await page.getByTestId('train-step').click();
  await expect.poll(() => statusOf(page), { timeout: 120_000 }).toBe('paused@1');
  await expect(page.getByTestId('first-step')).toHaveAttribute('data-first-step', first);
  await expect(page.getByTestId('chart-entropy')).toHaveAttribute('data-points', '1');

  const max = Math.max(0, ...longest);
  console.log(
    `main-thread long tasks while training (after ${loadTasks} during the page load): ${longest.length}, longest ${max.toFixed(0)} ms, ` +
      `over 200 ms: ${longest.filter((d) => d > 200).length}, all: [${longest.map((d) => d.toFixed(0)).join(', ')}]`,
  );
  expect(errors).toEqual([]);
});
