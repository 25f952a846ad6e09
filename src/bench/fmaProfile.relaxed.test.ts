// The fma profile's pure parts (src/bench/fmaProfile.ts, src/bench/fmaKernels.ts): the ablation kernels built
// from wasm/profile/fmaAblation.ts, plain and relaxed. In the vitest project relaxed-simd (Node runs with the
// relaxed-SIMD flag; the relaxed build does not validate without it).
import { describe, expect, it } from 'vitest';
import { type MatmulShape, matmulInputs, naiveMatmul } from './benchSuite';
import {
  MATMUL_MODES,
  checkProfileShape,
  profileInstance,
  profileModules,
  profileOutput,
  runAblation,
  runShipped,
} from './fmaKernels';
import { FMA_PROFILE_SHAPES, fmaProfileShapes, fmaRatios } from './fmaProfile';
import { planFromArgs } from './benchPlan';
import { maxAbsDiff } from '../util/diff';

const SHAPE: MatmulShape = { name: 'test', N: 12, C: 13, OC: 16, bias: false }; // C not a multiple of 4; 2 panels
const modules = profileModules();

describe('fma profile kernels', () => {
  it('computes the matmul with more accumulators, plain and relaxed, as the CPU reference does', async () => {
    // 10, 12 and 17 rows: whole 6 x 8 and 8 x 8 blocks and 1 to 5 leftover rows
    for (const N of [10, 12, 17]) {
      const s = { ...SHAPE, N };
      const d = matmulInputs(s);
      const ref = new Float32Array(s.N * s.OC);
      naiveMatmul(ref, d.inp, d.weight, null, s.N, s.C, s.OC);
      for (const m of ['ablation-simd', 'ablation-relaxed'] as const) {
        const p = await profileInstance(m, (await modules)[m], s, d.inp, d.weight);
        for (const mode of MATMUL_MODES) {
          new Float32Array(p.memory.buffer).fill(NaN, p.at.out / 4, p.at.out / 4 + s.N * s.OC);
          runAblation(p, mode);
          expect(maxAbsDiff(profileOutput(p), ref), `${m} ${mode} N=${N}`).toBeLessThan(1e-5);
        }
      }
    }
  });

  it('times the shipped kernel over the same panels (its output is the matmul too)', async () => {
    const d = matmulInputs(SHAPE);
    const ref = new Float32Array(SHAPE.N * SHAPE.OC);
    naiveMatmul(ref, d.inp, d.weight, null, SHAPE.N, SHAPE.C, SHAPE.OC);
    for (const m of ['shipped-simd', 'shipped-relaxed'] as const) {
      const p = await profileInstance(m, (await modules)[m], SHAPE, d.inp, d.weight);
      runShipped(p);
      expect(maxAbsDiff(profileOutput(p), ref), m).toBeLessThan(1e-5);
    }
  });

  it('reads in the loads-only kernel exactly the values the 4 x 8 kernel reads', async () => {
    const s: MatmulShape = { ...SHAPE, N: 8, C: 5 };
    const d = matmulInputs(s);
    const p = await profileInstance('ablation-simd', (await modules)['ablation-simd'], s, d.inp, d.weight);
    runAblation(p, 'loads');
    const bits = (x: Float32Array): Uint32Array => new Uint32Array(x.buffer, x.byteOffset, x.length);
    const inp = bits(d.inp);
    const w = bits(d.weight);
    const got = new Uint32Array(p.memory.buffer, p.at.out, s.N * s.OC);
    for (let n = 0; n < s.N; n += 4)
      for (let o = 0; o < s.OC; o += 8)
        for (let lane = 0; lane < 4; lane++) {
          let x = 0; // xor of panel lanes o+lane and o+4+lane and the 4 rows' inputs, over c
          for (let c = 0; c < s.C; c++) {
            x ^= w[(o + lane) * s.C + c] ^ w[(o + 4 + lane) * s.C + c];
            for (let r = 0; r < 4; r++) x ^= inp[(n + r) * s.C + c];
          }
          expect(got[n * s.OC + o + lane] >>> 0, `row ${n} col ${o + lane}`).toBe(x >>> 0);
        }
  });

  it('refuses a shape the 4 x 8 drivers cannot walk, naming it', () => {
    expect(() => checkProfileShape({ ...SHAPE, OC: 12 })).toThrow(/OC a multiple of 8.*test is 12x13x12/);
    expect(() => checkProfileShape({ ...SHAPE, N: 10 })).toThrow(/N a multiple of 4/);
  });
});

describe('fma profile plan', () => {
  it("profiles the default preset's shapes and refuses models without them", () => {
    const { plan } = planFromArgs([]);
    expect(fmaProfileShapes(plan.models).map((s) => s.name)).toEqual([...FMA_PROFILE_SHAPES]);
    const renamed = plan.models.map((m) => ({ ...m, agent: `${m.agent}2` }));
    expect(() => fmaProfileShapes(renamed)).toThrow(/this preset has no A.policy.fc, .*drop --preset/);
  });

  it('takes its ratios from the variants’ times', () => {
    const ms = {
      plain: 10,
      relaxed: 8,
      loads: 7,
      'arith8-plain': 9,
      'arith8-relaxed': 8,
      'arith4-plain': 9,
      'arith4-relaxed': 12,
      '6x8-plain': 20,
      '6x8-relaxed': 16,
      '8x8-plain': 12.5,
      '8x8-relaxed': 5,
      pack: 0.5,
    };
    expect(fmaRatios(ms)).toMatchObject({
      relaxedVsPlain: 1.25,
      loadsOfPlain: 0.7,
      arithOfPlain: 0.9,
      arithOfRelaxed: 1,
      arith4VsArith8Relaxed: 1.5,
      mm6x8RelaxedVsPlain: 0.625,
      mm8x8RelaxedVsPlain: 2,
      mm8x8PlainVsPlain: 0.8,
      packOfPlain: 0.05,
    });
  });
});
