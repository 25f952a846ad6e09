// The app section's in-page pretraining row of `npm run bench` (issue 20, "The cohort in parallel"): the app
// itself, in headless Chromium on a Vite dev server, pretrains the two distinct agents of
// natural-addw-different-arch (nat-rope.s, nat-deep.s) with the reduced recipe of the Node row
// (./pretrainBench.ts, set through the dev-only test hook __CORL_TEST_PRETRAIN_RECIPE__), once with
// ?workers=1 (the training worker builds them one after the other) and once with ?workers=2 (a pool of 2
// model workers, src/worker/pagePool.ts). The times come from the training worker's messages as the page
// received them (./pagePretrainRow.ts): the pool's start is timed apart from the builds. Each build's bytes
// are read from the page's IndexedDB cache (SHA-256) and compared with the Node cache entry of the same key,
// built by cachedCheckpoint on the page's kernel variant (Chromium 156: wasm-relaxed) in a fresh directory.
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { cachedCheckpoint, cacheKeyOf } from '../cohort/cache';
import { NATURAL_PRESETS, naturalPresetSpecs } from '../cohort/naturalPresets';
import { makeNodeBackend, type NodeBackendName } from '../engine/wasm/nodeBackend';
import { openPage } from './browser';
import { pageCacheHashes } from './pageCache';
import {
  type BuildsCompared,
  type PageBuildTimes,
  type TimedEvent,
  compareBuilds,
  pageBuildTimes,
  poolSpeedup,
  pretrainingOver,
  variantOfKeys,
} from './pagePretrainRow';
import { PRETRAIN_RECIPE } from './pretrainBench';
import { type ThreadGroupCpu, cpuInWindow, startSampling } from './threadCpu';

const PRESET = 'natural-addw-different-arch';

export interface PagePretrainRow extends BuildsCompared {
  row: string;
  /** The page's engine (its kernel variant), and the Node engine the bytes are compared with (the same). */
  engine: string;
  builds: number;
  oneWorker: PageBuildTimes;
  pool: PageBuildTimes;
  /** oneWorker.buildsMs / pool.buildsMs (neither with the pool's start). */
  speedup: number;
  /** Seconds Node took to build its cache entries (not a figure of the row; they are built one after the other). */
  nodeSeconds: number;
  /**
   * With `threads`: where the cores went during each run's builds (./threadCpu.ts: this process and the
   * browser's, by thread; empty without Linux's /proc): why the pool's speedup falls short of its bound.
   */
  cpu?: Record<'oneWorker' | 'pool', { seconds: number; groups: ThreadGroupCpu[] }>;
}

/** Before the app loads: the recipe hook, and every message of the training worker logged with the page's clock. */
async function armPage(page: Page): Promise<void> {
  await page.addInitScript((recipe) => {
    const w = window as unknown as Record<string, unknown>;
    w.__CORL_TEST_PRETRAIN_RECIPE__ = recipe;
    const log: { t: number; type: string; message?: string }[] = [];
    w.__benchTrainLog = log;
    // a Proxy, not a subclass: the function handed to the page names no class or inner function (see ./pageCache.ts)
    window.Worker = new Proxy(window.Worker, {
      construct(target, args: ConstructorParameters<typeof Worker>) {
        const w = new target(...args);
        w.addEventListener('message', (ev: MessageEvent<{ type?: string; message?: string }>) => {
          if (ev.data && typeof ev.data.type === 'string')
            log.push({ t: performance.now(), type: ev.data.type, message: ev.data.message });
        });
        return w;
      },
    });
  }, PRETRAIN_RECIPE);
}

/** One in-page pretraining of the preset with `workers` model workers on a fresh page; its figures and the builds' hashes. */
async function pretrainInPage(
  page: Page,
  base: string,
  workers: number,
  builds: number,
  threads: boolean,
): Promise<{
  times: PageBuildTimes;
  hashes: Record<string, string>;
  cpu: ReturnType<typeof cpuInWindow>;
}> {
  await page.goto(`${base}/?backend=wasm&workers=${workers}`);
  const stop = threads ? startSampling() : () => [];
  let samples: ReturnType<typeof stop>;
  let log: TimedEvent[];
  try {
    await page.getByTestId('preset').selectOption(PRESET);
    await page.getByTestId('train-start').click();
    const readLog = () =>
      page.evaluate(() => (window as unknown as { __benchTrainLog: TimedEvent[] }).__benchTrainLog);
    // polled from here (the page stamps the messages itself, so the polling does not set the figures; polling
    // every 1,000 ms instead of 250 changed nothing measurable, docs/performance-sittings.md)
    const until = Date.now() + 180_000;
    log = await readLog();
    while (!pretrainingOver(log, builds)) {
      if (Date.now() > until)
        throw new Error(
          `the page did not finish pretraining ${builds} builds within 180 s (workers=${workers})`,
        );
      await new Promise((r) => setTimeout(r, 250));
      log = await readLog();
    }
  } finally {
    samples = stop(); // also when the page fails: the reader's timer must not keep the bench alive
  }
  const times = pageBuildTimes(log, builds); // throws on a failed run before the cache is read
  if (times.workers !== workers)
    throw new Error(`asked the page for ${workers} model workers, it built in ${times.workers}`);
  const hashes = await pageCacheHashes(page, false);
  const origin = await page.evaluate(() => performance.timeOrigin); // the page's clock on Date.now()'s
  const from = origin + times.fromMs;
  return { times, hashes, cpu: cpuInWindow(samples, from, from + times.buildsMs) };
}

/** The Node cache entries of the builds on `engine` (fresh directory): key -> SHA-256 of the entry's file. */
async function nodeCacheHashes(engine: NodeBackendName): Promise<Record<string, string>> {
  const dir = mkdtempSync(join(tmpdir(), 'corl-bench-pretrain-'));
  const be = await makeNodeBackend(engine);
  try {
    const out: Record<string, string> = {};
    for (const s of naturalPresetSpecs(PRESET)) {
      const r = await cachedCheckpoint(be, s, NATURAL_PRESETS[PRESET].task, {
        dir,
        shippedDir: dir,
        recipe: PRETRAIN_RECIPE,
      });
      out[r.key] = createHash('sha256').update(readFileSync(r.file)).digest('hex');
    }
    return out;
  } finally {
    be.destroy();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The row (see the file's head). */
export async function runPagePretrainBench(
  log: (s: string) => void,
  /** Read each run's CPU by thread too (its reader costs about 1% of a core). */
  threads = false,
): Promise<PagePretrainRow> {
  const specs = naturalPresetSpecs(PRESET);
  const task = NATURAL_PRESETS[PRESET].task;
  const builds = new Set(specs.map((s) => cacheKeyOf(s, task, 'cpu', PRETRAIN_RECIPE))).size;
  const session = await openPage('/'); // its load makes the dev server transform the app's modules once
  const base = new URL(session.page.url()).origin;
  const fresh = async (workers: number) => {
    const page = await session.page.context().browser()!.newPage(); // a fresh context: an empty cache and no saved run
    try {
      await armPage(page);
      return await pretrainInPage(page, base, workers, builds, threads);
    } finally {
      await page.close(); // stops the run's workers
    }
  };
  let one: Awaited<ReturnType<typeof pretrainInPage>>;
  let two: typeof one;
  try {
    one = await fresh(1);
    two = await fresh(2);
  } finally {
    await session.close();
  }
  const variants: NodeBackendName[] = ['wasm-relaxed', 'wasm'];
  const keysOf = (e: string) => specs.map((s) => cacheKeyOf(s, task, e, PRETRAIN_RECIPE));
  const engine = variantOfKeys(
    Object.keys(one.hashes),
    Object.fromEntries(variants.map((e) => [e, keysOf(e)])),
  );
  if (!engine)
    throw new Error(
      `the page's cache keys (${Object.keys(one.hashes).join(', ') || 'none'}) are no wasm or wasm-relaxed Node cache keys`,
    );
  const t0 = performance.now();
  const node = await nodeCacheHashes(engine as NodeBackendName);
  const r: PagePretrainRow = {
    row: `in-page pretraining ${PRESET} (${builds} builds, ${PRETRAIN_RECIPE.maxSteps} steps each), 1 vs 2 workers`,
    engine,
    builds,
    oneWorker: one.times,
    pool: two.times,
    speedup: poolSpeedup(one.times, two.times),
    nodeSeconds: (performance.now() - t0) / 1000,
    ...(threads && { cpu: { oneWorker: one.cpu, pool: two.cpu } }),
    ...compareBuilds(one.hashes, two.hashes, node),
  };
  log(
    `app: ${r.row} on ${engine}: ${(one.times.buildsMs / 1000).toFixed(1)} s on 1 worker, ` +
      `${(two.times.buildsMs / 1000).toFixed(1)} s on ${two.times.workers} (+${(two.times.startMs / 1000).toFixed(1)} s to start them): ` +
      `${r.speedup.toFixed(2)}x; bytes 1 vs 2 workers ${r.identical1vs2 ? 'identical' : 'DIFFER'}, ` +
      `vs the Node cache (${engine}) ${r.matchNode ? 'identical' : 'DIFFER'}${r.problems.length ? `\n  ${r.problems.join('\n  ')}` : ''}`,
  );
  for (const [name, c] of [
    ['1 worker', one.cpu],
    [`${two.times.workers} workers`, two.cpu],
  ] as const)
    if (c.groups.length) log(`  ${cpuLine(name, c)}`);
  return r;
}

/** One run's CPU by thread group in a line: the busiest groups, the rest summed. */
function cpuLine(name: string, c: ReturnType<typeof cpuInWindow>): string {
  const total = c.groups.reduce((a, g) => a + g.cpuSeconds, 0);
  const top = c.groups.slice(0, 5);
  const rest = total - top.reduce((a, g) => a + g.cpuSeconds, 0);
  return (
    `CPU during the builds with ${name} (${c.seconds.toFixed(1)} s): ${total.toFixed(2)} s in all; ` +
    top.map((g) => `${g.group} x${g.threads} ${g.cpuSeconds.toFixed(2)}`).join(', ') +
    (rest > 0.005 ? `, others ${rest.toFixed(2)}` : '')
  );
}
