// The presets in the regime as a user finds them: each is offered under "In the regime", and choosing it
// shows its level, that every gate passed (with the figures of its committed read, checked against that read
// in src/cohort/regimePresets.test.ts), the rule's yield over unseen seeds, and either its registered test's
// verdict or, before the test has run, where it is registered and that nothing is claimed yet
// (docs/regime-levels.md). The card fits a phone.
import { test, expect } from '@playwright/test';
import { archOverrideText } from '../src/cohort/archText';
import { REGIME_CANDIDATES } from '../src/cohort/regimePresets';
import { collectErrors, docImage, overflowing } from './util';

const IN_REGIME = Object.values(REGIME_CANDIDATES).filter((p) => p.candidate?.inRegime);

test('every preset in the regime shows its gates passed, its rule and its verdict or registration', async ({
  page,
}) => {
  expect(IN_REGIME.length).toBeGreaterThan(1);
  const errors = collectErrors(page);
  await page.goto('/');
  const offered = await page
    .getByTestId('regime-presets')
    .locator('option')
    .evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
  expect(offered.sort()).toEqual(IN_REGIME.map((p) => p.name).sort());
  for (const p of IN_REGIME) {
    await page.getByTestId('preset').selectOption(p.name);
    const card = page.getByTestId('preset-info');
    await expect(card).toContainText(`In the regime, ${p.level}:`);
    await expect(page.getByTestId('natural-candidate')).toContainText(p.candidate!.gates);
    await expect(page.getByTestId('natural-candidate')).toContainText(p.candidate!.rule!);
    if (p.candidate!.verdict)
      await expect(page.getByTestId('natural-verdict')).toContainText(p.candidate!.verdict);
    else {
      await expect(page.getByTestId('natural-verdict')).toContainText('has no verdict yet');
      await expect(page.getByTestId('natural-verdict')).toContainText(p.candidate!.prereg!);
    }
    for (const a of p.agents)
      await expect(card).toContainText(`${a.id} ${a.family}.${a.size}${archOverrideText(a.arch)} seed`);
    await expect(card).toContainText(`seed ${p.agents[p.agents.length - 1].seed}`);
  }
  await page.getByTestId('preset').selectOption('regime-muladdw-same-family');
  await page.setViewportSize({ width: 390, height: 900 });
  expect(await overflowing(page, '[data-testid="preset-info"]')).toEqual([]);
  await page.getByTestId('preset-info').screenshot({ path: docImage('regime-level-card.png') });
  expect(errors).toEqual([]);
});
