// The build log's agent label (src/cli/axisCohort.ts): an agent whose architecture is overridden must say so,
// or a 24-wide nat-chunk reads as nat-chunk.s in every log and report built from it.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { agentLabel, buildAxisCohort } from './axisCohort';
import type { AgentSpec } from '../cohort/agent';
import { parseAxisCohort } from '../cohort/axes';
import { makeNodeBackend } from '../engine/wasm/nodeBackend';
import { TINY_AGENTS, TINY_TASK } from '../sweep/tinyBuilds.fixture';

const spec: AgentSpec = { id: 'C', family: 'nat-chunk', size: 's', seed: 3, view: 'plain' };

describe('agentLabel', () => {
  it('names family, size, seed and view of an agent with no overrides', () => {
    expect(agentLabel(spec)).toBe('C nat-chunk.s seed 3 plain');
  });
  it('names every architecture override, so a narrowed agent is not read as its size', () => {
    expect(agentLabel({ ...spec, arch: { nEmbd: 24 } })).toBe('C nat-chunk.s (nEmbd 24) seed 3 plain');
    expect(agentLabel({ ...spec, arch: { nLayer: 3, blockSize: 64 }, tokenizer: 'chunk2' })).toBe(
      'C nat-chunk.s (nLayer 3, blockSize 64) seed 3 plain tokenizer chunk2',
    );
  });
});

// `npm run pretrain|overlap|regime|experiment -- --config` build a config's missing agents side by side
// (--workers) through the sweep's pre-pass: the same bytes as one build after the other, each reported built.
const cacheDir = mkdtempSync(join(tmpdir(), 'corl-axis-'));
afterAll(() => rmSync(cacheDir, { recursive: true, force: true }));

const entries = (dir: string) =>
  Object.fromEntries(readdirSync(dir).map((f) => [f, readFileSync(join(dir, f)).toString('base64')]));

describe('buildAxisCohort with workers', () => {
  it('builds the missing agents on two builders to the bytes of one, then reads them from the cache', async () => {
    // A2 has A's build: one entry, built once, read from the cache for A2 (as one build after the other does)
    const agents = [...TINY_AGENTS, { ...TINY_AGENTS[0], id: 'A2' }];
    const p = parseAxisCohort({ task: TINY_TASK, cohort: { agents } });
    if ('errors' in p) throw new Error(p.errors.join('; '));
    const be = await makeNodeBackend('wasm');
    try {
      const one: string[] = [];
      const serial = await buildAxisCohort(be, p.cohort, (s) => one.push(s), { dir: join(cacheDir, 'one') });
      expect(one.some((s) => s.startsWith('building '))).toBe(false); // one build after the other, on `be`
      expect(serial.map((r) => r.built)).toEqual([true, true, false]);
      const two: string[] = [];
      const o = { dir: join(cacheDir, 'two'), workers: 2, engine: 'wasm' as const };
      const side = await buildAxisCohort(be, p.cohort, (s) => two.push(s), o);
      expect(two).toContain('building 2 entries (2 rungs) on 2 builders: this thread and 1 model worker');
      // no cells outside a sweep: the lines end with where the build ran
      const built = two.filter((s) => s.startsWith('built @cache/'));
      expect(built).toHaveLength(2);
      expect(built.every((s) => /\(built in [^)]+\)$/.test(s))).toBe(true);
      expect(side.map((r) => r.built)).toEqual([true, true, false]);
      expect(two.filter((s) => s.includes(': built in ') && s.includes(' (side by side) -> '))).toHaveLength(
        2,
      );
      expect(two.filter((s) => s.startsWith('A2 ') && s.includes(': from the cache in '))).toHaveLength(1);
      expect(side.map((r) => r.key)).toEqual(serial.map((r) => r.key));
      expect(side.map((r) => Buffer.from(r.bytes).toString('base64'))).toEqual(
        serial.map((r) => Buffer.from(r.bytes).toString('base64')),
      );
      expect(entries(join(cacheDir, 'two'))).toEqual(entries(join(cacheDir, 'one')));
      const again: string[] = [];
      const cached = await buildAxisCohort(be, p.cohort, (s) => again.push(s), o);
      expect(cached.map((r) => r.built)).toEqual([false, false, false]);
      expect(again[0]).toBe(
        `2 cache entries of agents by axes in ${o.dir}: 2 there, 0 to build once on wasm`,
      );
    } finally {
      be.destroy();
    }
  }, 120_000);
});
