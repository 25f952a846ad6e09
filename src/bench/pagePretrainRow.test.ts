// The pure parts of the app section's in-page pretraining row: its figures read from the training worker's
// messages, and the comparison of the builds' hashes (page 1 worker, page 2 workers, Node cache).
import { describe, expect, it } from 'vitest';
import {
  type TimedEvent,
  compareBuilds,
  pageBuildTimes,
  poolSpeedup,
  pretrainingOver,
  variantOfKeys,
} from './pagePretrainRow';

const built = (t: number, who: string, key: string): TimedEvent => ({
  t,
  type: 'notice',
  message: `${who}: pretrained here in 3.0 s (120 steps), stored in this page's IndexedDB cache as build ${key}`,
});

/** The messages of a run of 2 builds (a pool's start notice with `pool`), as the page received them. */
function runLog(pool: boolean): TimedEvent[] {
  return [
    { t: 10, type: 'run' },
    { t: 12, type: 'status', message: 'Looking for a GPU…' },
    { t: 100, type: 'engine' },
    ...(pool
      ? [
          {
            t: 900,
            type: 'notice',
            message:
              'The 2 base agents to pretrain are built side by side in this worker and 1 model worker (wasm-relaxed).',
          },
        ]
      : []),
    { t: 1000, type: 'status', message: 'Pretraining R: nat-rope.s seed 1, plain view (build 1 of 2)…' },
    { t: 1001, type: 'status', message: 'Pretraining D: nat-deep.s seed 1, plain view (build 2 of 2)…' },
    {
      t: 1500,
      type: 'status',
      message: 'Pretraining R: nat-rope.s seed 1, plain view (build 1 of 2): step 3/120, loss 2.000',
    },
    built(4000, 'R: nat-rope.s', 'aa-wasm-relaxed'),
    built(6500, 'D: nat-deep.s', 'bb-wasm-relaxed'),
    { t: 6600, type: 'pool' },
    { t: 6700, type: 'status', message: 'Checking the config and the base checkpoints…' },
  ];
}

describe('in-page pretraining row: figures from the messages', () => {
  it('times the builds from the first build started to the last stored, the start apart', () => {
    expect(pageBuildTimes(runLog(false), 2)).toEqual({
      workers: 1,
      startMs: 900,
      buildsMs: 5500,
      fromMs: 1000,
    });
    expect(pageBuildTimes(runLog(true), 2)).toEqual({
      workers: 2,
      startMs: 900,
      buildsMs: 5500,
      fromMs: 1000,
    });
  });

  it('is over once every build is stored, or on an error, not before', () => {
    const log = runLog(true);
    expect(pretrainingOver(log.slice(0, 7), 2)).toBe(false);
    expect(pretrainingOver(log.slice(0, 8), 2)).toBe(false);
    expect(pretrainingOver(log.slice(0, 9), 2)).toBe(true);
    expect(pretrainingOver([...log.slice(0, 3), { t: 200, type: 'error', message: 'boom' }], 2)).toBe(true);
  });

  it('names what went wrong: an error, a pool that did not start, builds missing (a filled cache)', () => {
    expect(() =>
      pageBuildTimes([...runLog(false), { t: 7000, type: 'error', message: 'out of memory' }], 2),
    ).toThrow("the page's run failed: out of memory");
    const fallback: TimedEvent = {
      t: 900,
      type: 'notice',
      message:
        'The 2 model workers could not be started (no reply within 30 s); they are pretrained one after the other in one worker (same bytes, slower).',
    };
    expect(() => pageBuildTimes([...runLog(false), fallback], 2)).toThrow(
      /did not run as timed: The 2 model workers could not/,
    );
    const fromCache = runLog(false).filter((e) => !/pretrained here/.test(e.message ?? ''));
    expect(() => pageBuildTimes(fromCache, 2)).toThrow(/builds stored: 0\); was the cache empty/);
    expect(() => pageBuildTimes(runLog(false), 3)).toThrow(/do not show 3 builds/);
  });

  it('gives the speedup of the builds without the pool start', () => {
    const one = { workers: 1, startMs: 50, buildsMs: 20_000, fromMs: 0 };
    const two = { workers: 2, startMs: 1300, buildsMs: 12_500, fromMs: 0 };
    expect(poolSpeedup(one, two)).toBeCloseTo(1.6, 12);
  });
});

describe('in-page pretraining row: the builds compared', () => {
  const one = { 'aa-wasm-relaxed': 'h1', 'bb-wasm-relaxed': 'h2' };

  it('holds when every build has the same hash on 1 worker, 2 workers and in the Node cache', () => {
    expect(compareBuilds(one, { ...one }, { ...one })).toEqual({
      keys: ['aa-wasm-relaxed', 'bb-wasm-relaxed'],
      identical1vs2: true,
      matchNode: true,
      problems: [],
    });
  });

  it('says which build differs, and from what', () => {
    const r = compareBuilds(one, { ...one, 'bb-wasm-relaxed': 'x' }, one);
    expect(r.identical1vs2).toBe(false);
    expect(r.matchNode).toBe(false); // the 2-worker bytes are not Node's either
    expect(r.problems).toContain('bb-wasm-relaxed: 1 worker h2, 2 workers x');
    const n = compareBuilds(one, one, { ...one, 'aa-wasm-relaxed': 'y' });
    expect(n).toMatchObject({ identical1vs2: true, matchNode: false });
    expect(n.problems).toEqual(['aa-wasm-relaxed: page h1, Node cache y']);
  });

  it('counts a build missing on one side as a difference, and nothing to compare as no match', () => {
    const r = compareBuilds(one, one, { 'aa-wasm-relaxed': 'h1' });
    expect(r.matchNode).toBe(false);
    expect(r.problems).toEqual(['bb-wasm-relaxed: page h2, Node cache missing']);
    expect(compareBuilds({}, {}, {})).toMatchObject({ identical1vs2: false, matchNode: false });
  });

  it("finds the Node engine whose keys are the page's (its kernel variant)", () => {
    const nodeKeys = { 'wasm-relaxed': ['bb-wasm-relaxed', 'aa-wasm-relaxed'], wasm: ['aa-wasm', 'bb-wasm'] };
    expect(variantOfKeys(Object.keys(one), nodeKeys)).toBe('wasm-relaxed');
    expect(variantOfKeys(['aa-wasm', 'bb-wasm'], nodeKeys)).toBe('wasm');
    expect(variantOfKeys(['aa-wasm'], nodeKeys)).toBeNull();
  });
});
