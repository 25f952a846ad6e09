// The sweep's resume keys after node:crypto gave way to the plain-TS SHA-256 (src/util/sha256.ts): cell ids and the
// sweep hash are the values main computed with node:crypto (golden, from the same config), and each id is
// still node:crypto's SHA-256 of the cell's resolved config (with the backend for wasm).
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { stable } from '../rl/canonical';
import { planSweep } from './grid';

const node16 = (s: string): string => createHash('sha256').update(s).digest('hex').slice(0, 16);
const CONFIG = {
  name: 'k',
  methods: ['co-rl', 'ttrl'],
  steps: 4,
  grid: { 'cohort.preset': ['paper-demo', 'ring'], seed: [1, 2] },
};

describe('resume keys', () => {
  it('are the ids and hash the node:crypto version computed', () => {
    const r = planSweep(CONFIG);
    if (!r.ok) throw new Error(r.errors.join('\n'));
    expect(r.plan.hash).toBe('018ba2aa78088406');
    expect(r.plan.cells.map((c) => c.id)).toEqual([
      'c96750134c923821',
      '67d660a6033396ef',
      '5377c1f6f530c78b',
      '8c79d96cc50acd59',
    ]);
  });
  it('are node:crypto digests of the resolved config, for both engines', () => {
    for (const backend of ['wasm', 'cpu'] as const) {
      const r = planSweep({ ...CONFIG, backend });
      if (!r.ok) throw new Error(r.errors.join('\n'));
      expect(r.plan.hash).toBe(node16(stable({ ...CONFIG, backend })));
      for (const c of r.plan.cells)
        expect(c.id).toBe(node16(stable(backend === 'wasm' ? { config: c.config, backend } : c.config)));
    }
  });
});
