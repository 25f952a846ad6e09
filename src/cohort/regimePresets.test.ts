// The regime candidates the page offers are the configs of experiments/regime/candidates (task, agents and
// rollout T), built as the regime reads that measured them (the same cache keys), and called in the regime
// exactly when that committed read passes every gate; a level admitted by its gates also has four base seeds
// whose committed reads pass (docs/regime-levels.md), and its card quotes the page seed's read.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildKey, parseAxisAgent } from './axes';
import { SHIPPED_DIR } from './cache';
import { engineCacheKey } from './cacheEntry';
import {
  NATURAL_PRESET_NAMES,
  NATURAL_PRESETS,
  naturalPreset,
  naturalPresetSpecs,
  REGIME_CANDIDATES,
} from './naturalPresets';

const ROOT = join(__dirname, '../..');
const json = (path: string) => JSON.parse(readFileSync(join(ROOT, path), 'utf8'));

interface Read {
  name?: string;
  baseSeed?: number;
  report: {
    verdict: { inRegime: boolean };
    figures: {
      agents: { greedy: { value: number }; seedOnlyKappa: { value: number } }[];
      pairs: { reach: { value: number } }[];
    };
  };
}

/** Each candidate's regime probe: the config its gates were read on, and the committed read. */
const LEVELS = 'experiments/regime/probes/levels';
const LEVEL_READS = 'docs/data/regime/probes/levels';
const PROBES: Record<string, { config: string; read?: string }> = {
  'nearest-muladdw-different-family': { config: 'experiments/regime/probes/muladdw22-paths3-s6000.json' },
  'nearest-addw-different-arch': { config: 'experiments/regime/probes/addw5-s3000.json' },
  'regime-muladdw-different-family': {
    config: 'experiments/regime/probes/capacity/muladdw33g-paths3-cap-xs24-s24000-seed19.json',
    read: 'docs/data/regime/probes/capacity/muladdw33g-paths3-cap-xs24-s24000-seed19.json',
  },
  'regime-muladdw-seed-only': {
    config: `${LEVELS}/muladdw33g-paths3-level-seed-only-seed17.json`,
    read: `${LEVEL_READS}/muladdw33g-paths3-level-seed-only-seed17.json`,
  },
  'regime-muladdw-same-family': {
    config: `${LEVELS}/muladdw33g-paths3-level-same-family-seed18.json`,
    read: `${LEVEL_READS}/muladdw33g-paths3-level-same-family-seed18.json`,
  },
  'regime-mulw-seed-only': {
    config: `${LEVELS}/mulw32g-paths3-level-seed-only-seed18.json`,
    read: `${LEVEL_READS}/mulw32g-paths3-level-seed-only-seed18.json`,
  },
  'regime-mulw-different-arch': {
    config: `${LEVELS}/mulw32g-paths3-level-different-arch-seed17.json`,
    read: `${LEVEL_READS}/mulw32g-paths3-level-different-arch-seed17.json`,
  },
  'regime-mulw-same-family-cr4': {
    config: `${LEVELS}/mulw32g-paths3-level-same-family-cr4-seed20.json`,
    read: `${LEVEL_READS}/mulw32g-paths3-level-same-family-cr4-seed20.json`,
  },
};

const readOf = (name: string): Read => {
  const p = PROBES[name];
  if (p.read) return (json(p.read) as Read[])[0];
  const rows = (json('docs/data/regime/candidates.json') as Read[]).filter((r) => r.name === name);
  expect(rows, name).toHaveLength(1);
  return rows[0];
};

describe('regime candidates', () => {
  it('are the configs of experiments/regime/candidates, task, agents and rollout T alike', () => {
    const dir = join(ROOT, 'experiments/regime/candidates');
    const files = readdirSync(dir).filter((f) => f.endsWith('.json'));
    expect(files.map((f) => f.replace(/\.json$/, '')).sort()).toEqual(Object.keys(REGIME_CANDIDATES).sort());
    for (const f of files) {
      const c = JSON.parse(readFileSync(join(dir, f), 'utf8'));
      const p = REGIME_CANDIDATES[c.name];
      expect({ task: p.task, agents: p.agents, T: p.candidate?.temperature }).toEqual({
        task: c.task,
        agents: c.cohort.agents,
        T: c.train.temperature,
      });
      expect(naturalPreset(c.name)).toBe(p);
    }
    expect(NATURAL_PRESET_NAMES).toEqual([
      ...Object.keys(NATURAL_PRESETS),
      ...Object.keys(REGIME_CANDIDATES),
    ]);
  });

  it('give each candidate the builds its regime probe measured (the same cache keys)', () => {
    expect(Object.keys(PROBES).sort()).toEqual(Object.keys(REGIME_CANDIDATES).sort());
    for (const [name, probe] of Object.entries(PROBES)) {
      const c = json(probe.config);
      const keys = (specs: { id: string }[]) => specs.map((s) => buildKey(s as never, c.task));
      const probeSpecs = c.cohort.agents.map((x: object, i: number) => {
        const r = parseAxisAgent({ ...x }, `probe.agents[${i}]`);
        if ('errors' in r) throw new Error(r.errors.join('; '));
        return r.spec;
      });
      expect(REGIME_CANDIDATES[name].task).toEqual(c.task);
      expect(keys(naturalPresetSpecs(name))).toEqual(keys(probeSpecs));
    }
  });

  it('call a candidate in the regime exactly when its committed read passes every gate, and quote it', () => {
    for (const [name, p] of Object.entries(REGIME_CANDIDATES)) {
      const r = readOf(name).report;
      expect(!!p.candidate?.inRegime, name).toBe(r.verdict.inRegime);
      if (!p.candidate?.inRegime) continue;
      const g = r.figures.agents.map((a) => a.greedy.value.toFixed(2)).join(' / ');
      const k = r.figures.agents.map((a) => a.seedOnlyKappa.value.toFixed(2)).join(' / ');
      const reach = r.figures.pairs.reduce((s, x) => s + x.reach.value, 0) / r.figures.pairs.length;
      for (const part of [`greedy ${g}`, `seed-only kappa ${k}`, `reach ${reach.toFixed(3)}`])
        expect(p.candidate.gates, name).toContain(part);
      expect(p.candidate.rule, name).toMatch(/\d of \d+ unseen base seeds/);
      expect(
        p.candidate.verdict ?? p.candidate.prereg,
        `${name}: a verdict or its registration`,
      ).toBeTruthy();
    }
  });

  it("admit a level only with four base seeds whose committed reads pass, the page's seed among them", () => {
    const rows = json('docs/data/regime/candidates-levels.json') as Read[];
    const levels = Object.values(REGIME_CANDIDATES).filter((p) => p.candidate?.prereg);
    expect(levels.length).toBeGreaterThan(0);
    for (const p of levels) {
      const mine = rows.filter((r) => r.name === p.name);
      const passing = mine.filter((r) => r.report.verdict.inRegime).map((r) => r.baseSeed);
      expect(passing.length, p.name).toBeGreaterThanOrEqual(4);
      expect(passing.slice(0, 4), p.name).toContain(p.agents[0].seed);
      // the yield the card states is the committed reads'
      expect(p.candidate!.rule, p.name).toContain(`${passing.length} of ${mine.length} unseen base seeds`);
    }
  });

  it('ship the builds of every preset in the regime, so choosing one trains at once', () => {
    for (const p of Object.values(REGIME_CANDIDATES).filter((x) => x.candidate?.inRegime))
      for (const spec of naturalPresetSpecs(p.name)) {
        const k = engineCacheKey(buildKey(spec, p.task), 'wasm');
        for (const ext of ['ckpt', 'sum'])
          expect(existsSync(join(SHIPPED_DIR, `${k}.${ext}`)), `${p.name} ${spec.id} ${k}.${ext}`).toBe(true);
      }
  });
});
