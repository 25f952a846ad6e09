// The Cohort panel's task file (docs/tasks.md "Bring your own task") as a user drives it: Compose -> pick
// examples/tasks/letters.csv (its counts, rows and vocabulary) -> drop examples/tasks/expressions.jsonl
// compared numerically -> a damaged copy (a duplicate, an unclosed quote, NUL bytes) is refused with every
// problem and its line, and the file loaded before stays. Pretraining and training on a dropped file:
// e2e/taskFileRun.spec.ts.
import { readFileSync } from 'node:fs';
import { test, expect } from '@playwright/test';
import { collectErrors } from './util';

test('a task file: picked, dropped, and a damaged copy refused with every problem while the page keeps the last one', async ({
  page,
}) => {
  const errors = collectErrors(page);
  await page.goto('/');
  await page.getByTestId('cohort-mode').getByLabel('Compose').check();

  await page.getByTestId('task-file-input').setInputFiles('examples/tasks/letters.csv');
  const counts = page.getByTestId('task-file-counts');
  await expect(counts).toContainText(
    'letters.csv: 22,000 rows; train 15,244 (7,672 for pretraining, 7,572 RL prompts only), validation 2,236, test 4,520',
  );
  await expect(page.getByTestId('task-file-rows')).toContainText('gffjxl>');
  await expect(page.getByTestId('task-file-rows')).toContainText('ffgjlx');
  // '#', '>', a-z and the prompt pad
  await expect(page.getByTestId('task-file-vocabulary')).toContainText(
    'Vocabulary: 29 characters + PAD, BOS, EOS',
  );

  await page.getByTestId('task-file-normalize').selectOption('numeric');
  const expressions = readFileSync('examples/tasks/expressions.jsonl');
  const drop = await page.evaluateHandle((text) => {
    const dt = new DataTransfer();
    dt.items.add(new File([text], 'expressions.jsonl', { type: 'application/json' }));
    return dt;
  }, expressions.toString('utf8'));
  await page.getByTestId('task-file-drop').dispatchEvent('drop', { dataTransfer: drop });
  await expect(counts).toContainText('expressions.jsonl: 22,300 rows');
  await expect(counts).toContainText('answers compared numeric');
  await expect(page.getByTestId('task-file-rows')).toContainText('4-2=');

  await page.getByTestId('task-file-normalize').selectOption('exact');
  // a damaged copy of letters.csv: line 5 repeated at the end, an unclosed quote, NUL bytes
  const lines = readFileSync('examples/tasks/letters.csv', 'utf8').trimEnd().split('\n');
  const damaged = Buffer.concat([
    Buffer.from(`${[...lines, lines[4], 'abc>,"ab,w99999'].join('\n')}\n`),
    Buffer.from([0x78, 0x00, 0x79, 0x3e, 0x2c, 0x78, 0x79, 0x0a]),
  ]);
  await page
    .getByTestId('task-file-input')
    .setInputFiles({ name: 'letters-damaged.csv', mimeType: 'text/csv', buffer: damaged });
  const problems = page.getByTestId('task-file-problems');
  await expect(problems).toContainText(
    'letters-damaged.csv: 4 problems; nothing was loaded (expressions.jsonl stays loaded)',
  );
  await expect(problems.locator('li')).toHaveText([
    'line 22002: prompt: duplicates the prompt of line 5 (every prompt must be unique)',
    'line 22002: id: duplicates the id of line 5',
    'line 22003: not CSV: a quoted field is not closed (a field cannot hold a line break; close the quote)',
    'line 22004: not text: it holds NUL bytes (is this a binary file?)',
  ]);
  await expect(counts).toContainText('expressions.jsonl: 22,300 rows'); // the page keeps what it had
  expect(errors).toEqual([]);
});
