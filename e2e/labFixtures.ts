// Run files for the lab specs (issue 15): small synthetic Co-RL runs whose curves depend on the seed and
// the learning rate, built with the app's own buildRunFile so they pass the import checks.
import type { EvalRecord, StepRecord } from '../src/rl/records';
import { DEFAULT_RUN_SETTINGS, toExperimentConfig, type RunSettings } from '../src/formats/runSettings';
import { buildRunFile } from '../src/formats/runFile';

/** A deterministic pseudo-random number in [-0.5, 0.5) from a seed and an index. */
function noise(seed: number, i: number): number {
  let x = Math.imul(seed * 7919 + i + 1, 0x9e3779b1);
  x = Math.imul(x ^ (x >>> 15), 0x85ebca6b);
  return ((x ^ (x >>> 13)) >>> 0) / 0x100000000 - 0.5;
}

const STEPS = 24;

/** The run file text of a synthetic run. */
export function syntheticRun(name: string, seed: number, lr = 1e-4): string {
  const settings: RunSettings = {
    ...DEFAULT_RUN_SETTINGS,
    methods: ['co-rl'],
    steps: STEPS,
    seed,
    lr,
    batchPrompts: 4,
    samples: 4,
    evalEvery: 2,
    evalProblems: 8,
  };
  const gain = lr * 2000; // a larger learning rate learns faster
  const steps: StepRecord[] = [];
  for (let s = 1; s <= STEPS; s++) {
    const agent = (id: string, k: number) => ({
      agent: id,
      rewardMean: 0.5,
      rewardStd: 0.5,
      rewardGroupStd: 0.4,
      rewardStdNorm: 1,
      rewardGroupStdNorm: 1 + 0.3 * noise(seed, s * 4 + k),
      zeroStdFraction: 0.4,
      pseudoLabelAccuracy: Math.min(1, 0.4 + 0.02 * gain * s + 0.2 * noise(seed, s * 8 + k)),
      trainedLabelAccuracy: 0.5,
      rewardAccuracy: 1,
      labeledFraction: 1,
      parseableFraction: 1,
      sampleAccuracy: 0.3,
      meanLength: 6 + noise(seed, s + 99),
      cutOffShare: 0,
      meanEntropy: 0.9 - 0.01 * s + 0.3 * noise(seed, s * 16 + k),
      kl: 0.001 * s,
      clipFraction: 0,
      gradNorm: 0.3,
      loss: 0,
      lr,
    });
    steps.push({
      method: 'co-rl',
      step: s,
      agents: [agent('A', 0), agent('B', 1)],
      pairs: [{ a: 'A', b: 'B', bothLabeled: 4, agreement: 0.5 + 0.3 * noise(seed, s) }],
      timing: { rollout: 0.1, forward: 0.1, update: 0.1, total: 0.3 },
    });
  }
  const evals: EvalRecord[] = [];
  for (let s = 0; s <= STEPS; s += 2) {
    const acc = Math.min(1, Math.max(0, 0.35 + 0.015 * gain * s + 0.15 * noise(seed, 500 + s)));
    const agent = (id: string) => ({
      agent: id,
      greedyAccuracy: acc,
      sampledAccuracy: acc,
      majAccuracy: acc,
      parseableFraction: 1,
    });
    evals.push({
      method: 'co-rl',
      step: s,
      problems: 8,
      agents: [agent('A'), agent('B')],
      meanGreedyAccuracy: acc,
      ensembleAccuracy: Math.min(1, acc + 0.05),
      oracleAccuracy: 1,
      seconds: 0.1,
    });
  }
  const file = buildRunFile(
    {
      runSettings: settings,
      runStatus: { step: STEPS, config: toExperimentConfig(settings) },
      metrics: { runId: 1, methods: ['co-rl'], steps: { 'co-rl': steps }, evals: { 'co-rl': evals } },
    },
    name,
    new Date(Date.UTC(2026, 10, 30, 12, seed)),
  );
  return JSON.stringify(file);
}

/** A file for setInputFiles. */
export const asFile = (name: string, text: string) => ({
  name,
  mimeType: 'application/json',
  buffer: Buffer.from(text),
});

/** A small sweep (3 cohorts x 2 seeds of Co-RL and TTRL): its report.json and two cell result files. */
export function syntheticSweep(): { report: string; cells: { name: string; text: string }[] } {
  const kappas = [0.2, 0.5, 0.8];
  const cells = kappas.flatMap((k, g) =>
    [1, 2].map((seed, s) => ({
      index: g * 2 + s,
      id: `c${g}s${seed}`,
      label: `cohort=${g} seed=${seed}`,
      status: 'done' as const,
      error: null,
      group: g,
      seed,
      completedSteps: 24,
      assign: { cohort: g, seed },
      methods: {
        'co-rl': { base: 0.4, final: 0.4 + 0.2 * (1 - k), gain: 0.2 * (1 - k) },
        ttrl: { base: 0.4, final: 0.38, gain: -0.02 },
      },
      metricsHash: null,
    })),
  );
  const st = (m: number) => ({ mean: m, sd: 0.01, min: m - 0.01, max: m + 0.01, n: 2 });
  const groups = kappas.map((k, g) => ({
    index: g,
    label: `cohort ${g}`,
    agents: [],
    sameFamily: g === 2,
    seeds: [1, 2],
    cells: [g * 2, g * 2 + 1],
    overlap: { kappa: k, c: 0.3, u: 0.7, w: 0.1, pairs: [] },
    methods: {
      'co-rl': {
        gain: st(0.2 * (1 - k)),
        final: null,
        rewardStdEnd: null,
        trainedLabelEnd: null,
        agentGain: {},
      },
      ttrl: { gain: st(-0.02), final: null, rewardStdEnd: null, trainedLabelEnd: null, agentGain: {} },
    },
    ensembles: { base: null, ttrl: null, 'co-rl': null },
  }));
  const claims = [
    [1, 'Co-RL beats the base agents', 'holds', 'on 3 of 3 cohorts'],
    [2, 'Co-RL beats every label-free baseline run', 'holds', '3 of 3 comparisons'],
    [3, 'different family beats same family', 'holds', 'different family +13.0 vs same family +4.0 points'],
    [4, 'gains are ordered by kappa', 'holds', 'Spearman rho -1.00 over 3 cohorts'],
    [
      5,
      'every agent of a 3-agent ring gains under Co-RL',
      'not tested',
      'no cohort of 3 or more agents ran co-rl',
    ],
    [6, 'the Co-RL ensemble beats the TTRL ensemble at matched budget', 'does not hold', 'on 1 of 3 cohorts'],
    [7, "TTRL's normalised within-group reward std ends below Co-RL's", 'holds', 'on 3 of 3 cohorts'],
  ].map(([n, claim, status, figure]) => ({ n, claim, status, figure, png: null }));
  const report = {
    format: 'co-rl-sweep-report/1',
    sweep: { name: 'kappa-demo', hash: 'abc123', axes: ['cohort', 'seed'], cells: cells.length },
    counts: { done: cells.length, failed: 0, missing: 0 },
    cells,
    groups,
    claims,
    timing: {},
  };
  const cellFile = (c: (typeof cells)[number]) => {
    const run = JSON.parse(syntheticRun(c.label, c.seed));
    const all = (o: Record<string, unknown[]>) => Object.values(o).flat();
    return {
      format: 'co-rl-sweep-cell/1',
      sweep: 'abc123',
      index: c.index,
      id: c.id,
      label: c.label,
      assign: c.assign,
      status: 'done',
      error: null,
      host: 'test',
      startedAt: run.savedAt,
      seconds: 1,
      result: {
        config: run.config,
        backend: 'cpu',
        startedAt: run.savedAt,
        seconds: 1,
        completedSteps: 24,
        steps: all(run.metrics.steps),
        evals: all(run.metrics.evals),
        summary: [],
        error: null,
      },
    };
  };
  return {
    report: JSON.stringify(report),
    cells: cells.slice(0, 2).map((c) => ({ name: `${c.id}.json`, text: JSON.stringify(cellFile(c)) })),
  };
}
