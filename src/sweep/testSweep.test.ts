// The registered test sweep written from the two candidate configs and a recipe: 2 presets x 4 base seeds x
// 2 RL seeds on the test split, the recipe over each preset's train, gates keyed by the labels the sweep's
// own verdict reads, and refusals for a recipe outside train and presets that train differently.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { planSweep } from './grid';
import { cellPresets } from '../formats/sweep/registration';
import { registeredTestSweep, TEST_PROTOCOL, testProtocol, type TestPreset } from './testSweep';

const candidate = (name: string): TestPreset => ({
  name,
  config: JSON.parse(readFileSync(`experiments/regime/candidates/${name}.json`, 'utf8')),
  gatesPass: false,
  note: `${name}: out of regime`,
});
const PRESETS = [candidate('nearest-muladdw-different-family'), candidate('nearest-addw-different-arch')];
const RECIPE = {
  'train.lr': 3e-5,
  'train.batchPrompts': 64,
  'train.beta': 0.05,
  'train.innerEpochs': 2,
  'train.scaleRewards': 'none',
};

describe('registeredTestSweep', () => {
  const raw = registeredTestSweep(PRESETS, RECIPE);
  const r = planSweep(raw);
  if (!r.ok) throw new Error(r.errors.join('\n'));
  const cells = r.plan.cells;

  it('plans 2 presets x 4 base seeds x 2 RL seeds, every cell on the test split with the five methods', () => {
    expect(cells).toHaveLength(16);
    for (const c of cells) {
      expect(c.config.methods).toEqual(['gt', 'co-rl', 'ttrl', 'random', 'co-rl-frozen']);
      expect(c.config.eval).toMatchObject({ split: 'test', problems: 2000, every: 0, ensembleSamples: 4 });
      expect(c.config.eval.temperature).toBe(0.6);
      expect(c.config.steps).toBe(300);
    }
    expect(r.plan.registration).toMatchObject({
      registered: true,
      prereg: TEST_PROTOCOL.prereg,
      endpoint: 'sampled',
    });
    const kinds = cells.map((c) => c.config.task?.kind);
    expect(kinds).toEqual([...Array(8).fill('muladdw'), ...Array(8).fill('addw')]);
    // each (preset, base seed, RL seed) once; both agents of a cell share the base seed
    const keys = cells.map(
      (c) => `${c.config.task?.kind} ${c.specs.map((a) => a.seed).join('/')} ${c.config.seed}`,
    );
    expect(new Set(keys).size).toBe(16);
    expect(keys).toContain('muladdw 4/4 2');
    expect(keys).toContain('addw 3/3 1');
  });

  it("applies the recipe over each preset's train and keeps the rollout temperature and K", () => {
    for (const c of cells)
      expect(c.config.train).toMatchObject({
        lr: 3e-5,
        batchPrompts: 64,
        beta: 0.05,
        innerEpochs: 2,
        scaleRewards: 'none',
        temperature: 0.5,
        samples: 8,
      });
  });

  it('keys the gates by the presets the verdict reads, one per preset, both out of regime', () => {
    const labels = [...new Set(cellPresets(cells).map((p) => p.label))];
    expect(Object.keys(r.plan.registration.gates).sort()).toEqual([...labels].sort());
    expect(labels).toHaveLength(2);
    expect(Object.values(r.plan.registration.gates).every((g) => g.pass === false)).toBe(true);
    // the base seeds fall within a preset: 8 cells each
    const by = cellPresets(cells).map((p) => p.label);
    for (const l of labels) expect(by.filter((x) => x === l)).toHaveLength(8);
  });

  it('refuses a recipe outside train, and presets whose train sections differ', () => {
    expect(() => registeredTestSweep(PRESETS, { 'eval.problems': 10 })).toThrow(
      /recipe eval\.problems: gate B chooses train fields only/,
    );
    const hot = { ...PRESETS[1], config: { ...PRESETS[1].config, train: { temperature: 1, samples: 8 } } };
    expect(() => registeredTestSweep([PRESETS[0], hot], RECIPE)).toThrow(/train differently/);
  });

  it("takes a later pre-registration's file, name and base seeds, and refuses fewer than 4 distinct seeds", () => {
    const P = testProtocol({
      prereg: 'experiments/regime/PREREG-X.md',
      name: 'regime-test-x',
      baseSeeds: [17, 18, 19, 20],
    });
    const x = planSweep(registeredTestSweep([{ ...PRESETS[0], gatesPass: true }], RECIPE, P));
    if (!x.ok) throw new Error(x.errors.join('\n'));
    expect(x.plan.cells).toHaveLength(8);
    expect(x.plan.registration.prereg).toBe('experiments/regime/PREREG-X.md');
    expect(x.plan.cells.map((c) => c.specs[0].seed)).toEqual([17, 17, 18, 18, 19, 19, 20, 20]);
    expect(Object.values(x.plan.registration.gates).map((g) => g.pass)).toEqual([true]);
    expect(() => testProtocol({ baseSeeds: [17, 18, 19] })).toThrow(
      /at least 4 distinct positive whole base seeds/,
    );
    expect(() => testProtocol({ baseSeeds: [17, 17, 18, 19] })).toThrow(/at least 4 distinct/);
    expect(() => testProtocol({ baseSeeds: [0, 1, 2, 3] })).toThrow(/at least 4 distinct/);
  });

  it('with cellPerMethod: a cell per method, innermost, every run of the whole-cell sweep once', () => {
    const P = testProtocol({ prereg: 'experiments/regime/PREREG-X.md', cellPerMethod: true });
    const x = planSweep(registeredTestSweep(PRESETS, RECIPE, P));
    if (!x.ok) throw new Error(x.errors.join('\n'));
    const split = x.plan.cells;
    expect(split).toHaveLength(80);
    expect(split.every((c) => c.config.methods.length === 1)).toBe(true);
    // the five methods of one preset, base seed and RL seed run one after another
    expect(split.slice(0, 5).map((c) => c.config.methods[0])).toEqual(TEST_PROTOCOL.methods);
    const run = (c: (typeof split)[number], m: string) =>
      `${c.config.task?.kind} ${c.specs.map((a) => a.seed).join('/')} ${c.config.seed} ${m}`;
    const whole = cells.flatMap((c) => c.config.methods.map((m) => run(c, m))).sort();
    expect(split.map((c) => run(c, c.config.methods[0])).sort()).toEqual(whole);
    // the same train, evaluation and gates as the whole-cell sweep's
    expect(split.every((c) => JSON.stringify(c.config.train) === JSON.stringify(cells[0].config.train))).toBe(
      true,
    );
    expect(x.plan.registration.gates).toEqual(r.plan.registration.gates);
  });

  it("keeps each agent's seed offset from the first (a same-family pair on two seeds), 0 for one seed", () => {
    const same = structuredClone(PRESETS[0]);
    const agents = (same.config.cohort as { agents: { seed: number }[] }).agents;
    agents[0].seed = 19;
    agents[1].seed = 119;
    const P = testProtocol({ prereg: 'experiments/regime/PREREG-X.md', baseSeeds: [16, 18, 19, 20] });
    const x = planSweep(registeredTestSweep([{ ...same, gatesPass: true }], RECIPE, P));
    if (!x.ok) throw new Error(x.errors.join('\n'));
    expect(x.plan.cells.map((c) => c.specs.map((a) => a.seed))).toEqual(
      [16, 16, 18, 18, 19, 19, 20, 20].map((s) => [s, s + 100]),
    );
    // the nearest presets pretrain both agents on one seed: the base seed for both
    expect(cells.every((c) => c.specs[0].seed === c.specs[1].seed)).toBe(true);
  });
});
