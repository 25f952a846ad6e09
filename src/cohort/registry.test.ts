// Registries of families, sizes, presets and regions: unknown names fail listing the valid ones; preset
// specs are complete and consistent; the pretraining pool never touches the eval split.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { makeTask, parseView, taskAlphabet, TaskConfigError } from '../tasks';
import { FAMILIES, FAMILY_NAMES, familyArch, familyGPTConfig, getFamily } from './families';
import { UnknownNameError } from './names';
import {
  DEFAULT_TASK,
  PRESETS,
  PRESET_NAMES,
  checkpointPath,
  getPreset,
  presetAgentSpecs,
  taskTag,
} from './presets';
import { REGION_NAMES, inRegion, makeDataPool, mixSampler, parseRegion } from './regions';
import { paramCount } from '../model/params';
import { agentLayout } from './pretrain';
import { deriveRng } from '../util/rng';

describe('unknown names list the valid ones', () => {
  it('preset', () => {
    expect(() => getPreset('sme-family')).toThrow(UnknownNameError);
    expect(() => presetAgentSpecs('nope')).toThrow(
      /unknown preset "nope"; valid names: same-family, different-family, different-family-plus, ring, paper-demo/,
    );
  });
  it('family and size', () => {
    expect(() => getFamily('gpt5')).toThrow(
      new RegExp(`unknown family "gpt5"; valid names: ${FAMILY_NAMES.join(', ')}`),
    );
    expect(() => familyArch(getFamily('lp-nocarry'), 'xl')).toThrow(
      /unknown size of family 'lp-nocarry' "xl"; valid names: s, m/,
    );
  });
  it('region', () => {
    expect(() => parseRegion('carries')).toThrow(new RegExp(`valid names: ${REGION_NAMES.join(', ')}`));
    expect(() => mixSampler([], [{ region: 'bogus' as never, weight: 1 }], deriveRng(1))).toThrow(
      /unknown region "bogus"/,
    );
  });
  it('view and task (from src/tasks)', () => {
    expect(() => parseView('upside-down')).toThrow(/valid views: plain, swap, words, reversed/);
    expect(() => makeTask({ kind: 'divide' } as never)).toThrow(TaskConfigError);
    expect(() => makeTask({ kind: 'divide' } as never)).toThrow(/valid kinds: add, mod, muladd, sort, count/);
  });
  it('the pretrain and overlap CLIs refuse an unknown preset, listing the valid names', () => {
    for (const cli of ['src/cli/pretrain.ts', 'src/cli/overlap.ts']) {
      const r = spawnSync(process.execPath, ['--import', 'tsx', cli, '--preset', 'nope'], {
        encoding: 'utf8',
      });
      expect(r.status, r.stderr).toBe(1);
      expect(r.stderr).toMatch(
        /unknown preset "nope"; valid names: same-family, different-family, different-family-plus, ring, paper-demo/,
      );
    }
  });
});

describe('families and presets', () => {
  it('every family builds a small model within the context budget at every size', () => {
    const task = makeTask(DEFAULT_TASK);
    const pool = makeDataPool(DEFAULT_TASK, 400);
    for (const f of Object.values(FAMILIES)) {
      const vocab = 3 + taskAlphabet(DEFAULT_TASK, [f.view]).length;
      const layout = agentLayout(task, f.view, pool.training);
      expect(layout.blockSize).toBeLessThanOrEqual(24);
      for (const size of Object.keys(f.sizes)) {
        const cfg = familyGPTConfig(f, size, vocab, layout.blockSize, 1);
        if (size === 's') expect(paramCount(cfg)).toBeLessThanOrEqual(30_000);
      }
      for (const m of f.recipe.mix) expect(REGION_NAMES).toContain(m.region);
    }
  });
  it('preset specs: unique ids, a view from the family, checkpoint paths from (task, family, size, seed)', () => {
    for (const name of PRESET_NAMES) {
      const specs = presetAgentSpecs(name);
      expect(new Set(specs.map((s) => s.id)).size).toBe(specs.length);
      for (const s of specs) {
        expect(s.view).toBe(getFamily(s.family).view);
        expect(s.checkpoint).toBe(checkpointPath(PRESETS[name].task, s.family, s.size, s.seed));
      }
    }
    expect(presetAgentSpecs('ring')).toHaveLength(3);
    const same = presetAgentSpecs('same-family');
    expect(same[0].family).toBe(same[1].family);
    expect(same[0].seed).not.toBe(same[1].seed);
    const diff = presetAgentSpecs('different-family');
    expect(familyArch(getFamily(diff[0].family), 's')).not.toEqual(
      familyArch(getFamily(diff[1].family), 's'),
    );
    const plus = presetAgentSpecs('different-family-plus');
    expect(plus[0].view).not.toBe(plus[1].view);
    expect(presetAgentSpecs('same-family', 7).map((s) => s.seed)).toEqual([7, 8]);
    expect(taskTag(DEFAULT_TASK)).toBe('add-d2');
    expect(taskTag({ kind: 'mod', op: '*', evalFraction: 0.3 })).toBe(
      'mod-d2-modulus7-optimes-evalFraction0.3',
    );
  });
});

describe('pretraining data', () => {
  it('pool-slice (the shipped engineered families): train+validation only, the slice disjoint from the training pool', () => {
    const pool = makeDataPool(DEFAULT_TASK, 400);
    const task = makeTask(DEFAULT_TASK);
    expect(pool.validation).toHaveLength(400);
    expect(pool.training.length + pool.validation.length).toBe(task.sizes.train + task.sizes.validation);
    const val = new Set(pool.validation.map((p) => p.key));
    expect(pool.training.some((p) => val.has(p.key))).toBe(false);
    expect([...pool.training, ...pool.validation].some((p) => task.splitOf(p.key) === 'test')).toBe(false);
    // the same pool for every call (independent of agents)
    expect(makeDataPool(DEFAULT_TASK, 400).validation.map((p) => p.key)).toEqual(
      pool.validation.map((p) => p.key),
    );
  });
  it('split (natural families): training from the train split only, validation = the validation split', () => {
    const pool = makeDataPool(DEFAULT_TASK, 400, 'split');
    const task = makeTask(DEFAULT_TASK);
    expect(pool.training).toHaveLength(task.sizes.train);
    expect(pool.training.every((p) => task.splitOf(p.key) === 'train')).toBe(true);
    expect(pool.validation.map((p) => p.key)).toEqual(task.heldOut('validation', 400).map((p) => p.key));
    expect(() => makeDataPool(DEFAULT_TASK, 5000, 'split')).toThrow(
      /up to the validation split's \d+ problems/,
    );
  });
  it('the mix sampler follows the region weights', () => {
    const pool = makeDataPool(DEFAULT_TASK, 400);
    const draw = mixSampler(
      pool.training,
      [
        { region: 'carry', weight: 0.9 },
        { region: 'no-carry', weight: 0.1 },
      ],
      deriveRng(5, 't'),
    );
    const xs = draw(4000);
    const share = xs.filter((p) => inRegion('carry', p)).length / xs.length;
    expect(share).toBeGreaterThan(0.87);
    expect(share).toBeLessThan(0.93);
    expect(() => mixSampler(pool.training, [{ region: 'carry', weight: 0 }], deriveRng(1))).toThrow(/weight/);
  });
});
