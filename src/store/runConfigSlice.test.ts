// Tests for the run settings: defaults from src/rl/config.ts, the experiment config they describe (valid),
// problems named per field, co-rl refused for a one-agent preset, method toggling in display order.
import { describe, expect, it } from 'vitest';
import { create } from 'zustand';
import { DEFAULT_TRAIN, parseExperimentConfig } from '../rl/config';
import { resolveCohortRef } from '../rl/cohortEnv';
import { createRunConfigSlice, type RunConfigSlice } from './runConfigSlice';
import {
  DEFAULT_RUN_SETTINGS,
  settingsProblems,
  toExperimentConfig,
  type RunSettings,
} from '../formats/runSettings';

describe('run settings', () => {
  it('defaults give a valid experiment config with the trainer defaults', () => {
    const c = toExperimentConfig(DEFAULT_RUN_SETTINGS);
    expect(c.train).toEqual({ ...DEFAULT_TRAIN });
    expect(c.methods).toEqual(['co-rl', 'ttrl', 'gt']);
    const r = parseExperimentConfig(c, { resolveCohort: resolveCohortRef });
    expect(r.ok).toBe(true);
    expect(settingsProblems(DEFAULT_RUN_SETTINGS, 2)).toEqual({});
  });

  it('names the field of every problem', () => {
    const p = settingsProblems({ ...DEFAULT_RUN_SETTINGS, samples: 1, lr: 0, evalEvery: -1, methods: [] }, 2);
    expect(p.samples).toMatch(/>= 2/);
    expect(p.lr).toMatch(/\(0, 1\]/);
    expect(p.evalEvery).toMatch(/integer/);
    expect(p.methods).toMatch(/at least one/);
    expect(settingsProblems({ ...DEFAULT_RUN_SETTINGS, steps: 2.5 }).steps).toMatch(/integer/);
    expect(settingsProblems(DEFAULT_RUN_SETTINGS, 1).methods).toMatch(/co-rl needs at least 2 agents/);
    const frozen = { ...DEFAULT_RUN_SETTINGS, methods: ['ttrl', 'co-rl-frozen'] as RunSettings['methods'] };
    expect(settingsProblems(frozen, 1).methods).toMatch(/co-rl-frozen needs at least 2 agents.*has 1/);
    expect(settingsProblems(frozen, 2).methods).toBeUndefined();
    expect(settingsProblems({ ...frozen, teacher: 'self_plus_peers' }, 3).teacher).toMatch(
      /'self_plus_peers' is not available for co-rl-frozen/,
    );
  });

  it('accepts the four backends and names a bad one under backend', () => {
    expect(DEFAULT_RUN_SETTINGS.backend).toBe('auto');
    for (const backend of ['auto', 'webgpu', 'wasm', 'cpu'] as const)
      expect(settingsProblems({ ...DEFAULT_RUN_SETTINGS, backend }, 2)).toEqual({});
    const bad = { ...DEFAULT_RUN_SETTINGS, backend: 'gpu' } as unknown as typeof DEFAULT_RUN_SETTINGS;
    expect(settingsProblems(bad, 2)).toEqual({
      backend: 'backend must be one of auto, webgpu, wasm, cpu; got "gpu"',
    });
  });

  it('toggles methods and keeps the display order', () => {
    const store = create<RunConfigSlice>()((...a) => createRunConfigSlice(...a));
    store.getState().toggleMethod('ttrl');
    store.getState().toggleMethod('random');
    store.getState().toggleMethod('ttrl');
    expect(store.getState().runSettings.methods).toEqual(['co-rl', 'ttrl', 'gt', 'random']);
    store.getState().setRunSettings({ lr: 3e-4 });
    expect(store.getState().runSettings.lr).toBe(3e-4);
    expect(DEFAULT_RUN_SETTINGS.lr).toBe(DEFAULT_TRAIN.lr); // defaults never mutated
  });
});
