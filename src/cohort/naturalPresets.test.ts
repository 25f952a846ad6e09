// The natural presets the page offers are exactly the cohorts of experiments/natural-rl/*.json (name, task
// and agents), so the page and the sweep runner cannot drift; and their agents parse as axis specs.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { contextErrors } from './axes';
import {
  isNaturalPreset,
  NATURAL_PRESET_NAMES,
  NATURAL_PRESETS,
  naturalPreset,
  naturalPresetSpecs,
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
