// Gate B's rule on synthetic cell records: each threshold from both sides, the choice of the largest GT
// gain with ties to the smaller learning rate, and cells that failed.
import { describe, expect, it } from 'vitest';
import type { CellRecord } from '../formats/sweep/records';
import {
  combineGateB,
  formatCombinedGateB,
  formatGateB,
  gateB,
  methodGain,
  methodMaxKl,
  methodZeroStdAtStart,
} from './gateB';

interface Fig {
  gt: number;
  random: number;
  kl: number;
}

/** A cell with base accuracy 0.5 and the given gains; random's KL rises to `kl` at the last step. */
function cell(assign: Record<string, unknown>, f: Fig, status: 'done' | 'failed' = 'done'): CellRecord {
  const ev = (method: string, step: number, acc: number) => ({
    method,
    step,
    problems: 100,
    agents: [],
    meanGreedyAccuracy: acc,
    ensembleAccuracy: 0,
    oracleAccuracy: 0,
    seconds: 0,
  });
  const st = (method: string, step: number, kl: number | null) => ({
    method,
    step,
    agents: [{ kl }, { kl: kl === null ? null : kl / 2 }],
    pairs: [],
    timing: {},
  });
  return {
    format: 'x',
    sweep: 'h',
    index: 0,
    id: JSON.stringify(assign),
    label: JSON.stringify(assign),
    assign,
    status,
    error: null,
    host: 'h',
    startedAt: '',
    seconds: 1,
    result:
      status === 'failed'
        ? null
        : ({
            config: { seed: assign.seed },
            evals: [
              ev('gt', 0, 0.5),
              ev('gt', 300, 0.5 + f.gt),
              ev('random', 0, 0.5),
              ev('random', 300, 0.5 + f.random),
            ],
            steps: [st('random', 1, 0), st('random', 2, null), st('random', 300, (f.kl * 4) / 3)],
          } as unknown as CellRecord['result']),
  };
}

const two = (a: Record<string, unknown>, f: Fig, g: Fig = f): CellRecord[] => [
  cell({ ...a, seed: 1 }, f),
  cell({ ...a, seed: 2 }, g),
];

describe('gate B', () => {
  it('reads gains and the largest agent-mean KL of a cell', () => {
    const c = cell({ 'train.lr': 1e-5, seed: 1 }, { gt: 0.12, random: -0.01, kl: 0.03 });
    expect(methodGain(c, 'gt')).toBeCloseTo(0.12, 12);
    expect(methodGain(c, 'co-rl')).toBeNull();
    expect(methodMaxKl(c, 'random')).toBeCloseTo(0.03, 12); // mean of 0.04 and 0.02
  });

  it('a recipe passes only when every threshold holds, each failing from its own side', () => {
    const ok = { gt: 0.11, random: 0.015, kl: 0.04 };
    const r = gateB([
      ...two({ 'train.lr': 1 }, ok),
      ...two({ 'train.lr': 2 }, { ...ok, gt: 0.099 }),
      ...two({ 'train.lr': 3 }, { ...ok, random: -0.021 }),
      ...two({ 'train.lr': 4 }, { ...ok, random: 0.021 }),
      ...two({ 'train.lr': 5 }, { ...ok, kl: 0.051 }),
    ]);
    const by = Object.fromEntries(r.rows.map((x) => [x.assign['train.lr'] as number, x]));
    expect(by[1].pass).toBe(true);
    expect(by[2].why).toEqual(['GT gains 9.9 points (< 10)']);
    expect(by[3].why).toEqual(['random moves -2.1 points (more than 2)']);
    expect(by[4].why).toEqual(['random moves 2.1 points (more than 2)']);
    expect(by[5].why).toEqual(['random KL 0.051 (> 0.05)']);
    expect(r.chosen?.assign['train.lr']).toBe(1);
  });

  it('means over seeds decide: one good seed does not carry a bad one', () => {
    const r = gateB(two({ 'train.lr': 1 }, { gt: 0.2, random: 0, kl: 0 }, { gt: 0.2, random: 0.05, kl: 0 }));
    expect(r.rows[0].seeds).toEqual([1, 2]);
    expect(r.rows[0].randomGain).toBeCloseTo(0.025, 12);
    expect(r.rows[0].pass).toBe(false);
    expect(r.chosen).toBeNull();
    expect(formatGateB(r)).toMatch(/No recipe passes gate B/);
  });

  it('the largest GT gain wins; a tie within 0.1 point goes to the smaller learning rate', () => {
    const f = (gt: number) => ({ gt, random: 0, kl: 0.01 });
    expect(
      gateB([...two({ 'train.lr': 3e-5 }, f(0.15)), ...two({ 'train.lr': 1e-5 }, f(0.12))]).chosen?.assign,
    ).toEqual({
      'train.lr': 3e-5,
    });
    const tie = gateB([...two({ 'train.lr': 3e-5 }, f(0.1505)), ...two({ 'train.lr': 1e-5 }, f(0.15))]);
    expect(tie.chosen?.assign).toEqual({ 'train.lr': 1e-5 });
    expect(formatGateB(tie)).toMatch(/^\| recipe \| seeds/);
    expect(formatGateB(tie)).toMatch(/Chosen: train.lr=0.00001 \(GT 15.0 points/);
  });

  it('failed cells are listed and left out of the means', () => {
    const r = gateB([
      ...two({ 'train.lr': 1 }, { gt: 0.12, random: 0, kl: 0 }),
      cell({ 'train.lr': 1, seed: 3 }, { gt: 0, random: 0, kl: 0 }, 'failed'),
    ]);
    expect(r.missing).toHaveLength(1);
    expect(r.rows[0].seeds).toEqual([1, 2]);
    expect(formatGateB(r)).toMatch(/Cells failed or missing/);
  });

  it('over two grids a recipe passes only where it passes on both; the largest mean GT gain wins', () => {
    const f = (gt: number, random = 0) => ({ gt, random, kl: 0.01 });
    // lr 1: best on the first grid, fails on the second; lr 2 passes both; lr 3 passes both, lower mean
    const a = gateB([
      ...two({ 'train.lr': 1 }, f(0.3)),
      ...two({ 'train.lr': 2 }, f(0.14)),
      ...two({ 'train.lr': 3 }, f(0.12)),
    ]);
    const b = gateB([
      ...two({ 'train.lr': 1 }, f(0.3, 0.05)),
      ...two({ 'train.lr': 2 }, f(0.12)),
      ...two({ 'train.lr': 3 }, f(0.13)),
    ]);
    expect(a.chosen?.assign).toEqual({ 'train.lr': 1 });
    const c = combineGateB([
      { name: 'muladdw', report: a },
      { name: 'addw', report: b },
    ]);
    const by = Object.fromEntries(c.rows.map((x) => [x.assign['train.lr'] as number, x]));
    expect(by[1].pass).toBe(false);
    expect(by[2].gtGain).toBeCloseTo(0.13, 12);
    expect(by[3].gtGain).toBeCloseTo(0.125, 12);
    expect(c.chosen?.assign).toEqual({ 'train.lr': 2 });
    expect(formatCombinedGateB(c)).toMatch(
      /\| train.lr=1 \| pass \(GT 30.0\) \| fail \(GT 30.0\) \| 30.0 \| fail \|/,
    );
    // a recipe with no result on one grid yet neither passes nor has a mean
    const partial = combineGateB([
      { name: 'muladdw', report: a },
      { name: 'addw', report: gateB(two({ 'train.lr': 3 }, f(0.13))) },
    ]);
    expect(partial.rows.find((x) => x.assign['train.lr'] === 2)).toMatchObject({ gtGain: null, pass: false });
    expect(partial.chosen?.assign).toEqual({ 'train.lr': 3 });
    expect(formatCombinedGateB(combineGateB([{ name: 'x', report: gateB([]) }]))).toMatch(
      /No recipe passes gate B on every grid/,
    );
  });

  it("GT's zero-spread share at step 1 is read from GT's step 1 only, agent mean then seed mean, and decides nothing", () => {
    const withZero = (c: CellRecord, z: [number, number], late: [number, number]): CellRecord => {
      const steps = (c.result as unknown as { steps: unknown[] }).steps;
      const rec = (step: number, zz: [number, number]) => ({
        method: 'gt',
        step,
        agents: zz.map((zeroStdFraction) => ({ kl: 0, zeroStdFraction })),
        pairs: [],
        timing: {},
      });
      // random's step 1 carries a share too: it must not be read as GT's
      steps.push(rec(1, z), rec(300, late), { ...rec(1, [0.99, 0.99]), method: 'random' });
      return c;
    };
    const f = { gt: 0.12, random: 0, kl: 0.01 };
    const [a, b] = two({ 'train.lr': 1 }, f);
    withZero(a, [0.6, 0.8], [0, 0]);
    withZero(b, [0.5, 0.5], [1, 1]);
    expect(methodZeroStdAtStart(a, 'gt')).toBeCloseTo(0.7, 12);
    expect(methodZeroStdAtStart(a, 'co-rl')).toBeNull();
    const r = gateB([a, b]);
    expect(r.rows[0].gtZeroStd).toBeCloseTo(0.6, 12);
    expect(r.rows[0].pass).toBe(true); // a diagnostic: the same verdict as without it
    expect(formatGateB(r)).toMatch(/\| 0.010 \| 60 \| pass \|/);
    const none = gateB(two({ 'train.lr': 1 }, f));
    expect(none.rows[0].gtZeroStd).toBeNull();
    expect(formatGateB(none)).toMatch(/\| 0.010 \| - \| pass \|/);
  });
});
