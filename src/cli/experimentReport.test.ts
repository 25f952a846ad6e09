// The seed tables of `npm run plot` (src/cli/experimentReport.ts): the ensemble row names the votes it
// pools, E samples per agent x N agents, from the runs (maj@8 for a pair, maj@12 for a ring of 3 at E = 4).
import { describe, expect, it } from 'vitest';
import type { ExperimentResult } from '../rl/experiment';
import { formatSeedTables } from './experimentReport';

const curve = (base: number, final: number) => ({ base, final, peak: final, peakStep: 10 });
const run = (ids: string[], E: number, seed = 1): ExperimentResult =>
  ({
    config: { seed, methods: ['co-rl'], eval: { ensembleSamples: E } },
    completedSteps: 10,
    seconds: 5,
    backend: 'cpu',
    summary: [
      {
        method: 'co-rl',
        agents: ids.map((agent) => ({
          agent,
          greedy: curve(0.5, 0.6),
          pseudoLabelStart: 0.4,
          pseudoLabelEnd: 0.5,
          trainedLabelStart: 0.4,
          trainedLabelEnd: 0.5,
          rewardGroupStdNormEnd: 1,
          zeroStdFractionEnd: 0.2,
        })),
        meanGreedy: curve(0.5, 0.6),
        ensemble: curve(0.55, 0.65),
      },
    ],
  }) as unknown as ExperimentResult;

const ensembleRow = (md: string) => md.split('\n').find((l) => l.startsWith('| co-rl | ensemble'));

describe('seed tables', () => {
  it('labels the ensemble with E x N pooled votes', () => {
    expect(ensembleRow(formatSeedTables([run(['A', 'B'], 4), run(['A', 'B'], 4, 2)]))).toMatch(
      /^\| co-rl \| ensemble maj@8 \| 55\.0 \| 65\.0 \/ 65\.0 \|/,
    );
    expect(ensembleRow(formatSeedTables([run(['A', 'B', 'C'], 4)]))).toMatch(
      /^\| co-rl \| ensemble maj@12 \|/,
    );
    expect(ensembleRow(formatSeedTables([run(['A', 'B'], 2)]))).toMatch(/^\| co-rl \| ensemble maj@4 \|/);
  });

  it('refuses runs that pooled different budgets', () => {
    expect(() => formatSeedTables([run(['A', 'B'], 4), run(['A', 'B', 'C'], 4, 2)])).toThrow(
      /the runs pooled different ensemble budgets \(seed 1: maj@8, seed 2: maj@12\)/,
    );
  });
});
