// Sweep configs: paths, the cartesian product with include/exclude, resume keys, and the bad input the
// issue lists (unknown path listing the valid ones, empty grid, duplicate cells, invalid cell config);
// agents by axes pointed at their cache entries, keyed by every axis and the engine.
import { describe, expect, it } from 'vitest';
import { buildKey } from '../cohort/axes';
import { planSweep, type SweepPlan } from './grid';
import { formatPath, parsePath, setAt } from './paths';

const BASE = {
  name: 't',
  steps: 2,
  methods: ['co-rl', 'ttrl'],
  cohort: { preset: 'paper-demo' },
  train: { batchPrompts: 4, samples: 2 },
  eval: { every: 0, problems: 20, ensembleSamples: 1 },
};
const plan = (extra: Record<string, unknown>): SweepPlan => {
  const r = planSweep({ ...BASE, ...extra });
  if (!r.ok) throw new Error(r.errors.join('\n'));
  return r.plan;
};
const errorsOf = (extra: Record<string, unknown>): string[] => {
  const r = planSweep({ ...BASE, ...extra });
  if (r.ok) throw new Error('expected the sweep to be refused');
  return r.errors;
};

describe('paths', () => {
  it('parses dots and both index spellings to the validator form', () => {
    expect(parsePath('cohort.agents[1].seed')).toEqual(['cohort', 'agents', 1, 'seed']);
    expect(formatPath(parsePath('cohort.agents.1.seed'))).toBe('cohort.agents[1].seed');
    expect(() => parsePath('train..lr')).toThrow(/malformed grid path/);
    expect(setAt({ a: { b: 1 } }, ['a', 'c'], 2)).toEqual({ a: { b: 1, c: 2 } });
    expect(setAt({ seed: 1 }, ['seed', 'x'], 2)).toBeNull();
  });
});

describe('planSweep', () => {
  it('expands the product (first axis slowest), applies exclude then include, and keys cells by config hash', () => {
    const p = plan({
      grid: { 'cohort.preset': ['paper-demo', 'ring'], seed: [1, 2, 3] },
      exclude: [{ 'cohort.preset': 'ring', seed: 2 }],
      include: [{ 'cohort.preset': 'same-family', seed: 9 }],
    });
    expect(p.cells.map((c) => c.label)).toEqual([
      'cohort.preset=paper-demo, seed=1',
      'cohort.preset=paper-demo, seed=2',
      'cohort.preset=paper-demo, seed=3',
      'cohort.preset=ring, seed=1',
      'cohort.preset=ring, seed=3',
      'cohort.preset=same-family, seed=9',
    ]);
    expect(p.cells[4].config.seed).toBe(3);
    expect(p.cells[4].specs.map((s) => s.id)).toEqual(['A', 'B', 'C']);
    expect(new Set(p.cells.map((c) => c.id)).size).toBe(6);
    // the key is the resolved config: the same cell in another sweep has the same id
    const q = plan({ grid: { seed: [3], 'cohort.preset': ['ring'] } });
    expect(q.cells[0].id).toBe(p.cells[4].id);
    expect(q.hash).not.toBe(p.hash);
  });

  it('varies nested fields, methods, whole tasks and agent lists; cohort.agents replaces a preset', () => {
    const agents = [
      {
        id: 'A',
        family: 'rope-carry',
        size: 's',
        seed: 1,
        view: 'plain',
        checkpoint: 'checkpoints/add-d2/rope-carry.s.s1.ckpt',
      },
      {
        id: 'B',
        family: 'rope-carry',
        size: 's',
        seed: 2,
        view: 'plain',
        checkpoint: 'checkpoints/add-d2/rope-carry.s.s2.ckpt',
      },
    ];
    const p = plan({
      grid: { 'train.lr': [1e-4, 3e-4], methods: [['co-rl'], ['ttrl', 'gt']], 'cohort.agents': [agents] },
      task: { kind: 'add', digits: 2 },
    });
    expect(p.cells).toHaveLength(4);
    expect(p.cells[1].config.methods).toEqual(['ttrl', 'gt']);
    expect(p.cells[2].config.train.lr).toBe(3e-4);
    expect(p.cells[0].config.cohort).toEqual({ agents });
    expect(p.cells[0].label).toContain('cohort.agents=A:rope-carry.s.s1+B:rope-carry.s.s2');
  });

  it('refuses an unknown grid path, listing the valid ones', () => {
    const e = errorsOf({ grid: { 'train.lrr': [1e-4], seed: [1] } });
    expect(e).toHaveLength(1);
    expect(e[0]).toMatch(/^grid\.train\.lrr: unknown path \(valid paths: .*\)$/);
    for (const p of [
      'train.lr',
      'seed',
      'cohort.preset',
      'cohort.agents',
      'eval.problems',
      'task.digits',
      'methods',
    ])
      expect(e[0]).toContain(p);
    expect(errorsOf({ grid: { 'task.digitz': [2] } })[0]).toMatch(/grid\.task\.digitz: unknown path/);
    expect(errorsOf({ grid: { 'seed.x': [2] } })[0]).toMatch(/grid\.seed\.x: unknown path/);
  });

  it('refuses an empty grid and an empty axis', () => {
    expect(errorsOf({ grid: {} })[0]).toMatch(/^grid: must be a non-empty object of axes/);
    expect(errorsOf({})[0]).toMatch(/^grid: must be a non-empty object/);
    expect(errorsOf({ grid: { seed: [] } })[0]).toMatch(
      /^grid\.seed: must be a non-empty list of values.*empty sweep/,
    );
    expect(errorsOf({ grid: { seed: [1] }, exclude: [{ seed: 1 }] })).toEqual([
      'grid: the sweep has no cells (every cell is excluded)',
    ]);
  });

  it('refuses duplicate cells: a value listed twice, or an include equal to a grid cell', () => {
    expect(errorsOf({ grid: { seed: [1, 2, 1] } })).toEqual([
      'grid.seed: value 1 listed twice (duplicate cells)',
    ]);
    const e = errorsOf({ grid: { seed: [1, 2] }, include: [{ seed: 2 }] });
    expect(e).toEqual([
      'cell 2 (seed=2): the same experiment as cell 1 (seed=2); duplicate cells (check include and the axis values)',
    ]);
    // a grid value equal to the default is the same experiment as the base cell
    expect(errorsOf({ grid: { 'train.lr': [1e-4] }, include: [{}] })[0]).toMatch(
      /cell 1 \(\(base\)\): the same experiment as cell 0/,
    );
  });

  it('names the cell and the field of every invalid cell config', () => {
    const e = errorsOf({ grid: { 'train.lr': [1e-4, 'fast'], 'cohort.preset': ['ring', 'nope'] } });
    expect(e).toEqual([
      expect.stringMatching(
        /^cell 1 \(train\.lr=0\.0001, cohort\.preset=nope\): cohort: unknown preset "nope"/,
      ),
      'cell 2 (train.lr=fast, cohort.preset=ring): train.lr: must be a number in (0, 1], got "fast"',
      expect.stringMatching(/^cell 3 \(train\.lr=fast, cohort\.preset=nope\): train\.lr: must be a number/),
      expect.stringMatching(/^cell 3 \(train\.lr=fast, cohort\.preset=nope\): cohort: unknown preset/),
    ]);
    expect(errorsOf({ grid: { seed: [1] }, exclude: [{ steps: 2 }] })).toEqual([
      'exclude[0].steps: not a grid axis (axes: seed)',
    ]);
  });
});

describe('the sweep engine', () => {
  it('defaults to wasm, takes cpu, keys cells by engine and refuses an unknown one', () => {
    const grid = { seed: [1, 2] };
    const wasm = plan({ grid });
    const cpu = plan({ grid, backend: 'cpu' });
    expect(wasm.backend).toBe('wasm');
    expect(cpu.backend).toBe('cpu');
    // the same experiments on another engine are other results: other resume keys
    expect(wasm.cells.map((c) => c.id)).not.toEqual(cpu.cells.map((c) => c.id));
    expect(plan({ grid, backend: 'wasm' }).cells.map((c) => c.id)).toEqual(wasm.cells.map((c) => c.id));
    // the relaxed-SIMD kernel variant is another engine: ids differ from both wasm's and cpu's
    const relaxed = plan({ grid, backend: 'wasm-relaxed' }).cells.map((c) => c.id);
    for (const other of [wasm, cpu]) expect(relaxed).not.toEqual(other.cells.map((c) => c.id));
    expect(errorsOf({ grid, backend: 'webgpu' })).toEqual([
      'backend: must be one of wasm, cpu, wasm-relaxed (default wasm), got "webgpu"',
    ]);
  });
});

describe('agents by axes in a sweep', () => {
  const task = { kind: 'addw', digits: 2 } as const;
  // JSON-like: each agent its own objects (structuredClone keeps shared references shared)
  const agent = (id: string) => ({
    id,
    family: 'nat-rope',
    arch: { nLayer: 1, nEmbd: 16 },
    corpus: { draw: 'random', size: 300 },
  });
  const axis = (extra: Record<string, unknown>) =>
    plan({ task, methods: ['co-rl'], cohort: { agents: [agent('A'), agent('B')] }, ...extra });

  it("points each agent at its cache entry for the sweep's engine; an axis or the engine changes the cell id", () => {
    const p = axis({ grid: { 'cohort.agents[0].corpus.size': [300, 400] } });
    const spec = (size: number) => ({
      ...agent('A'),
      corpus: { draw: 'random' as const, size },
      size: 's',
      seed: 1,
      view: 'plain' as const,
    });
    const [k300, k400] = [300, 400].map((n) => buildKey(spec(n), task));
    expect(k300).not.toBe(k400);
    expect(p.cells.map((c) => c.specs.map((s) => s.checkpoint))).toEqual([
      [`@cache/${k300}-wasm.ckpt`, `@cache/${k300}-wasm.ckpt`],
      [`@cache/${k400}-wasm.ckpt`, `@cache/${k300}-wasm.ckpt`],
    ]);
    // the two cells differ only in A's corpus.size: other experiments, other ids
    expect(p.cells[0].id).not.toBe(p.cells[1].id);
    expect(p.cells[1].specs[0]).toMatchObject({ id: 'A', size: 's', seed: 1, view: 'plain' }); // defaults filled
    // on the CPU reference the entries keep the bare key, and the ids change again
    const cpu = axis({ grid: { 'cohort.agents[0].corpus.size': [300, 400] }, backend: 'cpu' });
    expect(cpu.cells[1].specs[0].checkpoint).toBe(`@cache/${k400}.ckpt`);
    expect(cpu.cells[1].id).not.toBe(p.cells[1].id);
    // planning twice gives the same ids (the resume key is stable)
    expect(axis({ grid: { 'cohort.agents[0].corpus.size': [300, 400] } }).cells.map((c) => c.id)).toEqual(
      p.cells.map((c) => c.id),
    );
  });

  it('refuses a bad axis of any cell, naming the cell and the field, as the experiment CLI does', () => {
    const r = planSweep({
      ...BASE,
      task,
      methods: ['co-rl'],
      cohort: { agents: [agent('A'), agent('B')] },
      grid: { 'cohort.agents[1].family': ['nat-rope', 'gpt5'], 'cohort.agents[0].arch.nLayer': [1, 0] },
    });
    expect(r.ok).toBe(false);
    const e = (r as { errors: string[] }).errors;
    expect(e).toHaveLength(4); // cell 3 has both problems
    expect(e[0]).toBe(
      'cell 1 (cohort.agents[1].family=nat-rope, cohort.agents[0].arch.nLayer=0): cohort.agents[0].arch.nLayer: must be an integer in [1, 12], got 0',
    );
    expect(e[1]).toMatch(
      /^cell 2 \(cohort\.agents\[1\]\.family=gpt5, cohort\.agents\[0\]\.arch\.nLayer=1\): cohort\.agents\[1\]\.family: unknown family "gpt5"; valid families: .*nat-rope/,
    );
    expect(e[2]).toMatch(/^cell 3 .*\): cohort\.agents\[0\]\.arch\.nLayer: must be an integer/);
    expect(e[3]).toMatch(/^cell 3 .*\): cohort\.agents\[1\]\.family: unknown family "gpt5"/);
  });
});
