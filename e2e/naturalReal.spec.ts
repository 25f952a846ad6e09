// OPT-IN (CORL_REAL_BUILD=1, about 100 s of one core): the natural-addw-seed-only preset built in the page
// with the real NATURAL_RECIPE (no test hook) on the wasm engine, checked byte for byte against the Node
// cache's entry of the same key (`npm run pretrain -- --config experiments/natural-rl/addw-seed-only.json`
// with the wasm engine records "106928 6595e6d8"; the file itself is compared when CORL_CACHE_DIR has it).
// Skipped without the variable, and then counts for nothing.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, expect } from '@playwright/test';
import { setHyper } from './util';

const KEY = '7a10444b8524055c-wasm'; // buildKey(nat-rope.s seed 1, addw digits 3) + the wasm tag
const NODE_SUM = '106928 6595e6d8';

const fnv = (b: Uint8Array): string => {
  let h = 0x811c9dc5;
  for (const x of b) h = Math.imul(h ^ x, 0x01000193) >>> 0;
  return h.toString(16).padStart(8, '0');
};

test('a natural preset built in the page with the real recipe equals the Node cache entry', async ({
  page,
}) => {
  test.skip(!process.env.CORL_REAL_BUILD, 'opt-in: set CORL_REAL_BUILD=1 (about 100 s)');
  test.setTimeout(1_200_000);
  await page.goto('/');
  await expect(page.getByTestId('preset-info')).toContainText('lp-nocarry');
  await setHyper(page, { batchPrompts: 2, samples: 2, steps: 1, evalEvery: 0, evalProblems: 4 });
  await page.getByTestId('backend').selectOption('wasm');
  await page.getByTestId('preset').selectOption('natural-addw-seed-only');
  const t0 = Date.now();
  await page.getByTestId('train-start').click();
  await expect(page.getByTestId('train-status')).toHaveAttribute('data-phase', 'done', {
    timeout: 1_150_000,
  });
  console.log(`first start (build + 1 step): ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  const notice = (await page.getByTestId('build-notice').allInnerTexts()).join('\n');
  console.log(notice);
  expect(notice).toContain(`as build ${KEY}`);
  const bytes = await page.evaluate(async (key) => {
    const db = await new Promise<IDBDatabase>((res, rej) => {
      const r = indexedDB.open('corl-checkpoint-cache');
      r.onsuccess = () => res(r.result);
      r.onerror = () => rej(r.error);
    });
    const v = await new Promise<{ bytes: Uint8Array }>((res, rej) => {
      const r = db.transaction('builds').objectStore('builds').get(key);
      r.onsuccess = () => res(r.result);
      r.onerror = () => rej(r.error);
    });
    return Array.from(v.bytes);
  }, KEY);
  const page8 = new Uint8Array(bytes);
  expect(`${page8.length} ${fnv(page8)}`).toBe(NODE_SUM);
  const file = join(process.env.CORL_CACHE_DIR ?? '.cache/checkpoints', `${KEY}.ckpt`);
  if (existsSync(file)) expect(Buffer.from(page8).equals(readFileSync(file))).toBe(true);
});
