// The "Config (JSON)" editor as a user meets it (real headless Chromium): it shows the run settings as JSON
// and follows them while unedited; a valid edit applies (the fields and the URL follow); a bad edit is
// refused whole with every problem named and nothing changed; a syntax error gives its line and column;
// markup in a value is refused and shown as literal text, never as an element.
import { test, expect, type Page } from '@playwright/test';
import { collectErrors } from './util';

const editorJson = async (page: Page) =>
  JSON.parse(await page.getByTestId('config-editor').inputValue()) as Record<string, unknown>;

test('the config editor: apply, refuse whole, stay in sync, text only', async ({ page }) => {
  const errors = collectErrors(page);
  await page.goto('/#train');
  await page.locator('[data-testid="config-panel"] > summary').click();
  const editor = page.getByTestId('config-editor');
  await expect(editor).toBeVisible();
  expect((await editorJson(page)).steps).toBe(200);
  await expect(page.getByTestId('config-revert')).toBeDisabled();

  // unedited, the text follows the settings changed elsewhere
  await page.getByTestId('hp-samples').fill('3');
  await expect.poll(async () => (await editorJson(page)).samples).toBe(3);

  // a valid edit applies: the field, the URL
  const edit = { ...(await editorJson(page)), steps: 7 };
  await editor.fill(JSON.stringify(edit, null, 2));
  await expect(page.getByTestId('config-state')).toHaveText('edited — Apply or Reset');
  await page.getByTestId('config-apply').click();
  await expect(page.getByTestId('hp-steps')).toHaveValue('7');
  await expect.poll(() => new URL(page.url()).searchParams.get('steps')).toBe('7');
  expect(new URL(page.url()).searchParams.get('samples')).toBe('3');
  await expect(page.getByTestId('config-note')).toContainText('steps changed');
  await expect(page.getByTestId('config-state')).not.toHaveText(/edited/);
  await expect(page.getByTestId('config-errors')).toHaveCount(0);

  // a bad edit is refused whole: every problem listed, nothing changed, the text kept
  const bad = '{"steps": -1, "bogus": 1}';
  await editor.fill(bad);
  await page.getByTestId('config-apply').click();
  const list = page.getByTestId('config-errors');
  await expect(list).toBeVisible();
  await expect(list.locator('li')).toHaveCount(2);
  await expect(list.locator('li').nth(0)).toContainText('steps: must be an integer in [1, 1000000], got -1');
  await expect(list.locator('li').nth(1)).toContainText(
    'bogus: unknown setting; run settings are preset, methods, steps',
  );
  await expect(page.getByTestId('hp-steps')).toHaveValue('7');
  await expect(page.getByTestId('hp-samples')).toHaveValue('3');
  expect(new URL(page.url()).searchParams.get('steps')).toBe('7');
  await expect(editor).toHaveValue(bad);
  await expect(page.getByTestId('config-state')).toHaveText('edited — Apply or Reset');

  // with unsaved edits the text stays as typed when the settings change elsewhere
  await page.getByTestId('hp-samples').fill('4');
  await expect(page.getByTestId('hp-samples')).toHaveValue('4');
  await expect(editor).toHaveValue(bad);

  // a syntax error: line and column
  await editor.fill('{\n  "steps": 7,\n  "lr": 0.1,\n}');
  await page.getByTestId('config-apply').click();
  await expect(list.locator('li')).toHaveCount(1);
  await expect(list.locator('li').first()).toContainText(/^not valid JSON: .*line 4,? column 1/);

  // markup in a name-like field: refused, shown as literal text, no element made
  const markup = '<img src=x onerror=alert(1)>';
  let dialogs = 0;
  page.on('dialog', (d) => {
    dialogs++;
    void d.dismiss();
  });
  await editor.fill(JSON.stringify({ ...edit, samples: 4, preset: markup }));
  await page.getByTestId('config-apply').click();
  await expect(list.locator('li')).toHaveCount(1);
  await expect(list.locator('li').first()).toHaveText(
    new RegExp(`^preset: unknown preset "${markup.replace(/[()]/g, '\\$&')}"; available: `),
  );
  await expect(list.locator('img')).toHaveCount(0);
  expect(await page.locator('img[src="x"]').count()).toBe(0);
  expect(dialogs).toBe(0);

  // Reset to current: the settings' JSON again, the problems gone
  await page.getByTestId('config-revert').click();
  await expect(list).toHaveCount(0);
  const back = await editorJson(page);
  expect(back.steps).toBe(7);
  expect(back.samples).toBe(4);
  expect(back.preset).toBe('paper-demo');
  expect(errors).toEqual([]);
});
