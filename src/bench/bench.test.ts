// Tests of the benchmark's plan and helpers: the preset's models and shapes, shape selection and the
// errors for unknown names, the plain triple loop against the CPU matmul, and the TF-free parts.
import { describe, expect, it } from 'vitest';
import { planFromArgs } from './benchPlan';
import { presetBenchModels } from './benchModels';
import { UnknownBenchNameError, median, modelMatmulShapes, naiveMatmul, selectShapes } from './benchSuite';
import { benchSftBatch } from './runBench';
import { matmulForward } from '../engine/cpu/matmul';
import { randn } from '../engine/parity/parityUtil';
import { splitAppArgs } from './firstPoint';
import { maxAbsDiff } from '../util/diff';

describe('bench plan', () => {
  it('measures every agent of the default preset at its real sizes', () => {
    const { plan } = planFromArgs([]);
    expect(plan.preset).toBe('paper-demo');
    expect(plan.models.map((m) => [m.agent, m.family, m.cfg.nEmbd, m.cfg.nLayer, m.cfg.pos])).toEqual([
      ['A', 'lp-nocarry', 24, 2, 'learned'],
      ['B', 'rope-carry', 32, 1, 'rope'],
    ]);
    const a = plan.models[0];
    expect(a.sft.T).toBeLessThanOrEqual(a.cfg.blockSize);
    expect(a.rl.Tp + a.rl.maxNew - 1).toBeLessThanOrEqual(a.cfg.blockSize);
    // 3 phases x 5 matmuls per agent; the shapes follow the config
    expect(plan.shapes).toHaveLength(30);
    const qkv = plan.shapes.find((s) => s.name === 'A.sft.qkv')!;
    expect(qkv).toEqual({ name: 'A.sft.qkv', N: a.sft.B * a.sft.T, C: 24, OC: 72, bias: true });
    const head = plan.shapes.find((s) => s.name === 'B.decode.lmhead')!;
    expect(head).toMatchObject({ N: 128, C: 32, OC: plan.models[1].cfg.vocabSize, bias: false });
    expect(plan.sftAgents).toEqual(['A', 'B']);
    expect(plan.wallClock).toBe(false);
    expect(planFromArgs(['--wall-clock', '--preset', 'ring']).plan.wallClock).toBe(true);
  });

  it('selects shapes by full name, prefix or op, and a shape subset times no step unless asked', () => {
    const all = presetBenchModels('paper-demo').flatMap(modelMatmulShapes);
    expect(selectShapes(all, 'A.sft.qkv').map((s) => s.name)).toEqual(['A.sft.qkv']);
    expect(selectShapes(all, 'B.decode').map((s) => s.name)).toEqual([
      'B.decode.qkv',
      'B.decode.attproj',
      'B.decode.fc',
      'B.decode.fcproj',
      'B.decode.lmhead',
    ]);
    expect(selectShapes(all, 'lmhead')).toHaveLength(6);
    expect(selectShapes(all, null)).toHaveLength(30);
    const { plan } = planFromArgs(['--shape', 'fc', '--preset', 'ring']);
    expect(plan.shapes.map((s) => s.name)).toEqual([
      'A.sft.fc',
      'A.decode.fc',
      'A.policy.fc',
      'B.sft.fc',
      'B.decode.fc',
      'B.policy.fc',
      'C.sft.fc',
      'C.decode.fc',
      'C.policy.fc',
    ]);
    expect(plan.sftAgents).toEqual([]);
    expect(planFromArgs(['--shape', 'fc', '--sft', 'B']).plan.sftAgents).toEqual(['B']);
  });

  it('rejects an unknown shape, preset, agent or count, listing what is valid', () => {
    const all = presetBenchModels('paper-demo').flatMap(modelMatmulShapes);
    expect(() => selectShapes(all, 'A.sft.qkvv,fc')).toThrow(UnknownBenchNameError);
    expect(() => selectShapes(all, 'A.sft.qkvv')).toThrow(
      /unknown shape "A.sft.qkvv"; valid: A.sft.qkv, A.sft.attproj/,
    );
    expect(() => planFromArgs(['--preset', 'nope'])).toThrow(/unknown preset "nope"; valid: .*paper-demo/);
    expect(() => planFromArgs(['--sft', 'A,Q'])).toThrow(/unknown agent "Q"; valid: A, B, all, none/);
    expect(() => planFromArgs(['--reps', '0'])).toThrow(/--reps must be an integer in \[1, 10000\], got "0"/);
    expect(() => planFromArgs(['--lean-steps', '5'])).toThrow(
      /--lean-steps must be 0 \(skip\) or an integer in \[11, 100000\]/,
    );
    expect(planFromArgs([]).plan.leanSteps).toBe(500);
    expect(planFromArgs(['--shape', 'A.sft']).plan.leanSteps).toBe(0);
    expect(planFromArgs(['--lean-steps', '20']).plan.leanSteps).toBe(20);
    expect(() => planFromArgs(['--cpu-only', '--gpu-only'])).toThrow(/exclude each other/);
    expect(() => planFromArgs(['--shapes', 'fc'])).toThrow(/unknown argument --shapes/);
  });
});

describe('bench helpers', () => {
  it('the triple loop and the CPU matmul agree (both sum in order from the bias)', () => {
    for (const [N, C, OC] of [
      [5, 7, 9],
      [320, 24, 72],
      [3, 96, 24],
    ]) {
      const inp = randn(N * C, 1);
      const w = randn(OC * C, 2);
      const b = randn(OC, 3);
      const a = new Float32Array(N * OC);
      const c = new Float32Array(N * OC);
      naiveMatmul(a, inp, w, b, N, C, OC);
      matmulForward(c, inp, w, b, N, C, OC);
      expect(maxAbsDiff(a, c)).toBe(0);
    }
  });

  it('median, maxAbsDiff and the SFT batch', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(maxAbsDiff([1, 2], [1, 2.5])).toBe(0.5);
    expect(maxAbsDiff([1, NaN], [1, 2])).toBe(Infinity);
    expect(maxAbsDiff([1], [1, 2])).toBe(Infinity);
    const m = presetBenchModels('paper-demo')[0];
    const batch = benchSftBatch(m);
    expect(batch.tokens).toHaveLength(m.sft.B * (m.sft.T + 1));
    expect(Math.max(...batch.tokens)).toBeLessThan(m.cfg.vocabSize);
    expect(batch.mask.reduce((s, x) => s + x, 0)).toBe(m.sft.B * (m.sft.T - m.rl.Tp + 1));
  });
});

describe('bench app section arguments', () => {
  it('runs by default, alone with --app-only, not with --no-app, and refuses both', () => {
    const all = ['firstPoint', 'pretrain'];
    expect(splitAppArgs(['--cpu-only'])).toEqual({
      rest: ['--cpu-only'],
      app: true,
      only: false,
      sections: all,
    });
    expect(splitAppArgs(['--app-only'])).toEqual({ rest: [], app: true, only: true, sections: all });
    expect(splitAppArgs(['--no-app', '--gpu-only'])).toEqual({
      rest: ['--gpu-only'],
      app: false,
      only: false,
      sections: all,
    });
    expect(() => splitAppArgs(['--app-only', '--no-app'])).toThrow(/exclude each other/);
  });

  it('runs the rows --app names, and refuses an unknown or missing one', () => {
    expect(splitAppArgs(['--app-only', '--app', 'pretrain', '--x'])).toEqual({
      rest: ['--x'],
      app: true,
      only: true,
      sections: ['pretrain'],
    });
    // the CPU-by-thread run only when named (its reader costs CPU the plain row's figure should not pay)
    expect(splitAppArgs(['--app', 'pretrain-threads']).sections).toEqual(['pretrain-threads']);
    expect(splitAppArgs(['--app', 'pretrain,firstPoint']).sections).toEqual(['pretrain', 'firstPoint']);
    expect(() => splitAppArgs(['--app', 'pretrain,bogus'])).toThrow(
      '--app needs a comma-separated list of firstPoint, pretrain, pretrain-threads; got "pretrain,bogus"',
    );
    expect(() => splitAppArgs(['--app'])).toThrow(/--app needs a comma-separated list .* got ""/);
  });
});
