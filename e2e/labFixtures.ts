// Run files for the lab specs (issue 15): small synthetic Co-RL runs whose curves depend on the seed and
// the learning rate, built with the app's own buildRunFile so they pass the import checks.
import type { EvalRecord, StepRecord } from '../src/rl/records';
import { DEFAULT_RUN_SETTINGS, toExperimentConfig, type RunSettings } from '../src/store/runConfigSlice';
import { buildRunFile } from '../src/store/runFile';

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
