// The pure parts of the app section's in-page pretraining row (./pagePretrainBench.ts drives the page): the
// figures of one in-page run read from the training worker's messages as the page received them (each
// stamped with the page's clock), and the comparison of the builds' SHA-256 between 1 worker, 2 workers
// and the Node cache entries of the same kernel variant.

/** A message of the training worker (src/worker/protocol.ts TrainEvent) as the page received it, at `t` ms. */
export interface TimedEvent {
  t: number;
  type: string;
  message?: string;
}

/** One in-page pretraining run's figures. */
export interface PageBuildTimes {
  /** Workers that built: the training worker and the pool's model workers (1: the training worker alone, one build after the other). */
  workers: number;
  /**
   * From the engine's start to the first build's start: the cache lookups, and with a pool its start
   * (the Web Workers loaded and their engines started); not in buildsMs.
   */
  startMs: number;
  /** From the first build's start to the last build stored in the page's IndexedDB cache. */
  buildsMs: number;
  /** The first build's start on the page's clock (performance.now() of the page). */
  fromMs: number;
}

const POOL = /built side by side in this worker and (\d+) model workers?/;
const BUILT = / pretrained here in /;
const BUILD_START = /^Pretraining .* \(build \d+ of \d+\)/;

/** True when `log` holds the end of the pretraining of `builds` builds, or a failure (pageBuildTimes says which). */
export function pretrainingOver(log: readonly TimedEvent[], builds: number): boolean {
  return (
    log.some((e) => e.type === 'error') ||
    log.filter((e) => e.type === 'notice' && BUILT.test(e.message ?? '')).length >= builds
  );
}

/** The figures of a run that pretrained `builds` builds, from its messages; throws saying what went wrong. */
export function pageBuildTimes(log: readonly TimedEvent[], builds: number): PageBuildTimes {
  const failed = log.find((e) => e.type === 'error');
  if (failed) throw new Error(`the page's run failed: ${failed.message ?? '(no message)'}`);
  const trouble = log.find(
    (e) => e.type === 'notice' && /could not|damaged|worker stopped/.test(e.message ?? ''),
  );
  if (trouble) throw new Error(`the page's pretraining did not run as timed: ${trouble.message}`);
  const engine = log.find((e) => e.type === 'engine');
  const start = log.find((e) => e.type === 'status' && BUILD_START.test(e.message ?? ''));
  const built = log.filter((e) => e.type === 'notice' && BUILT.test(e.message ?? ''));
  if (!engine || !start || built.length !== builds)
    throw new Error(
      `the page's messages do not show ${builds} builds pretrained (engine started: ${engine ? 'yes' : 'no'}, ` +
        `builds started: ${start ? 'yes' : 'no'}, builds stored: ${built.length}); was the cache empty?`,
    );
  const pool = log.find((e) => e.type === 'notice' && POOL.test(e.message ?? ''));
  return {
    workers: pool ? Number(POOL.exec(pool.message!)![1]) + 1 : 1,
    startMs: start.t - engine.t,
    buildsMs: built[built.length - 1].t - start.t,
    fromMs: start.t,
  };
}

/** How the builds' bytes compare: page with 1 worker, page with 2, and the Node cache (SHA-256 by cache key). */
export interface BuildsCompared {
  /** The cache keys of the builds (the page's, engine tag included). */
  keys: string[];
  /** Each build's bytes with 2 workers equal those with 1. */
  identical1vs2: boolean;
  /** Each build's bytes in the page equal the Node cache entry of the same key. */
  matchNode: boolean;
  /** What differs or is missing, one line each (empty when both hold). */
  problems: string[];
}

/** Compare the builds of the two page runs with each other and with Node's, key by key. */
export function compareBuilds(
  one: Readonly<Record<string, string>>,
  two: Readonly<Record<string, string>>,
  node: Readonly<Record<string, string>>,
): BuildsCompared {
  const keys = [...new Set([...Object.keys(one), ...Object.keys(two), ...Object.keys(node)])].sort();
  const problems: string[] = [];
  let identical1vs2 = keys.length > 0;
  let matchNode = keys.length > 0;
  for (const k of keys) {
    if (one[k] === undefined || two[k] === undefined || one[k] !== two[k]) {
      identical1vs2 = false;
      problems.push(`${k}: 1 worker ${one[k] ?? 'missing'}, 2 workers ${two[k] ?? 'missing'}`);
    }
    if (node[k] === undefined || one[k] !== node[k] || two[k] !== node[k]) {
      matchNode = false;
      problems.push(`${k}: page ${one[k] ?? 'missing'}, Node cache ${node[k] ?? 'missing'}`);
    }
  }
  if (keys.length === 0) problems.push('no builds to compare');
  return { keys, identical1vs2, matchNode, problems };
}

/** The engine whose Node cache keys are the page's keys (the page's kernel variant), or null when none is. */
export function variantOfKeys(
  pageKeys: readonly string[],
  nodeKeys: Readonly<Record<string, readonly string[]>>,
): string | null {
  const want = [...pageKeys].sort().join('\n');
  for (const [engine, keys] of Object.entries(nodeKeys))
    if ([...keys].sort().join('\n') === want) return engine;
  return null;
}

/** 1-worker builds' time over the pool's (neither with its start). */
export const poolSpeedup = (one: PageBuildTimes, two: PageBuildTimes): number => one.buildsMs / two.buildsMs;
