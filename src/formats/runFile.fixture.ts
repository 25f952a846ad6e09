// A small but complete run (two methods, two agents, three steps, four evaluations) for tests of run
// files and of the input fuzzing: every record field filled, some nulls, optional fields present.
import type { EvalRecord, StepRecord } from '../rl/records';
import type { RewardMethod } from '../rl/rewards';
import type { RunMetrics } from './runMetrics';
import { DEFAULT_RUN_SETTINGS, toExperimentConfig, type RunSettings } from './runSettings';
import { buildRunFile, type RunFile } from './runFile';

export const settings: RunSettings = {
  ...DEFAULT_RUN_SETTINGS,
  methods: ['co-rl', 'ttrl'],
  steps: 3,
  batchPrompts: 2,
  samples: 2,
  evalEvery: 1,
  evalProblems: 4,
};

export function stepRec(method: RewardMethod, step: number): StepRecord {
  const agent = (id: string) => ({
    agent: id,
    rewardMean: 0.5,
    rewardStd: 0.5,
    rewardGroupStd: 0.4,
    rewardStdNorm: step === 1 ? 1 : 0.9,
    rewardGroupStdNorm: null,
    zeroStdFraction: 0.5,
    pseudoLabelAccuracy: 0.5,
    trainedLabelAccuracy: method === 'co-rl' || method === 'co-rl-frozen' ? 0.5 : null,
    rewardAccuracy: 1,
    labeledFraction: 1,
    parseableFraction: 1,
    sampleAccuracy: 0.25,
    meanLength: 6.5,
    cutOffShare: 0,
    meanEntropy: 0.8,
    kl: step === 1 ? 0 : 1e-4,
    clipFraction: 0,
    gradNorm: 0.3,
    loss: -0.01,
    lr: 1e-4,
  });
  return {
    method,
    step,
    agents: [agent('A'), agent('B')],
    pairs: [{ a: 'A', b: 'B', bothLabeled: 2, agreement: 0.5 }],
    timing: { rollout: 0.1, forward: 0.05, update: 0.2, total: 0.35 },
    examples: [
      {
        agent: 'A',
        prompt: '12+3=',
        truth: '15',
        completions: ['15', '14'],
        answers: ['15', null],
        rewards: [1, 0],
        vote: '15',
      },
    ],
  };
}
export function evalRec(method: RewardMethod, step: number): EvalRecord {
  return {
    method,
    step,
    problems: 4,
    seconds: 0.2,
    meanGreedyAccuracy: 0.5,
    ensembleAccuracy: 0.75,
    oracleAccuracy: 1,
    agents: [
      {
        agent: 'A',
        greedyAccuracy: 0.5,
        sampledAccuracy: 0.4,
        majAccuracy: 0.5,
        parseableFraction: 1,
        greedyAnswers: ['1', null, '3', '4'],
        greedyCorrect: '1010',
      },
      { agent: 'B', greedyAccuracy: 0.5, sampledAccuracy: 0.4, majAccuracy: 0.5, parseableFraction: 1 },
    ],
  };
}
export const metrics: RunMetrics = {
  runId: 7,
  methods: ['co-rl', 'ttrl'],
  steps: {
    'co-rl': [1, 2, 3].map((s) => stepRec('co-rl', s)),
    ttrl: [1, 2, 3].map((s) => stepRec('ttrl', s)),
  },
  evals: {
    'co-rl': [0, 1, 2, 3].map((s) => evalRec('co-rl', s)),
    ttrl: [0, 1, 2, 3].map((s) => evalRec('ttrl', s)),
  },
};
/** The run file of the sample run. */
export const good = (): RunFile =>
  buildRunFile(
    { runSettings: settings, runStatus: { step: 3, config: toExperimentConfig(settings) }, metrics },
    'tiny run',
    new Date('2025-01-02T03:04:05Z'),
  );
