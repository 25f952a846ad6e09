// The registered part of a sweep report on synthetic cell records (a real plan of 3 base seeds x 2 RL
// seeds, hand-made evaluations): presets by cohort without the agents' seeds, base seed by the agents'
// seed, RL seed by `seed`; base from step 0 and final from the last evaluation in both endpoints; the
// verdict and the pre-registration citation in report.json and report.md.
import { describe, expect, it } from 'vitest';
import type { AgentSpec } from '../cohort/agent';
import type { EvalRecord } from '../rl/records';
import type { RewardMethod } from '../rl/rewards';
import { summarize } from '../rl/summary';
import { planSweep, type SweepPlan } from './grid';
import { buildReport } from '../formats/sweep/report';
import { reportMarkdown } from './reportMd';
import { cellPresets } from '../formats/sweep/registration';
import { verdictRuns } from '../formats/sweep/registered';
import { manifestOf } from './store';
import { type CellRecord } from '../formats/sweep/records';

const agents = (seed: number) => [
  {
    id: 'R',
    family: 'nat-rope',
    size: 's',
    seed,
    view: 'plain' as const,
    checkpoint: `checkpoints/addw-d3/nat-rope.s.s${seed}.ckpt`,
  },
  {
    id: 'D',
    family: 'nat-deep',
    size: 's',
    seed,
    view: 'plain' as const,
    checkpoint: `checkpoints/addw-d3/nat-deep.s.s${seed}.ckpt`,
  },
];
const PRESET = 'R:nat-rope.s+D:nat-deep.s';
const PREREG = 'experiments/regime/PREREG.md';
const RAW = {
  name: 'registered',
  steps: 10,
  methods: ['co-rl', 'gt'],
  task: { kind: 'addw', digits: 3 },
  cohort: { agents: agents(1) },
  eval: { every: 0, problems: 100 },
  registered: true,
  endpoint: 'greedy',
  prereg: PREREG,
  gates: { [PRESET]: { pass: true, note: 'A1-A5, B on validation' } },
  grid: { 'cohort.agents': [agents(1), agents(2), agents(3)], seed: [1, 2] },
};
const STAMP = { path: PREREG, commit: 'c'.repeat(40), blob: 'b'.repeat(40) };
// gain per base seed (index 0..2); RL seed 2 is 0.004 above RL seed 1, so the mean over RL seeds is +0.002
const GAIN: Record<string, number[]> = {
  'co-rl': [0.02, 0.03, 0.04],
  gt: [0.089, 0.099, 0.109],
  'co-rl-frozen': [0.0, 0.01, 0.02],
};

function evalAt(method: string, step: number, greedy: number, sampled: number): EvalRecord {
  return {
    method: method as RewardMethod,
    step,
    problems: 100,
    agents: ['R', 'D'].map((agent, i) => ({
      agent,
      greedyAccuracy: greedy + (i ? 0.01 : -0.01),
      sampledAccuracy: sampled + (i ? 0.02 : -0.02),
      majAccuracy: greedy,
      parseableFraction: 1,
    })),
    meanGreedyAccuracy: greedy,
    ensembleAccuracy: greedy,
    oracleAccuracy: greedy,
    seconds: 0,
  };
}

/** A done record of cell `index`: every method of GAIN, or (`own`) the cell's own methods only. */
function record(plan: SweepPlan, index: number, stamp = true, own = false): CellRecord {
  const c = plan.cells[index];
  const b = (c.config.cohort as { agents: AgentSpec[] }).agents[0].seed - 1;
  const r = c.config.seed === 2 ? 0.004 : 0;
  const methods: string[] = own ? c.config.methods : Object.keys(GAIN);
  // greedy base 0.5 + 0.01 per base seed; sampled: 0.4 and twice the greedy gain
  const evals = methods.flatMap((m) => [
    evalAt(m, 0, 0.5 + 0.01 * b, 0.4),
    evalAt(m, 5, 0.5, 0.4),
    evalAt(m, 10, 0.5 + 0.01 * b + GAIN[m][b] + r, 0.4 + 2 * (GAIN[m][b] + r)),
  ]);
  return {
    format: 'co-rl-sweep-cell/1',
    sweep: plan.hash,
    index,
    id: c.id,
    label: c.label,
    assign: c.assign,
    status: 'done',
    error: null,
    host: 'test',
    startedAt: '',
    seconds: 1,
    result: {
      config: { ...c.config, methods: methods as RewardMethod[] }, // co-rl-frozen: a method name as a string
      backend: 'cpu',
      startedAt: '',
      seconds: 1,
      completedSteps: 10,
      steps: [],
      evals,
      summary: summarize(methods as RewardMethod[], [], evals),
      error: null,
    },
    ...(stamp ? { prereg: STAMP } : {}),
  };
}

function setup(raw: Record<string, unknown> = RAW) {
  const r = planSweep(raw);
  if (!r.ok) throw new Error(r.errors.join('\n'));
  return { plan: r.plan, manifest: manifestOf(r.plan, raw) };
}

describe('presets and base seeds of cells', () => {
  it("group cells by cohort without the agents' seeds; the base seed is the agents' seed", () => {
    const { plan } = setup();
    expect(plan.cells).toHaveLength(6);
    const p = cellPresets(plan.cells);
    expect(new Set(p.map((x) => x.label))).toEqual(new Set([PRESET]));
    expect(p.map((x) => x.baseSeed)).toEqual(['1', '1', '2', '2', '3', '3']);
    const mixed = cellPresets([
      { config: { ...plan.cells[0].config, cohort: { agents: [agents(1)[0], agents(2)[1]] } }, assign: {} },
    ]);
    expect(mixed[0].baseSeed).toBe('1/2');
  });
});

describe('the registered report', () => {
  it('reads base at step 0 and final at the last evaluation, averages RL seeds, and gives the verdict', () => {
    const { plan, manifest } = setup();
    const recs = plan.cells.map((_, i) => record(plan, i));
    const { runs, problems } = verdictRuns(manifest, recs);
    expect(problems).toEqual([]);
    expect(runs.greedy).toHaveLength(18);
    const one = runs.greedy.find((x) => x.method === 'co-rl' && x.baseSeed === '2' && x.rlSeed === 2)!;
    expect(one.base).toBeCloseTo(0.51, 12);
    expect(one.final).toBeCloseTo(0.51 + 0.03 + 0.004, 12);
    const rep = buildReport(manifest, recs);
    const v = rep.registered!.verdicts;
    expect(v.map((x) => [x.preset, x.verdict])).toEqual([[PRESET, 'shown']]);
    expect(v[0].methods['co-rl'].gain.mean).toBeCloseTo(0.032, 12);
    expect(v[0].methods['co-rl'].seeds).toEqual({ '1': 2, '2': 2, '3': 2 });
    expect(v[0].methods['co-rl'].base.mean).toBeCloseTo(0.51, 12);
    expect(v[0].coRlMinusFrozen!.mean).toBeCloseTo(0.02, 12);
    expect(v[0].secondary.methods['co-rl'].gain.mean).toBeCloseTo(0.064, 12); // sampled: twice the gain
    expect(v[0].gate).toEqual({ pass: true, note: 'A1-A5, B on validation' });
    expect(rep.registered!.endpoint).toBe('greedy');
    expect(rep.prereg).toEqual({ ...STAMP, cells: 6, others: [] });
    const md = reportMarkdown(rep, []);
    expect(md).toContain(`Pre-registration: \`${PREREG}\` at commit \`${STAMP.commit}\``);
    expect(md).toMatch(
      new RegExp(
        `\\| ${PRESET.replace(/\+/g, '\\+')} \\| pass: A1-A5, B on validation \\| \\*\\*shown\\*\\* \\| \\+3\\.2 \\[`,
      ),
    );
  });

  it('the sampled endpoint as primary, a failed gate, a cell without stamp and a missing cell', () => {
    const raw = { ...RAW, endpoint: 'sampled', gates: { [PRESET]: { pass: false } } };
    const { plan, manifest } = setup(raw);
    const recs = plan.cells.slice(0, 5).map((_, i) => record(plan, i, i !== 3));
    const rep = buildReport(manifest, recs);
    const g = rep.registered!;
    expect(g.endpoint).toBe('sampled');
    expect(g.verdicts[0].verdict).toBe('out of regime');
    expect(g.verdicts[0].methods['co-rl'].gain.n).toBe(3);
    expect(g.verdicts[0].secondary.methods['co-rl'].seeds).toEqual({ '1': 2, '2': 2, '3': 1 });
    expect(g.problems).toEqual(['1 of 6 cells are not done: the verdicts read the others']);
    expect(rep.prereg).toEqual({ ...STAMP, cells: 4, others: [{ index: 3, commit: null, blob: null }] });
    expect(reportMarkdown(rep, [])).toContain('**1 cell did not run under it**: cell 3 (no stamp)');
  });

  it('one method a cell (a methods axis, as regime-test-config --cell-per-method writes): the same verdict', () => {
    const whole = setup({ ...RAW, methods: Object.keys(GAIN) });
    const split = setup({
      ...RAW,
      methods: ['gt'],
      grid: { ...RAW.grid, methods: Object.keys(GAIN).map((m) => [m]) },
    });
    expect(split.plan.cells).toHaveLength(18);
    expect(new Set(split.plan.cells.map((c) => c.config.methods.join()))).toEqual(new Set(Object.keys(GAIN)));
    const a = buildReport(
      whole.manifest,
      whole.plan.cells.map((_, i) => record(whole.plan, i, true, true)),
    );
    const b = buildReport(
      split.manifest,
      split.plan.cells.map((_, i) => record(split.plan, i, true, true)),
    );
    expect(b.registered!.problems).toEqual([]);
    expect(b.registered!.verdicts).toEqual(a.registered!.verdicts);
    expect(b.registered!.verdicts[0].verdict).toBe('shown');
    expect(b.prereg).toEqual({ ...STAMP, cells: 18, others: [] });
  });

  it('a sweep that is not registered has no verdicts; one without prereg no citation', () => {
    const { registered: _r, prereg: _p, endpoint: _e, gates: _g, ...plain } = RAW;
    const { plan, manifest } = setup(plain);
    const rep = buildReport(manifest, [record(plan, 0, false)]);
    expect(rep.registered).toBeNull();
    expect(rep.prereg).toBeNull();
    expect(reportMarkdown(rep, [])).not.toContain('Registered verdicts');
  });
});
