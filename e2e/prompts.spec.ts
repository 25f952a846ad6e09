// The Train view's "RL prompts" setting (train.prompts, src/rl/unseenPrompts.ts) in real headless Chromium: a link
// sets it, a preset in the regime accepts it, and a preset whose agents pretrained on every train problem refuses it
// with the reason and keeps Start off; the default says what share of the run's prompts the agents pretrained on.
import { expect, test } from '@playwright/test';
import { collectErrors } from './util';

test("RL prompts 'unseen': accepted on a regime preset, refused with the reason where nothing is unseen", async ({
  page,
}) => {
  const errors = collectErrors(page);
  await page.goto('/?preset=regime-mulw-seed-only&prompts=unseen#train');
  await expect(page.getByTestId('hp-prompts')).toHaveValue('unseen');
  await expect(page.getByTestId('hp-prompts-help')).toContainText('outside every agent’s pretraining pool');
  await expect(page.getByTestId('hp-prompts-help')).not.toHaveClass(/error/);
  await expect(page.getByTestId('train-start')).toBeEnabled();
  await page.getByTestId('preset').selectOption('paper-demo');
  await expect(page.getByTestId('hp-prompts-help')).toHaveClass(/error/);
  await expect(page.getByTestId('hp-prompts-help')).toContainText('cover all but 0 of the train split');
  await expect(page.getByTestId('train-start')).toBeDisabled();
  if (process.env.PROMPTS_SHOT) await page.locator('.hyper').screenshot({ path: process.env.PROMPTS_SHOT });
  await page.getByTestId('hp-prompts').selectOption('train');
  await expect(page.getByTestId('train-start')).toBeEnabled();
  // the default says how many of the run's prompts the agents pretrained on: all of them here (add d2), most on mulw
  await expect(page.getByTestId('hp-prompts-help')).toContainText("100% of this run's first prompts");
  await page.getByTestId('preset').selectOption('regime-mulw-seed-only');
  await expect(page.getByTestId('hp-prompts-help')).toContainText(
    /^(6\d|7\d)% of this run's first prompts are problems its agents pretrained on/,
  );
  expect(errors).toEqual([]);
});
