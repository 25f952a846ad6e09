// `npm run -s bench -- --wasm-only --wasm fma-profile` (issue 20): where the forward matmul kernel's time goes,
// by ablation, since this machine has no hardware counters (`perf stat` reports them unsupported). At a few
// preset shapes, in the same alternating rounds: the shipped broadcast kernel (mmT4x8 via matmulForwardT,
// weight packed once) plain and relaxed; its loads alone; its multiply-adds alone on register-resident values
// (8 chains as shipped, and the same work in 4 chains); the kernel with more accumulators (6 x 8 and 8 x 8
// blocks), plain and relaxed, checked against the CPU reference; the weight packing the engine does before each
// call; and a dependent chain of vector adds, whose latency is the profile's clock-free unit of time. Method: docs/performance.md.
import {
  type BenchModel,
  type MatmulShape,
  matmulInputs,
  median,
  modelMatmulShapes,
  naiveMatmul,
} from './benchSuite';
import {
  type AblationMode,
  type ProfileInstance,
  type ProfileModule,
  checkProfileShape,
  enableRelaxedSimd,
  profileInstance,
  profileModules,
  profileOutput,
  runAblation,
  runAddChain,
  runPack,
  runShipped,
} from './fmaKernels';
import { maxAbsDiff } from '../util/diff';

/** The preset shapes profiled (the default preset's; each runs only 4 x 8 blocks in matmulForwardT). */
export const FMA_PROFILE_SHAPES = ['A.policy.fc', 'B.policy.qkv', 'B.policy.fc', 'B.sft.fc'] as const;

interface VariantSpec {
  id: string;
  module: ProfileModule;
  /** 'shipped' and 'pack' call the shipped exports; the others are ablation modes. */
  kind: 'shipped' | 'pack' | AblationMode;
  what: string;
}

/** The variants, in the order of a round's first pass (later rounds rotate it). */
export const FMA_VARIANTS: readonly VariantSpec[] = [
  { id: 'plain', module: 'shipped-simd', kind: 'shipped', what: 'mmT4x8 as shipped, mul + add' },
  { id: 'relaxed', module: 'shipped-relaxed', kind: 'shipped', what: 'mmT4x8 as shipped, FMA' },
  { id: 'loads', module: 'ablation-simd', kind: 'loads', what: "mmT4x8's loads only, xor-folded" },
  {
    id: 'arith8-plain',
    module: 'ablation-simd',
    kind: 'arith8',
    what: "mmT4x8's 8 mul + add a step, no loads",
  },
  {
    id: 'arith8-relaxed',
    module: 'ablation-relaxed',
    kind: 'arith8',
    what: "mmT4x8's 8 FMA a step, no loads",
  },
  { id: 'arith4-plain', module: 'ablation-simd', kind: 'arith4', what: 'the same mul + add in 4 chains' },
  { id: 'arith4-relaxed', module: 'ablation-relaxed', kind: 'arith4', what: 'the same FMA in 4 chains' },
  {
    id: '6x8-plain',
    module: 'ablation-simd',
    kind: 'mm6x8',
    what: '6 x 8 blocks (12 accumulators), mul + add',
  },
  {
    id: '6x8-relaxed',
    module: 'ablation-relaxed',
    kind: 'mm6x8',
    what: '6 x 8 blocks (12 accumulators), FMA',
  },
  {
    id: '8x8-plain',
    module: 'ablation-simd',
    kind: 'mm8x8',
    what: '8 x 8 blocks (16 accumulators), mul + add',
  },
  {
    id: '8x8-relaxed',
    module: 'ablation-relaxed',
    kind: 'mm8x8',
    what: '8 x 8 blocks (16 accumulators), FMA',
  },
  {
    id: 'pack',
    module: 'shipped-simd',
    kind: 'pack',
    what: 'packPanels (the engine packs before each call)',
  },
];

export interface FmaVariantFigure {
  id: string;
  what: string;
  /** Best sample's milliseconds per call (contention only adds time), and the median of all samples. */
  ms: number;
  medianMs: number;
  /** The matmul's 2 N C OC flops over `ms` (for the ablations: the rate if the removed part were free). */
  gflops: number;
  /** Time of one step of C of a 4 x 8 block (8 vector multiply-adds) in dependent vector adds: cycles over the
   * add latency (2 cycles on AMD Zen 5, 3 on Zen 2-4 and Intel since Skylake), free of the clock. */
  addLatenciesPerStep: number;
  /** Largest |difference| from the CPU reference where the variant computes the matmul, else null. */
  maxAbsDiff: number | null;
}

export interface FmaShapeProfile extends MatmulShape {
  callsPerSample: number;
  variants: FmaVariantFigure[];
  /** Time ratios from the same rounds (see fmaRatios). */
  ratios: Record<string, number>;
}

/** The profile's time ratios of one shape from its variants' best times (> 1: the first is slower). */
export function fmaRatios(ms: Readonly<Record<string, number>>): Record<string, number> {
  const r = (a: string, b: string): number => ms[a] / ms[b];
  return {
    relaxedVsPlain: r('plain', 'relaxed'), // the shipped speed-up of FMA
    loadsOfPlain: r('loads', 'plain'), // the loads alone, as a share of the plain kernel's time
    arithOfPlain: r('arith8-plain', 'plain'), // the multiply-adds alone, as a share
    arithOfRelaxed: r('arith8-relaxed', 'relaxed'),
    arith8RelaxedVsPlain: r('arith8-plain', 'arith8-relaxed'), // FMA on pure arithmetic
    arith4VsArith8Plain: r('arith4-plain', 'arith8-plain'), // > 1: 4 chains expose the latency
    arith4VsArith8Relaxed: r('arith4-relaxed', 'arith8-relaxed'),
    mm6x8RelaxedVsPlain: r('plain', '6x8-relaxed'), // variant 5 against the shipped plain kernel
    mm8x8RelaxedVsPlain: r('plain', '8x8-relaxed'),
    mm6x8PlainVsPlain: r('plain', '6x8-plain'),
    mm8x8PlainVsPlain: r('plain', '8x8-plain'),
    packOfPlain: r('pack', 'plain'),
  };
}

/** The default preset's models' profiled shapes; a preset without them is refused with the fix. */
export function fmaProfileShapes(models: readonly BenchModel[]): MatmulShape[] {
  const all = models.flatMap(modelMatmulShapes);
  const found = FMA_PROFILE_SHAPES.map((n) => all.find((s) => s.name === n));
  const missing = FMA_PROFILE_SHAPES.filter((_, i) => !found[i]);
  if (missing.length)
    throw new Error(
      `the fma profile runs at ${FMA_PROFILE_SHAPES.join(', ')}; this preset has no ${missing.join(', ')} ` +
        '(run it with the default preset: drop --preset)',
    );
  for (const s of found) checkProfileShape(s!);
  return found as MatmulShape[];
}

const run = (v: VariantSpec, p: ProfileInstance): void =>
  v.kind === 'shipped' ? runShipped(p) : v.kind === 'pack' ? runPack(p) : runAblation(p, v.kind);

/** ms per call of each of `reps` back-to-back calls, `samples` times. */
function sampleMs(fn: () => void, reps: number, samples: number): number[] {
  const out: number[] = [];
  for (let s = 0; s < samples; s++) {
    const t0 = performance.now();
    for (let i = 0; i < reps; i++) fn();
    out.push((performance.now() - t0) / reps);
  }
  return out;
}

/** Profile options: alternating rounds, timed samples per variant per round. */
export interface FmaProfileOptions {
  rounds: number;
  samples: number;
}

async function profileShape(
  s: MatmulShape,
  modules: Awaited<ReturnType<typeof profileModules>>,
  o: FmaProfileOptions,
): Promise<FmaShapeProfile> {
  const d = matmulInputs(s);
  const ref = new Float32Array(s.N * s.OC);
  naiveMatmul(ref, d.inp, d.weight, null, s.N, s.C, s.OC);
  const inst = {} as Record<ProfileModule, ProfileInstance>;
  for (const m of Object.keys(modules) as ProfileModule[])
    inst[m] = await profileInstance(m, modules[m], s, d.inp, d.weight);
  const reps = Math.max(1, Math.round(3e7 / (2 * s.N * s.C * s.OC))); // about 1 ms a sample at 30 GFLOP/s
  const t = new Map<string, number[]>(FMA_VARIANTS.map((v) => [v.id, []]));
  for (const v of FMA_VARIANTS) sampleMs(() => run(v, inst[v.module]), reps, 3); // warm-up: past the baseline tier
  for (let round = 0; round < o.rounds; round++) {
    const k = round % FMA_VARIANTS.length;
    for (const v of [...FMA_VARIANTS.slice(k), ...FMA_VARIANTS.slice(0, k)])
      t.get(v.id)!.push(...sampleMs(() => run(v, inst[v.module]), reps, o.samples));
  }
  const variants = FMA_VARIANTS.map((v): FmaVariantFigure => {
    const xs = t.get(v.id)!;
    const ms = Math.min(...xs);
    const p = inst[v.module];
    const computes = v.kind === 'shipped' || v.kind === 'mm6x8' || v.kind === 'mm8x8';
    if (computes) run(v, p);
    return {
      id: v.id,
      what: v.what,
      ms,
      medianMs: median(xs),
      gflops: (2 * s.N * s.C * s.OC) / (ms * 1e6),
      addLatenciesPerStep: NaN, // filled in at the end, from the profile's add chain
      maxAbsDiff: computes ? maxAbsDiff(profileOutput(p), ref) : null,
    };
  });
  return {
    ...s,
    callsPerSample: reps,
    variants,
    ratios: fmaRatios(Object.fromEntries(variants.map((v) => [v.id, v.ms]))),
  };
}

/** Nanoseconds per add of a dependent chain of vector adds (one add latency); best of a few samples. */
function addLatencyNs(p: ProfileInstance): number {
  const n = 1 << 20;
  return (Math.min(...sampleMs(() => runAddChain(p, n), 1, 9)) * 1e6) / n;
}

const span = (xs: number[]): { min: number; max: number } => ({ min: Math.min(...xs), max: Math.max(...xs) });

/** The profile at FMA_PROFILE_SHAPES of `models`: per shape, every variant's figures and the ratios. */
export async function fmaProfile(
  models: readonly BenchModel[],
  log: (s: string) => void = () => {},
  o: FmaProfileOptions = { rounds: 10, samples: 5 },
): Promise<Record<string, unknown>> {
  const shapes = fmaProfileShapes(models);
  await enableRelaxedSimd();
  const modules = await profileModules();
  const clockInst = await profileInstance(
    'ablation-simd',
    modules['ablation-simd'],
    shapes[0],
    new Float32Array(0),
    new Float32Array(0),
  );
  const latencySamples = [addLatencyNs(clockInst)];
  const rows: FmaShapeProfile[] = [];
  for (const s of shapes) {
    const row = await profileShape(s, modules, o);
    latencySamples.push(addLatencyNs(clockInst));
    const f = Object.fromEntries(row.variants.map((v) => [v.id, v]));
    log(
      `fma profile ${s.name} (${s.N}x${s.C}x${s.OC}): plain ${f.plain.gflops.toFixed(1)} GFLOP/s, relaxed ${row.ratios.relaxedVsPlain.toFixed(2)}x, ` +
        `loads ${(100 * row.ratios.loadsOfPlain).toFixed(0)}% of plain, arith ${(100 * row.ratios.arithOfPlain).toFixed(0)}%, ` +
        `6x8 relaxed ${row.ratios.mm6x8RelaxedVsPlain.toFixed(2)}x, 8x8 relaxed ${row.ratios.mm8x8RelaxedVsPlain.toFixed(2)}x plain`,
    );
    rows.push(row);
  }
  const addNs = Math.min(...latencySamples); // the fastest chain: the least disturbed
  for (const r of rows) {
    const steps = (r.N * r.C * r.OC) / 32; // 4 x 8 block steps of C: 8 vector multiply-adds each
    for (const v of r.variants) v.addLatenciesPerStep = (v.ms * 1e6) / steps / addNs;
  }
  const ratio = (k: string): { min: number; max: number } => span(rows.map((r) => r.ratios[k]));
  const best5 = rows.map((r) => Math.max(r.ratios.mm6x8RelaxedVsPlain, r.ratios.mm8x8RelaxedVsPlain));
  return {
    method: {
      ...o,
      figures:
        'per variant: the best sample (ms per call); every round times every variant, rotating their order; ratios from the same rounds',
      unit: 'addLatenciesPerStep: one 4 x 8 step (8 vector multiply-adds) over the time of one add of a dependent f32x4.add chain',
    },
    addLatencyNs: addNs,
    addLatencyNsSamples: latencySamples,
    shapes: rows,
    summary: {
      ...Object.fromEntries(Object.keys(rows[0].ratios).map((k) => [k, ratio(k)])),
      /** Whether a variant-5 kernel (6 x 8 or 8 x 8, relaxed) is at least 1.3x the shipped plain one at every shape. */
      moreAccumulatorsReach1_3x: Math.min(...best5) >= 1.3,
    },
  };
}
