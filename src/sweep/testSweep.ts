// The registered test sweep of experiments/regime/PREREG.md, written from its parts instead of by hand
// (docs/sweeps.md, "Registered sweeps"): per candidate preset (an experiment config of
// experiments/regime/candidates/) and base seed s, its agents with seed s (plus each one's offset from the first); per RL seed r, `seed` r; the
// five methods, the test split, the endpoint and evaluation the pre-registration fixes, and the train
// fields of gate B's chosen recipe applied over each preset's own. The first preset's cells are the grid
// (cohort.agents x seed), every other preset's are `include` cells that also set `task`, so one sweep holds
// both task kinds. With `cellPerMethod` each method is a cell of its own (a `methods` axis, innermost): the
// figures are the same (an experiment's streams never depend on the method, src/rl/experiment.ts), and a
// grid of long cells loses at most one method's run when interrupted. Pure: the caller reads the files and
// writes the result.
import { isObj } from '../schema';
import { planSweep } from './grid';
import { cellPresets } from '../formats/sweep/registration';

/** What the pre-registration fixes besides the presets and the recipe. */
export const TEST_PROTOCOL: TestProtocol = {
  name: 'regime-test',
  prereg: 'experiments/regime/PREREG.md',
  endpoint: 'sampled',
  steps: 300,
  methods: ['gt', 'co-rl', 'ttrl', 'random', 'co-rl-frozen'],
  baseSeeds: [1, 2, 3, 4],
  rlSeeds: [1, 2],
  eval: { every: 0, problems: 2000, split: 'test', ensembleSamples: 4, temperature: 0.6 },
};

/**
 * A registered test's fixed parts. A later pre-registration (its own file, its own base seeds, e.g. the
 * seeds whose pairs passed every gate) overrides `name`, `prereg` and `baseSeeds`; the rest is the same
 * protocol.
 */
export interface TestProtocol {
  name: string;
  prereg: string;
  endpoint: 'sampled' | 'greedy';
  steps: number;
  methods: readonly string[];
  baseSeeds: readonly number[];
  rlSeeds: readonly number[];
  eval: { every: number; problems: number; split: 'test'; ensembleSamples: number; temperature: number };
  /** One cell per method (base seed x RL seed x method) instead of one per base seed x RL seed. */
  cellPerMethod?: boolean;
}

/** TEST_PROTOCOL with a later pre-registration's name, file, base seeds and cell split. */
export function testProtocol(
  over: Partial<Pick<TestProtocol, 'name' | 'prereg' | 'baseSeeds' | 'cellPerMethod'>> = {},
): TestProtocol {
  const p = { ...TEST_PROTOCOL, ...over };
  const seeds = p.baseSeeds;
  if (
    seeds.length < 4 ||
    new Set(seeds).size !== seeds.length ||
    seeds.some((s) => !Number.isInteger(s) || s < 1)
  )
    throw new Error(
      `base seeds ${JSON.stringify(seeds)}: the test needs at least 4 distinct positive whole base seeds (docs/method.md, "The regime")`,
    );
  return p;
}

export interface TestPreset {
  /** The candidate's name (its file name), for the gate note. */
  name: string;
  /** The candidate's experiment config (task, cohort.agents, train). */
  config: Record<string, unknown>;
  /** The regime gates on validation, as measured before (false for both nearest presets). */
  gatesPass: boolean;
  note: string;
}

/** The chosen recipe: gate B's assignment, paths `train.<field>` to values. */
export type Recipe = Record<string, unknown>;

type Raw = Record<string, unknown>;

/**
 * The agents of `config` for base seed `s`: the first agent's seed set to `s`, and every other agent's to `s`
 * plus its own seed's offset from the first's in the candidate (0 for a pair pretrained on one seed; e.g. 100
 * for a same-family pair whose second agent has its own seed, docs/regime-levels.md).
 */
export function seeded(config: Raw, s: number): Raw[] {
  const agents = (config.cohort as { agents: Raw[] }).agents;
  const seedOf = (a: Raw): number => (typeof a.seed === 'number' ? a.seed : 0);
  const base = agents.length ? seedOf(agents[0]) : 0;
  return agents.map((a) => ({ ...structuredClone(a), seed: s + seedOf(a) - base }));
}

/** The train section: the preset's own, then the recipe's `train.*` fields over it. */
export function recipeTrain(config: Raw, recipe: Recipe): Raw {
  const train: Raw = { ...(isObj(config.train) ? structuredClone(config.train) : {}) };
  for (const [path, value] of Object.entries(recipe)) {
    const [section, field, ...more] = path.split('.');
    if (section !== 'train' || !field || more.length)
      throw new Error(
        `recipe ${path}: gate B chooses train fields only (train.lr, train.batchPrompts, ...), not ${path}`,
      );
    train[field] = value;
  }
  return train;
}

/** The registered test sweep over `presets` (first preset = the grid, others = include cells). */
export function registeredTestSweep(
  presets: readonly TestPreset[],
  recipe: Recipe,
  P: TestProtocol = TEST_PROTOCOL,
): Raw {
  if (!presets.length) throw new Error('the test sweep needs at least one preset');
  const trains = presets.map((p) => recipeTrain(p.config, recipe));
  // one train section for every cell: the presets share rollout temperature, K and the recipe
  const shared = JSON.stringify(trains[0]);
  const other = trains.findIndex((t) => JSON.stringify(t) !== shared);
  if (other > 0)
    throw new Error(
      `presets ${presets[0].name} and ${presets[other].name} train differently (${shared} vs ${JSON.stringify(trains[other])}): one sweep holds one train section`,
    );
  const [first, ...rest] = presets;
  // per method, one method list each: every cell's methods when split, else one list of all of them
  const methodLists = P.cellPerMethod ? P.methods.map((m) => [m]) : [[...P.methods]];
  const include = rest.flatMap((p) =>
    P.baseSeeds.flatMap((s) =>
      P.rlSeeds.flatMap((r) =>
        methodLists.map((methods) => ({
          task: structuredClone(p.config.task),
          'cohort.agents': seeded(p.config, s),
          seed: r,
          ...(P.cellPerMethod ? { methods } : {}),
        })),
      ),
    ),
  );
  const raw: Raw = {
    name: P.name,
    registered: true,
    prereg: P.prereg,
    endpoint: P.endpoint,
    gates: {},
    seed: P.rlSeeds[0],
    steps: P.steps,
    methods: methodLists[0],
    task: structuredClone(first.config.task),
    cohort: { agents: seeded(first.config, P.baseSeeds[0]) },
    train: trains[0],
    eval: { ...P.eval },
    grid: {
      'cohort.agents': P.baseSeeds.map((s) => seeded(first.config, s)),
      seed: [...P.rlSeeds],
      ...(P.cellPerMethod ? { methods: methodLists } : {}),
    },
    ...(include.length ? { include } : {}),
  };
  // the gates are keyed by the labels the sweep gives its presets: plan it unregistered to read them
  const plan = planSweep({ ...raw, registered: false, gates: undefined });
  if (!plan.ok) throw new Error(`the test sweep does not plan:\n${plan.errors.join('\n')}`);
  const labels = cellPresets(plan.plan.cells).map((c) => c.label);
  const per = P.baseSeeds.length * P.rlSeeds.length * methodLists.length;
  const gates: Record<string, { pass: boolean; note: string }> = {};
  presets.forEach((p, i) => (gates[labels[i * per]] = { pass: p.gatesPass, note: p.note }));
  if (Object.keys(gates).length !== presets.length || new Set(labels).size !== presets.length)
    throw new Error(
      `the test sweep's presets do not have one label each: ${[...new Set(labels)].join('; ')}`,
    );
  const out = { ...raw, gates };
  const check = planSweep(out);
  if (!check.ok) throw new Error(`the test sweep does not plan:\n${check.errors.join('\n')}`);
  return out;
}
