// The ladder's choice (./ladder.ts keptRung) from the rungs' results in ladder order: what one thread running
// the rungs in turn keeps, decided as soon as it is settled and not before; and the bytes of a ladder split
// into rungs, pinned to those of the code before the split.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CpuBackend } from '../engine/cpu/cpuBackend';
import { pretrainSpecOf } from './axes';
import { keptRung } from './ladder';
import { LADDER_RECIPES, LADDER_TASK } from './ladder.fixture';
import { naturalPresetSpecs } from './naturalPresets';
import { pretrainAgent } from './pretrain';

const r = (dist: number) => ({ inBand: dist === 0, dist });

describe('keptRung', () => {
  it('keeps the first rung in band, even when later rungs are unknown', () => {
    expect(keptRung([r(0.2), r(0), undefined], 3)).toBe(1);
    expect(keptRung([r(0.2), r(0), r(0)], 3)).toBe(1);
  });

  it('is undecided while a rung before the first in band is unknown', () => {
    expect(keptRung([undefined, r(0)], 2)).toBeUndefined();
    expect(keptRung([r(0.2), undefined, r(0.1)], 3)).toBeUndefined();
  });

  it('keeps the closest rung once every rung is known and none is in band, ties to the earlier', () => {
    expect(keptRung([r(0.3), r(0.1), r(0.2)], 3)).toBe(1);
    expect(keptRung([r(0.1), r(0.1)], 2)).toBe(0);
    expect(keptRung([r(0.3)], 1)).toBe(0);
  });
});

// Pinned: the SHA-256 of these CPU-reference builds as made by the code before the ladder was split into rungs
// (commit d850765, pretrainAgent with its rungs in one loop): the rungs run one after the other (pretrainAgent)
// must still write these bytes (the pool's scheduler is held to pretrainAgent's: src/rl/pool/rungBuilds.test.ts).
const GOLDEN: Record<string, Record<string, string>> = {
  first: {
    R: '23611850b41f0a108a08f66bac56d871dabd78d23d52d58c5a0e2d7aeb2c729c',
    D: '2da1e206521ddec6f82f29d3e2f7aaff71dfcf1f3b0914abe8975d2f2006b600',
  },
  none: {
    R: '44d58b8ef6d5bb9c2baf3d950b2057eb2f25eda8457ee48ad9612e6f460de357',
    D: '985c4e3a60ebb8f2bfc36f3fd74e641fd6b334aef1df86654e82756556d60f87',
  },
};

describe('a corpus ladder split into rungs', () => {
  const task = LADDER_TASK;
  const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
  for (const [name, recipe] of Object.entries(LADDER_RECIPES))
    it(`writes the bytes the ladder wrote in one loop (${name === 'first' ? 'kept its first rung' : 'climbed to its last'})`, async () => {
      const specs = naturalPresetSpecs('natural-addw-different-arch').map(pretrainSpecOf);
      for (const spec of specs) {
        const r = await pretrainAgent(new CpuBackend(), spec, task, { recipe, cacheKey: 'k' });
        expect(sha(r.bytes), spec.id).toBe(GOLDEN[name][spec.id]);
        expect(r.meta.ladder).toHaveLength(name === 'first' ? 1 : 3);
      }
    }, 60_000);
});
