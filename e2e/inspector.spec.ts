// The inspector as a user sees it (real headless Chromium, WebGPU in the training worker): after a tiny
// Co-RL + GT run, every prompt of the latest step shows K completions per agent, and each reward is 1
// exactly when the answer equals the label the agent was trained on (Co-RL: its predecessor's vote,
// GT: the truth); the attention heatmap draws with the agent's head count and hover values.
import { test, expect, type Locator, type Page } from '@playwright/test';
import { collectErrors, setHyper, docImage } from './util';

const K = 3;
const B = 2;
// paper-demo: A is lp-nocarry (2 blocks, 4 heads), B is rope-carry (1 block, 4 heads); see src/cohort/families.ts
const SHAPES: Record<string, { layers: number; heads: number }> = {
  A: { layers: 2, heads: 4 },
  B: { layers: 1, heads: 4 },
};

type Row = { answer: string; reward: string; label: string };
async function rows(agent: Locator): Promise<Row[]> {
  return agent.getByTestId('inspector-row').evaluateAll((els) =>
    els.map((e) => ({
      answer: e.getAttribute('data-answer') ?? '',
      reward: e.getAttribute('data-reward') ?? '',
      label: e.getAttribute('data-label') ?? '',
    })),
  );
}

/** Every prompt of the method shown: K rows per agent, rewards 1 exactly when answer = label, labels as `labelOf` says. */
async function checkPrompts(
  page: Page,
  labelOf: (agent: string, votes: Record<string, string>, truth: string) => string,
): Promise<number> {
  const options = await page
    .getByTestId('inspector-prompt')
    .locator('option')
    .evaluateAll((o) => o.map((x) => (x as HTMLOptionElement).value));
  expect(options).toHaveLength(B);
  let ones = 0;
  for (const v of options) {
    await page.getByTestId('inspector-prompt').selectOption(v);
    const truth = (await page.getByTestId('inspector-header').getAttribute('data-truth'))!;
    const votes: Record<string, string> = {};
    for (const id of ['A', 'B'])
      votes[id] = (await page.getByTestId(`inspector-agent-${id}`).getAttribute('data-vote'))!;
    for (const id of ['A', 'B']) {
      const sec = page.getByTestId(`inspector-agent-${id}`);
      const label = (await sec.getAttribute('data-label'))!;
      expect(label, `agent ${id}'s trained label, prompt ${v}`).toBe(labelOf(id, votes, truth));
      const rs = await rows(sec);
      expect(rs).toHaveLength(K);
      for (const r of rs) {
        expect(r.label).toBe(label);
        expect(r.reward, `reward of answer "${r.answer}" against label "${label}"`).toBe(
          r.answer !== '' && r.answer === label ? '1' : '0',
        );
        if (r.reward === '1') ones++;
      }
    }
  }
  return ones;
}

test('inspector: K completions per agent, rewards agree with the labels shown, attention heatmap', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const errors = collectErrors(page);
  await page.goto('/');
  await expect(page.getByTestId('preset')).toHaveValue('paper-demo');
  await setHyper(page, { batchPrompts: B, samples: K, steps: 3, evalEvery: 0, evalProblems: 4 });
  await page.getByTestId('method-ttrl').uncheck();
  const t0 = Date.now();
  await page.getByTestId('train-start').click();
  await expect(page.getByTestId('train-status')).toHaveAttribute('data-step', /^[1-9]/, { timeout: 90_000 }); // fast runs skip past 1 between polls
  const t1 = Date.now();
  await expect(page.getByTestId('train-status')).toHaveAttribute('data-phase', 'done', { timeout: 90_000 });
  console.log(
    `tiny run: first step after ${((t1 - t0) / 1000).toFixed(1)} s, done after ${((Date.now() - t0) / 1000).toFixed(1)} s`,
  );

  await page.getByTestId('inspector-toggle').click();
  await expect(page.getByTestId('inspector-step')).toHaveAttribute('data-step', '3');
  await expect(page.getByTestId('inspector-method')).toHaveValue('co-rl');
  // co-rl with N = 2: each agent is trained on the other's vote
  const coOnes = await checkPrompts(page, (id, votes) => votes[id === 'A' ? 'B' : 'A']);

  await page.getByTestId('inspector-method').selectOption('gt');
  await expect(page.getByTestId('inspector-step')).toHaveAttribute('data-step', '3');
  const gtOnes = await checkPrompts(page, (_id, _votes, truth) => truth);
  console.log(`rewards of 1 at step 3: co-rl ${coOnes}, gt ${gtOnes} of ${2 * B * K} completions each`);

  // the attention heatmap of a chosen completion, per agent with its own blocks and heads
  const map = page.getByTestId('attention-map');
  for (const id of ['A', 'B']) {
    await page.getByTestId('attention-agent').selectOption(id);
    await page.getByTestId('attention-sample').selectOption('2');
    await expect(page.getByTestId('attention-layer').locator('option')).toHaveCount(SHAPES[id].layers);
    await expect(page.getByTestId('attention-head').locator('option')).toHaveCount(SHAPES[id].heads);
    await page.getByTestId('attention-layer').selectOption(String(SHAPES[id].layers - 1));
    await expect(map).toHaveAttribute('data-current', 'true', { timeout: 30_000 });
    await expect(map).toHaveAttribute('data-agent', id);
    await expect(map).toHaveAttribute('data-heads', String(SHAPES[id].heads));
    await expect(map).toHaveAttribute('data-layer', String(SHAPES[id].layers - 1));
    // the map covers the prompt and that completion: as many tokens as their characters
    const row = page.getByTestId(`inspector-agent-${id}`);
    const text =
      (await row.locator('h4 code').innerText()) +
      (await row.getByTestId('inspector-row').nth(2).locator('code').innerText());
    await expect(map).toHaveAttribute('data-tokens', String(text.length));
  }
  await page.getByTestId('attention-head').selectOption('3');
  const canvas = map.locator('canvas');
  const inked = await canvas.evaluate((c) => {
    const cv = c as HTMLCanvasElement;
    const d = cv.getContext('2d')!.getImageData(0, 0, cv.width, cv.height).data;
    let blue = 0;
    for (let i = 0; i < d.length; i += 4) if (d[i + 2] > d[i] + 40) blue++;
    return blue;
  });
  expect(inked, 'coloured cells drawn').toBeGreaterThan(50);
  const box = (await canvas.boundingBox())!;
  await canvas.hover({ position: { x: box.width - 4, y: box.height - 4 } }); // the last query row, last key: itself
  await expect(page.getByTestId('attention-hover')).toContainText('→ key');
  // the docs' pictures of the inspector: desktop (1440x900) and a 390-wide phone
  await page.getByTestId('inspector').screenshot({ path: docImage('inspector-desktop.png') });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByTestId('inspector').scrollIntoViewIfNeeded();
  await page.getByTestId('inspector').screenshot({ path: docImage('inspector-phone.png') });
  await page.setViewportSize({ width: 1440, height: 900 });
  expect(errors).toEqual([]);
});
