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

/**
 * The app section's rows: the first chart point (this file) and in-page pretraining on 1 vs 2 workers
 * (./pagePretrainBench.ts); `pretrain-threads`, only when named, is the latter with each run's CPU by thread
 * (./threadCpu.ts: its reader costs a little CPU, so the plain row stays the figure).
 */
export const APP_SECTIONS = ['firstPoint', 'pretrain', 'pretrain-threads'] as const;
export type AppSection = (typeof APP_SECTIONS)[number];
const DEFAULT_SECTIONS: readonly AppSection[] = ['firstPoint', 'pretrain'];

/** `--app-only` (only this section), `--no-app` (skip it) and `--app ROWS` (default all) taken out of the bench's arguments. */
export function splitAppArgs(argv: readonly string[]): {
  rest: string[];
  app: boolean;
  only: boolean;
  sections: AppSection[];
} {
  const only = argv.includes('--app-only');
  const skip = argv.includes('--no-app');
  if (only && skip) throw new Error('--app-only and --no-app exclude each other');
  const rest: string[] = [];
  let sections: AppSection[] = [...DEFAULT_SECTIONS];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--app-only' || argv[i] === '--no-app') continue;
    if (argv[i] !== '--app') {
      rest.push(argv[i]);
      continue;
    }
    const names = (argv[++i] ?? '').split(',').map((s) => s.trim());
    const bad = names.filter((n) => !(APP_SECTIONS as readonly string[]).includes(n));
    if (bad.length)
      throw new Error(
        `--app needs a comma-separated list of ${APP_SECTIONS.join(', ')}; got ${JSON.stringify(argv[i] ?? '')}`,
      );
    sections = names as AppSection[];
  }
  return { rest, app: !skip, only, sections };
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
    // warm first: afterwards the plain address would resume this tab's own run, whose settings are the
    // portrait-off link's (a link with other settings opens over a saved run, the plain address resumes it)
    const warmSeconds = await timeFirstPoint(session.page, url);
    const warmNoPortraitSeconds = await timeFirstPoint(session.page, `${url}?portraitSamples=0`);
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
