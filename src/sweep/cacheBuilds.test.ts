// A build that fails in the sweep's pre-pass: the error names its agent and cells, the build that ended
// before it is stored (a rerun builds only what is left), and nothing is stored for the failed one.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { prepareCheckpoints } from './checkpoints';
import { tinyBuildCells } from './tinyBuilds.fixture';

vi.mock('../cohort/ladder', async (original) => {
  const m = await original<typeof import('../cohort/ladder')>();
  return {
    ...m,
    runRung: (...a: Parameters<typeof m.runRung>) =>
      a[2].seed === 2 ? Promise.reject(new Error('out of memory (a test fault)')) : m.runRung(...a),
  };
});

const cacheDir = mkdtempSync(join(tmpdir(), 'corl-builds-'));
afterAll(() => rmSync(cacheDir, { recursive: true, force: true }));

describe('a failed build in the pre-pass', () => {
  it('names the agent and its cells, and keeps the build that ended before it', async () => {
    const log: string[] = [];
    const errs = await prepareCheckpoints(tinyBuildCells([1, 2]), { cacheDir, log: (s) => log.push(s) });
    expect(errs).toEqual([
      'cells 0, 1: agent B: could not pretrain B: nat-rope.s seed 2: out of memory (a test fault)',
    ]);
    expect(log.filter((s) => s.startsWith('built '))).toEqual([
      expect.stringMatching(
        /^built @cache\/\w+-wasm\.ckpt \(A: nat-rope\.s seed 1\) on wasm in [\d.]+ s, for cells 0, 1$/,
      ),
    ]);
    expect(readdirSync(cacheDir).filter((f) => f.endsWith('.ckpt'))).toHaveLength(1);
  }, 60_000);
});
