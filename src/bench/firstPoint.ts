// The app section of `npm run bench`: how long the default link takes from Start to the first point on
// the held-out chart (the base agents' evaluation with the live portrait's samples), in headless
// Chromium on a Vite dev server. The goal is 8 s cold (issue 15); it is a figure this prints, not a
// test's bound, because the machines the tests run on are shared and noisy (docs/performance.md).
import type { Page } from '@playwright/test';
import { openPage } from './browser';

/** Seconds the first-point goal allows, cold. */
export const FIRST_POINT_GOAL_S = 8;

export interface FirstPointFigures {
  /** Page load to the first chart point, fresh page on a dev server that served it once. */
  coldSeconds: number;
  /** The same again in the same browser (module and checkpoint caches warm). */
  warmSeconds: number;
  /** Warm, with the live portrait's samples off (?portraitSamples=0). */
  warmNoPortraitSeconds: number;
  goalSeconds: number;
  meetsGoal: boolean;
}

/** Seconds from opening `url` and pressing Start to the first held-out chart point. */
export async function timeFirstPoint(page: Page, url: string): Promise<number> {
  const t0 = Date.now();
  await page.goto(url);
  await page.getByTestId('preset-info').filter({ hasText: 'lp-nocarry' }).waitFor({ timeout: 120_000 });
  await page.getByTestId('train-start').click();
  await page.waitForFunction(
    () =>
      Number(document.querySelector('[data-testid="chart-heldout"]')?.getAttribute('data-points') ?? 0) > 0,
    null,
    { timeout: 120_000, polling: 50 },
  );
  const seconds = (Date.now() - t0) / 1000;
  await page.getByTestId('train-pause').click();
  return seconds;
}

/** `--app-only` (only this section) and `--no-app` (skip it) taken out of the bench's arguments. */
export function splitAppArgs(argv: readonly string[]): { rest: string[]; app: boolean; only: boolean } {
  const only = argv.includes('--app-only');
  const skip = argv.includes('--no-app');
  if (only && skip) throw new Error('--app-only and --no-app exclude each other');
  return { rest: argv.filter((a) => a !== '--app-only' && a !== '--no-app'), app: !skip, only };
}

/** The app section: one untimed load warms the dev server, then cold (a fresh browser context), warm and portrait-off figures. */
export async function runFirstPointBench(log: (s: string) => void): Promise<FirstPointFigures> {
  const session = await openPage('/');
  try {
    const url = session.page.url();
    await timeFirstPoint(session.page, url); // untimed: the dev server transforms every module once
    const fresh = await session.page.context().browser()!.newPage();
    let coldSeconds: number;
    try {
      coldSeconds = await timeFirstPoint(fresh, url);
    } finally {
      await fresh.close();
    }
    const warmNoPortraitSeconds = await timeFirstPoint(session.page, `${url}?portraitSamples=0`);
    const warmSeconds = await timeFirstPoint(session.page, url);
    const meetsGoal = coldSeconds <= FIRST_POINT_GOAL_S;
    log(
      `app: default link to the first chart point ${coldSeconds.toFixed(1)} s cold (goal ${FIRST_POINT_GOAL_S} s: ` +
        `${meetsGoal ? 'met' : 'missed'}), warm ${warmSeconds.toFixed(1)} s, portrait off ${warmNoPortraitSeconds.toFixed(1)} s`,
    );
    return { coldSeconds, warmSeconds, warmNoPortraitSeconds, goalSeconds: FIRST_POINT_GOAL_S, meetsGoal };
  } finally {
    await session.close();
  }
}
