// Summaries (base / final / peak with its step, start/end windows) and the CSV views of run records.
import { describe, expect, it } from 'vitest';
import { csvCell, evalsCsv, stepsCsv, toCsv } from './csv';
import { evalSteps } from './experiment';
import type { AgentStepRecord, EvalRecord, StepRecord } from './records';
import { summarize, windowSize } from './summary';

const agentRec = (agent: string, pl: number | null, std: number): AgentStepRecord => ({
  agent,
  rewardMean: 0.5,
  rewardStd: std,
  rewardGroupStd: std,
  rewardStdNorm: std,
  rewardGroupStdNorm: std,
  zeroStdFraction: 0,
  pseudoLabelAccuracy: pl,
  trainedLabelAccuracy: pl,
  rewardAccuracy: 1,
  labeledFraction: 1,
  parseableFraction: 1,
  sampleAccuracy: 0.5,
  meanLength: 4,
  cutOffShare: 0,
  meanEntropy: 0.5,
  kl: 0,
  clipFraction: 0,
  gradNorm: 1,
  loss: 0,
  lr: 1e-4,
});
const step = (s: number, pl: number): StepRecord => ({
  method: 'co-rl',
  step: s,
  agents: [agentRec('A', pl, s === 1 ? 1 : 0.5)],
  pairs: [],
  timing: { rollout: 0, forward: 0, update: 0, total: 2 },
});
const ev = (s: number, acc: number): EvalRecord => ({
  method: 'co-rl',
  step: s,
  problems: 10,
  agents: [{ agent: 'A', greedyAccuracy: acc, sampledAccuracy: acc, majAccuracy: acc, parseableFraction: 1 }],
  meanGreedyAccuracy: acc,
  ensembleAccuracy: acc,
  oracleAccuracy: acc,
  seconds: 0,
});

describe('summaries', () => {
  it('evaluates at 0, every `every` steps and at the end', () => {
    expect(evalSteps(10, 4)).toEqual([0, 4, 8, 10]);
    expect(evalSteps(10, 0)).toEqual([0, 10]);
    expect(evalSteps(10, 5)).toEqual([0, 5, 10]);
  });

  it('windows are 10% of the steps, between 1 and 20', () => {
    expect([windowSize(3), windowSize(50), windowSize(1000)]).toEqual([1, 5, 20]);
  });

  it('reports base, final, peak with its step, and start/end means', () => {
    const steps = Array.from({ length: 20 }, (_, i) => step(i + 1, i < 2 ? 0.2 : i >= 18 ? 0.8 : 0.5));
    const [m] = summarize(['co-rl'], steps, [ev(0, 0.4), ev(10, 0.7), ev(20, 0.6)]);
    expect(m.agents[0].greedy).toEqual({ base: 0.4, final: 0.6, peak: 0.7, peakStep: 10 });
    expect(m.agents[0].pseudoLabelStart).toBeCloseTo(0.2);
    expect(m.agents[0].pseudoLabelEnd).toBeCloseTo(0.8);
    expect(m.agents[0].rewardGroupStdNormEnd).toBeCloseTo(0.5);
    expect(m.secondsPerStep).toBe(2);
  });
});

describe('csv', () => {
  it('quotes what needs quoting and leaves nulls empty', () => {
    expect([csvCell(null), csvCell('a,b'), csvCell('say "hi"'), csvCell(0.5)]).toEqual([
      '',
      '"a,b"',
      '"say ""hi"""',
      '0.5',
    ]);
    expect(toCsv(['x', 'y'], [[1, null]])).toBe('x,y\n1,\n');
  });

  it('has one row per (method, step, agent) and an ensemble row per evaluation', () => {
    expect(
      stepsCsv([step(1, 0.5)])
        .trim()
        .split('\n'),
    ).toHaveLength(2);
    const e = evalsCsv([ev(0, 0.5)])
      .trim()
      .split('\n');
    expect(e).toHaveLength(3);
    expect(e[2].startsWith('co-rl,0,ensemble,')).toBe(true);
  });
});
