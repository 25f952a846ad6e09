// The natural presets the page offers are exactly the cohorts of experiments/natural-rl/*.json (name, task
// and agents), so the page and the sweep runner cannot drift; and their agents parse as axis specs.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildKey, contextErrors, parseAxisAgent } from './axes';
import {
  isNaturalPreset,
  NATURAL_PRESET_NAMES,
  NATURAL_PRESETS,
  naturalPreset,
  naturalPresetSpecs,
  REGIME_CANDIDATES,
} from './naturalPresets';

const DIR = join(__dirname, '../../experiments/natural-rl');
const files = readdirSync(DIR).filter((f) => f.endsWith('.json'));

describe('natural presets', () => {
  it('are the twelve configs of experiments/natural-rl, name, task and agents alike', () => {
    expect(files.length).toBe(12);
    const fromFiles = Object.fromEntries(
      files.map((f) => {
        const c = JSON.parse(readFileSync(join(DIR, f), 'utf8'));
        return [c.name, { task: c.task, agents: c.cohort.agents }];
      }),
    );
    const ours = Object.fromEntries(
      Object.values(NATURAL_PRESETS).map((p) => [p.name, { task: p.task, agents: p.agents }]),
    );
    expect(ours).toEqual(fromFiles);
    expect(Object.keys(NATURAL_PRESETS)).toHaveLength(12);
  });

  it('offer the regime candidates of experiments/regime/candidates, task, agents and rollout T alike', () => {
    const dir = join(__dirname, '../../experiments/regime/candidates');
    const cands = readdirSync(dir).filter((f) => f.endsWith('.json'));
    expect(cands.length).toBe(3);
    for (const f of cands) {
      const c = JSON.parse(readFileSync(join(dir, f), 'utf8'));
      const p = REGIME_CANDIDATES[c.name];
      expect(p, c.name).toBeDefined();
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

  it('give the candidates the builds their regime probes measured (the same cache keys)', () => {
    // the probes of docs/regime-search.md whose gates the candidates quote
    const probes: Record<string, string> = {
      'nearest-muladdw-different-family': 'muladdw22-paths3-s6000',
      'nearest-addw-different-arch': 'addw5-s3000',
      'regime-muladdw-different-family': 'capacity/muladdw33g-paths3-cap-xs24-s24000-seed19',
    };
    for (const [name, probe] of Object.entries(probes)) {
      const c = JSON.parse(
        readFileSync(join(__dirname, `../../experiments/regime/probes/${probe}.json`), 'utf8'),
      );
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

  it('call a candidate in the regime exactly when its committed gate read passes every gate', () => {
    const reads: Record<string, string> = {
      'regime-muladdw-different-family':
        'docs/data/regime/probes/capacity/muladdw33g-paths3-cap-xs24-s24000-seed19.json',
    };
    const nearest = JSON.parse(
      readFileSync(join(__dirname, '../../docs/data/regime/candidates.json'), 'utf8'),
    ) as { name: string; report: { verdict: { inRegime: boolean } } }[];
    for (const [name, p] of Object.entries(REGIME_CANDIDATES)) {
      const rows = reads[name]
        ? JSON.parse(readFileSync(join(__dirname, '../..', reads[name]), 'utf8'))
        : nearest.filter((r) => r.name === name);
      expect(rows, name).toHaveLength(1);
      expect(!!p.candidate?.inRegime, name).toBe(rows[0].report.verdict.inRegime);
    }
    expect(Object.values(REGIME_CANDIDATES).filter((p) => p.candidate?.inRegime)).toHaveLength(1);
  });

  it('each names its task, its level and what differs', () => {
    for (const p of Object.values(NATURAL_PRESETS)) {
      expect(p.name).toBe(`natural-${p.task.kind}-${p.level}`);
      expect(p.candidate).toBeUndefined();
      expect(p.differs.length).toBeGreaterThan(10);
    }
  });

  it('give axis specs with defaults filled and contexts that hold the task', () => {
    const s = naturalPresetSpecs('natural-addw-different-family-plus');
    expect(s).toEqual([
      { id: 'R', family: 'nat-rope', size: 's', seed: 1, view: 'plain' },
      { id: 'Cw', family: 'nat-chunk', size: 's', seed: 1, view: 'words' },
    ]);
    for (const n of NATURAL_PRESET_NAMES)
      for (const spec of naturalPresetSpecs(n)) {
        expect(spec.checkpoint).toBeUndefined();
        expect(contextErrors(spec, naturalPreset(n)!.task)).toEqual([]);
      }
    expect(naturalPresetSpecs('natural-muladdw-ring').map((x) => x.view)).toEqual([
      'plain',
      'plain',
      'reversed',
    ]);
    expect(naturalPresetSpecs('natural-addw-ring').map((x) => x.family)).toEqual([
      'nat-rope',
      'nat-chunk',
      'nat-deep',
    ]);
  });

  it('refuses an unknown name, listing the valid ones', () => {
    expect(isNaturalPreset('paper-demo')).toBe(false);
    expect(isNaturalPreset('toString')).toBe(false);
    expect(isNaturalPreset('natural-muladdw-ring')).toBe(true);
    expect(isNaturalPreset('nearest-addw-different-arch')).toBe(true);
    expect(() => naturalPresetSpecs('natural-x')).toThrow(/natural-addw-seed-only/);
  });
});
