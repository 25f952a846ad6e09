// IndexedDB saves are atomic (issue 7): a run and its snapshot are written in one transaction, so a save
// that fails part-way (here: the snapshot cannot be stored after the run record was already queued) leaves
// the previously saved run, its snapshot and the last-run pointer exactly as they were.
import { test, expect } from '@playwright/test';
import { collectErrors } from './util';

test('a save that fails half-way keeps the previous run and snapshot whole', async ({ page }) => {
  const errors = collectErrors(page);
  await page.goto('/#help'); // any page of the app: the module is imported from the dev server
  const r = await page.evaluate(async () => {
    const url = '/src/store/persist.ts'; // served by the dev server (a page path, not a Node import)
    const p = (await import(url)) as typeof import('../src/store/persist');
    const key = `atomic-${Date.now()}`;
    const run = (name: string, step: number) =>
      ({
        format: 'co-rl-playground-run',
        version: 1,
        name,
        savedAt: new Date(2026, 0, step).toISOString(),
        step,
      }) as never;
    const snapA = new Uint8Array([1, 2, 3, 4, 5]).buffer;
    await p.saveRun(key, run('A', 5), snapA);
    let error = '';
    try {
      // the run record is put first; the snapshot put then throws (a function cannot be stored)
      await p.saveRun(key, run('B', 9), (() => 0) as unknown as ArrayBuffer);
    } catch (e) {
      error = `${(e as Error).name}: ${(e as Error).message}`;
    }
    const back = await p.loadRun(key);
    const last = await p.lastRun();
    await p.deleteRun(key);
    return {
      error,
      name: (back?.run as { name?: string } | undefined)?.name,
      step: (back?.run as { step?: number } | undefined)?.step,
      snapshot: back?.snapshot ? [...new Uint8Array(back.snapshot)] : null,
      lastKey: last?.key,
      lastSavedAt: last?.savedAt,
      savedAtA: new Date(2026, 0, 5).toISOString(),
    };
  });
  console.log(`failed save: ${r.error}; kept: run ${r.name} at step ${r.step}, snapshot [${r.snapshot}]`);
  expect(r.error).toMatch(/DataCloneError|could not be cloned/);
  expect(r.name).toBe('A');
  expect(r.step).toBe(5);
  expect(r.snapshot).toEqual([1, 2, 3, 4, 5]);
  expect(r.lastSavedAt).toBe(r.savedAtA);
  expect(errors).toEqual([]);
});
