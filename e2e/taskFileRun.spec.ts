// A task file as the run's task, as a user drives it (docs/tasks.md "In the page"; issue 21's acceptance):
// for EACH example file, drop it into the Compose view, see its counts and rows, pretrain a two-agent cohort
// on it in the page (the spec's recipe: at most 300 pretraining steps, through the dev-only test hook) and
// train 5 Co-RL steps on the wasm engine; then a damaged copy (a bad line, a duplicate, binary bytes) is
// refused with every problem and its line while the page keeps what it had; a link to the run names the
// file and, opened where the file is not loaded, says what is missing until the file is dropped; the run
// file carries the file's text (without it, it is refused naming the file).
import { readFileSync } from 'node:fs';
import { test, expect, type Page } from '@playwright/test';
import { collectErrors, setHyper } from './util';

/** The pretraining budget of this spec (each agent): at most 300 steps, as the acceptance asks. */
const RECIPE = { maxSteps: 150, stop: 'budget', evalEvery: 75, valSize: 16, bandSamples: 1, batch: 8 };
const STEPS = 5;

const EXAMPLES = [
  {
    file: 'letters.csv',
    normalize: 'exact',
    counts:
      'letters.csv: 22,000 rows; train 15,244 (7,672 for pretraining, 7,572 RL prompts only), validation 2,236, test 4,520; answers compared exact',
    rows: ['gffjxl>', 'ffgjlx'],
  },
  {
    file: 'expressions.jsonl',
    normalize: 'numeric',
    counts:
      'expressions.jsonl: 22,300 rows; train 15,582 (7,757 for pretraining, 7,825 RL prompts only), validation 2,249, test 4,469; answers compared numeric',
    rows: ['4-2='],
  },
] as const;

/** Drop a file (as a DataTransfer of one File, its bytes sent as latin-1 text) on the task file box. */
async function dropFile(page: Page, name: string, bytes: Buffer): Promise<void> {
  const dt = await page.evaluateHandle(
    ({ name, data }) => {
      const t = new DataTransfer();
      t.items.add(new File([Uint8Array.from(data, (c) => c.charCodeAt(0))], name));
      return t;
    },
    { name, data: bytes.toString('latin1') },
  );
  await page.getByTestId('task-file-drop').dispatchEvent('drop', { dataTransfer: dt });
}

/** The page after a visit: manifest read, a small run (co-rl only, wasm), the natural preset's two agents. */
async function compose(page: Page): Promise<void> {
  await page.goto('/');
  await expect(page.getByTestId('preset-info')).toContainText('lp-nocarry'); // the manifest is read
  await setHyper(page, { batchPrompts: 2, samples: 2, steps: STEPS, evalEvery: 0, evalProblems: 8 });
  await page.getByTestId('method-ttrl').uncheck();
  await page.getByTestId('method-gt').uncheck();
  await page.getByTestId('backend').selectOption('wasm');
  await page.getByTestId('preset').selectOption('natural-addw-different-arch');
  await page.getByTestId('cohort-mode').getByLabel('Compose').check();
  await page.getByTestId('start-from-preset').click(); // R: nat-rope.s, D: nat-deep.s, pretrained here
  await expect(page.getByTestId('agent-row')).toHaveCount(2);
}

test('each example file: dropped, pretrained in the page and trained 5 Co-RL steps; a damaged copy is refused and the page keeps its task', async ({
  page,
  browser,
}) => {
  test.setTimeout(420_000);
  const errors = collectErrors(page);
  await page.addInitScript((r) => {
    (window as unknown as Record<string, unknown>).__CORL_TEST_PRETRAIN_RECIPE__ = r;
  }, RECIPE);
  await compose(page);
  const status = page.getByTestId('train-status');

  for (const ex of EXAMPLES) {
    await page.getByTestId('task-file-normalize').selectOption(ex.normalize);
    await dropFile(page, ex.file, readFileSync(`examples/tasks/${ex.file}`));
    await expect(page.getByTestId('task-file-counts')).toContainText(ex.counts);
    for (const r of ex.rows) await expect(page.getByTestId('task-file-rows')).toContainText(r);
    await expect(page.getByTestId('compose-task')).toHaveValue('file');
    await expect(page.getByTestId('compose-task').locator('option:checked')).toHaveText(`file: ${ex.file}`);
    await expect(page.getByTestId('agents-problem')).toHaveCount(0);
    await expect(page.getByTestId('train-start')).toBeEnabled();

    const t0 = Date.now();
    await page.getByTestId('train-start').click();
    await expect(status).toHaveAttribute('data-phase', 'done', { timeout: 240_000 });
    const seconds = (Date.now() - t0) / 1000;
    await expect(status).toHaveAttribute('data-step', String(STEPS));
    // the step counter and the metrics really advanced: one point per lock step on each step chart
    for (const c of ['agreement', 'entropy', 'reward-std'])
      await expect(page.getByTestId(`chart-${c}`)).toHaveAttribute('data-points', String(STEPS));
    await expect(page.getByTestId('chart-heldout')).toHaveAttribute('data-points', '2'); // base and final
    // both agents were pretrained here on the file (the budget stop keeps the final or an earlier validation);
    // the agents' notices only: with 3 or more cores the pool adds a line of its own (pool.spec checks it)
    const notes = (await page.getByTestId('build-notice').allInnerTexts()).filter((n) => /^\w+: /.test(n));
    expect(notes).toEqual([
      expect.stringMatching(/^R: nat-rope\.s seed 1, plain view: pretrained here in [\d.]+ s \(\d+ steps, /),
      expect.stringMatching(/^D: nat-deep\.s seed 1, plain view: pretrained here in [\d.]+ s \(\d+ steps, /),
    ]);
    for (const t of notes) expect(Number(/\((\d+) steps/.exec(t)![1])).toBeLessThanOrEqual(RECIPE.maxSteps);
    console.log(
      `${ex.file}: drop, pretrain 2 agents x 150 steps, ${STEPS} co-rl steps: ${seconds.toFixed(1)} s`,
    );
  }
  await page.locator('.cohort').screenshot({ path: 'test-results/task-file-run.png' });
  // the regime check of the same base agents on the file's validation rows (the worker gets the file too)
  await page.getByTestId('regime-problems').fill('50');
  await page.getByTestId('regime-check').click();
  await expect(page.getByTestId('regime-panel')).toHaveAttribute('data-phase', 'done', { timeout: 60_000 });
  await expect(page.getByTestId('regime-agents')).toContainText('R');

  // a damaged copy of expressions.jsonl: a bad line, line 5 repeated, binary bytes; refused, nothing changes
  const lines = readFileSync('examples/tasks/expressions.jsonl', 'utf8').trimEnd().split('\n');
  const damaged = Buffer.concat([
    Buffer.from(`${[...lines, '{"prompt": "1+2=", "answer": 3', lines[4]].join('\n')}\n`),
    Buffer.from([0x7b, 0x00, 0x01, 0x02, 0x0a]),
  ]);
  await dropFile(page, 'expressions-damaged.jsonl', damaged);
  const problems = page.getByTestId('task-file-problems');
  await expect(problems).toContainText(
    'expressions-damaged.jsonl: 4 problems; nothing was loaded (expressions.jsonl stays loaded)',
  );
  const n = lines.length;
  await expect(problems.locator('li')).toHaveText([
    new RegExp(`^line ${n + 1}: not JSON \\(.*\\); each line must be one object like `),
    `line ${n + 2}: prompt: duplicates the prompt of line 5 (every prompt must be unique)`,
    `line ${n + 2}: id: duplicates the id of line 5`,
    `line ${n + 3}: not text: it holds NUL bytes (is this a binary file?)`,
  ]);
  // the page keeps what it had: the task, the file, the finished run's records, Start
  await expect(page.getByTestId('task-file-counts')).toContainText(EXAMPLES[1].counts);
  await expect(page.getByTestId('compose-task').locator('option:checked')).toHaveText(
    'file: expressions.jsonl',
  );
  await expect(status).toHaveAttribute('data-step', String(STEPS));
  await expect(page.getByTestId('chart-entropy')).toHaveAttribute('data-points', String(STEPS));
  await expect(page.getByTestId('train-start')).toBeEnabled();
  await page.locator('.cohort').screenshot({ path: 'test-results/task-file-refused.png' });

  // the run file carries the file's text; a link carries its name and hash, not its rows
  const [dl] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-json').click()]);
  const runFile = JSON.parse(readFileSync((await dl.path())!, 'utf8'));
  expect(runFile.taskFile.text.length).toBeGreaterThan(1_000_000);
  const link = page.url();
  expect(link).toContain('customTask=file');
  const missing =
    /^the task file expressions\.jsonl \(hash [0-9a-f]{16}\.\.\., answers compared numeric\) is not loaded in this page: a link carries only its name and hash, not its rows; drop or pick expressions\.jsonl/;
  const otherErrors: string[][] = [];
  const elsewhere = async () => {
    const ctx = await browser.newContext(); // another browser profile: nothing of this page's
    const other = await ctx.newPage();
    otherErrors.push(collectErrors(other));
    await other.goto(link);
    await expect(other.getByTestId('cohort-mode')).toHaveAttribute('data-mode', 'custom');
    await expect(other.getByTestId('task-file-missing')).toContainText(missing);
    await expect(other.getByTestId('train-start')).toBeDisabled();
    return { ctx, other };
  };
  // opened elsewhere, the link says what is missing until the file is dropped there
  const a = await elsewhere();
  await a.other.getByTestId('task-file-input').setInputFiles('examples/tasks/expressions.jsonl');
  await expect(a.other.getByTestId('task-file-missing')).toHaveCount(0);
  await expect(a.other.getByTestId('train-start')).toBeEnabled();
  await a.ctx.close();
  // a run file without the text is refused naming the file; the whole run file brings it
  const b = await elsewhere();
  const importRun = (name: string, json: unknown) =>
    b.other.getByTestId('import-run').setInputFiles({
      name,
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify(json)),
    });
  await importRun('stripped.json', { ...runFile, taskFile: undefined });
  await expect(b.other.getByTestId('import-error')).toContainText(
    'taskFile: this run trained on the task file "expressions.jsonl"',
  );
  await importRun('run.json', runFile);
  await expect(b.other.getByTestId('import-error')).toHaveCount(0);
  await expect(b.other.getByTestId('task-file-counts')).toContainText(EXAMPLES[1].counts);
  await expect(b.other.getByTestId('task-file-missing')).toHaveCount(0);
  await expect(b.other.getByTestId('train-start')).toBeEnabled();
  await b.ctx.close();
  expect(otherErrors.flat()).toEqual([]);
  expect(errors).toEqual([]);
});
