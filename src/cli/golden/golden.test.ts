// Behaviour unchanged (issue 19): paper-demo, 20 steps, seed 1, gives the committed metric digests on the
// CPU reference and on the wasm engine's plain kernels (golden.relaxed.test.ts: the relaxed ones; src/cli/golden/golden.ts says how they were taken and when to
// regenerate them).
import { describe, expect, it } from 'vitest';
import { GOLDEN_ENGINES, goldenMetrics, readGolden, sha256 } from './golden';

describe('golden run: paper-demo, 20 steps', () => {
  const golden = readGolden();
  for (const engine of GOLDEN_ENGINES.filter((e) => e !== 'wasm-relaxed')) {
    it(`metric JSON on ${engine} equals the committed digest`, async () => {
      const json = await goldenMetrics(engine);
      const parsed = JSON.parse(json) as { steps: unknown[]; evals: unknown[] };
      expect(parsed.steps).toHaveLength(60); // 20 steps x 3 methods
      expect(parsed.evals).toHaveLength(9); // steps 0, 10 and 20 x 3 methods
      expect(sha256(json)).toBe(golden[engine]);
    }, 120_000);
  }
});
