// In-page pretraining in the pool of model workers (issue 20; real headless Chromium, wasm engine, a tiny
// recipe through the dev-only test hook): a natural preset with two distinct builds
// (natural-addw-different-arch) pretrained with 2 workers runs the rungs of its agents' corpus ladders in the
// training worker and a model worker (the notices say where) and stores the same bytes in the page's IndexedDB
// cache as the same builds with 1 worker; a
// shipped preset's "Pretrain here" builds in the pool too and trains to the records of its 1-worker run.
import { test, expect, type Page } from '@playwright/test';
import { pageCacheHashes as cacheEntries } from '../src/bench/pageCache';
import { collectErrors, setHyper } from './util';

const TINY = { maxSteps: 2, evalEvery: 1, valSize: 4, bandSamples: 1, batch: 8, corpusLadder: [20, 30] };

async function pretrainAndRun(page: Page, workers: number): Promise<string[]> {
  await page.goto(`/?backend=wasm&workers=${workers}`);
  await setHyper(page, { batchPrompts: 2, samples: 2, steps: 2, evalEvery: 0, evalProblems: 4 });
  await page.getByTestId('method-ttrl').uncheck();
  await page.getByTestId('method-gt').uncheck();
  await page.getByTestId('preset').selectOption('natural-addw-different-arch');
  await page.getByTestId('train-start').click();
  await expect(page.getByTestId('train-status')).toHaveAttribute('data-phase', 'done', { timeout: 150_000 });
  await expect(page.getByTestId('train-status')).toHaveAttribute('data-step', '2');
  // the bar shows the whole run done by a scale, and moved with no eased transition on the way (an eased
  // width laid the page out every frame, taking a core's tenth from the builds: RunControls.tsx barFill)
  expect(
    await page.evaluate(() => (window as unknown as { __barTransitions: number }).__barTransitions),
  ).toBe(0);
  await expect(page.locator('.bar .fill')).toHaveAttribute('style', /transform: scaleX\(1\)/);
  return page.getByTestId('build-notice').allInnerTexts();
}

test('a two-build natural preset pretrains in this worker and a model worker to the bytes of 1 worker', async ({
  page,
}) => {
  test.setTimeout(360_000);
  const errors = collectErrors(page);
  await page.addInitScript((r) => {
    const w = window as unknown as Record<string, unknown>;
    w.__CORL_TEST_PRETRAIN_RECIPE__ = r;
    w.__barTransitions = 0;
    document.addEventListener('transitionrun', (e) => {
      if ((e.target as Element).closest?.('.bar')) w.__barTransitions = (w.__barTransitions as number) + 1;
    });
  }, TINY);
  // a fresh browser context: an empty cache
  const two = await pretrainAndRun(page, 2);
  expect(two[0]).toMatch(
    /^The 2 base agents to pretrain are built side by side in this worker and 1 model worker \(wasm(-relaxed)?\)\.$/,
  );
  // each build's rungs ran where a builder was free: every notice says where, and the model worker ran some
  const where =
    / as build \w+-wasm(-relaxed)? \((built in (this worker|model worker 0)|its rungs ran in this worker and model worker 0)\)$/;
  const built = ['R: nat-rope.s', 'D: nat-deep.s'].map((who) =>
    two.find((n) => n.startsWith(`${who} seed 1, plain view: pretrained here in `)),
  );
  for (const n of built) expect(n, two.join(' | ')).toMatch(where);
  expect(built.some((n) => n!.includes('model worker 0'))).toBe(true);
  const pooled = await cacheEntries(page, true);
  expect(Object.keys(pooled)).toHaveLength(2);

  const one = await pretrainAndRun(page, 1);
  expect(one.join('\n')).not.toContain('model worker');
  expect(one.filter((n) => / plain view: pretrained here in /.test(n))).toHaveLength(2);
  expect(await cacheEntries(page, false)).toEqual(pooled);
  expect(errors).toEqual([]);
});

type Metrics = {
  methods: string[];
  steps: Record<string, Record<string, unknown>[]>;
  evals: Record<string, Record<string, unknown>[]>;
};
/** The run's records without their wall-clock fields, as one JSON text. */
const runRecords = (page: Page): Promise<string> =>
  page.evaluate(() => {
    const m = (window as unknown as { __corl: { metrics(): Metrics } }).__corl.metrics();
    return JSON.stringify(
      m.methods.map((k) => [
        (m.steps[k] ?? []).map((r) => ({ ...r, timing: null })),
        (m.evals[k] ?? []).map((r) => ({ ...r, seconds: 0 })),
      ]),
    );
  });

async function pretrainShipped(page: Page, workers: number): Promise<{ notices: string[]; records: string }> {
  await page.goto(`/?backend=wasm&workers=${workers}&preset=paper-demo&pretrainHere=true`);
  await expect(page.getByTestId('pretrain-here')).toBeChecked();
  await setHyper(page, { batchPrompts: 2, samples: 2, steps: 2, evalEvery: 2, evalProblems: 4 });
  await page.getByTestId('method-gt').uncheck();
  await page.getByTestId('train-start').click();
  await expect(page.getByTestId('train-status')).toHaveAttribute('data-phase', 'done', { timeout: 150_000 });
  await expect(page.getByTestId('train-status')).toHaveAttribute('data-step', '2');
  return { notices: await page.getByTestId('build-notice').allInnerTexts(), records: await runRecords(page) };
}

test("a shipped preset's Pretrain here builds its agents in this worker and a model worker, to the run of 1 worker", async ({
  page,
}) => {
  test.setTimeout(300_000);
  const errors = collectErrors(page);
  await page.addInitScript(() => {
    // the shipped presets' recipe, cut to a few steps (the same hook as above)
    (window as unknown as Record<string, unknown>).__CORL_TEST_PRETRAIN_RECIPE__ = {
      maxSteps: 4,
      evalEvery: 2,
      valSize: 8,
    };
  });
  const two = await pretrainShipped(page, 2);
  expect(
    two.notices.some((n) =>
      /^The 2 base agents to pretrain are built side by side in this worker and 1 model worker \(wasm(-relaxed)?\)\.$/.test(
        n,
      ),
    ),
  ).toBe(true);
  const one = await pretrainShipped(page, 1);
  expect(one.notices.join('\n')).not.toContain('model worker');
  // the same base agents (bytes): the same two lock steps and evaluations, record for record
  expect(two.records).toBe(one.records);
  expect(JSON.parse(one.records).length).toBeGreaterThan(0);
  expect(errors).toEqual([]);
});
