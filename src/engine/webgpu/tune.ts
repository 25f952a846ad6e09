// Measuring kernel variants on the adapter at hand (issue 13, "kernels chosen by measurement"): for each
// (op, shape) the backend has met without a measured choice (KernelChoices.misses), run every variant
// that can run the shape on scratch tensors and keep the fastest. GPU time from timestamp queries where
// the adapter has them, else wall clock to completion. Follows llm.c dev/cuda's "time every kernel
// version at the real sizes, keep the best" (there by hand; here at run time, cached per adapter).
import type { Tensor } from '../tensor';
import { TUNABLE, type MeasuredChoice, type TunableOp, type TunedOp } from './choices';
import type { WebGpuBackend } from './webgpuBackend';
import type { GpuContext, Kernel } from './context';
import * as mm from './ops/matmul';
import * as ln from './ops/layernorm';
import * as attn from './ops/attention';
import * as lp from './ops/logprob';
import * as opt from './ops/optim';

/** What tune() did: the choices it measured, the shapes left for later (budget), and its wall time. */
export interface TuneReport {
  measured: MeasuredChoice[];
  left: number;
  ms: number;
  timing: 'gpu-timestamps' | 'wall-clock';
}

type Runner = (v: string, ctx?: GpuContext) => void;

const work = (d: readonly number[]): number => d.reduce((a, x) => a * x, 1);

/** A variant this many times slower than the best so far after one call is not timed further. */
const CUTOFF = 3;
/**
 * A variant that lost by more than this factor at a shape of an op is not run at larger shapes of the
 * same op (more work in every dimension): on SwiftShader a workgroup variant loses by 20-60x and costs
 * up to 1.5 s a call at the policy shapes, while on a real GPU the variants stay within this factor and
 * every one is measured at every shape.
 */
export const PRUNE_RATIO = 10;

/** Scratch tensors for one shape and a function running one call of the op (forward and backward) with a variant. */
function setup(be: WebGpuBackend, op: TunedOp, d: readonly number[]): { run: Runner; tensors: Tensor[] } {
  const ts: Tensor[] = [];
  const f = (...shape: number[]): Tensor => {
    const t = be.alloc(shape, 'f32', `tune.${op}`);
    be.fill(t, 0.01);
    ts.push(t);
    return t;
  };
  const u = (n: number): Tensor => {
    const t = be.alloc([n], 'u32', `tune.${op}`);
    be.fill(t, 0);
    ts.push(t);
    return t;
  };
  if (op === 'matmul') {
    const [N, C, OC] = d;
    const [inp, w, b, out, dout, dinp, dw, db] = [
      f(N, C),
      f(OC, C),
      f(OC),
      f(N, OC),
      f(N, OC),
      f(N, C),
      f(OC, C),
      f(OC),
    ];
    return {
      tensors: ts,
      run: (v, c = be) => {
        mm.matmulForward(c, { out, inp, weight: w, bias: b, N, C, OC }, v as mm.MatmulVariant);
        mm.matmulBackward(
          c,
          { dinp, dweight: dw, dbias: db, dout, inp, weight: w, N, C, OC },
          v as mm.MatmulVariant,
        );
      },
    };
  }
  if (op === 'layernorm') {
    const [N, C] = d;
    const [out, mean, rstd, inp, w, b, dinp, dw, db, dout] = [
      f(N, C),
      f(N),
      f(N),
      f(N, C),
      f(C),
      f(C),
      f(N, C),
      f(C),
      f(C),
      f(N, C),
    ];
    return {
      tensors: ts,
      run: (v, c = be) => {
        ln.layernormForward(c, { out, mean, rstd, inp, weight: w, bias: b, N, C }, v as ln.LayernormVariant);
        ln.layernormBackward(
          c,
          { dinp, dweight: dw, dbias: db, dout, inp, weight: w, mean, rstd, N, C },
          v as ln.LayernormVariant,
        );
      },
    };
  }
  if (op === 'attention') {
    const [B, T, C, NH] = d;
    const [out, att, qkv, dqkv, dout] = [
      f(B, T, C),
      f(B, NH, T, T),
      f(B, T, 3 * C),
      f(B, T, 3 * C),
      f(B, T, C),
    ];
    return {
      tensors: ts,
      run: (v, c = be) => {
        attn.attentionForward(c, { out, att, qkv, B, T, C, NH }, v as attn.AttentionVariant);
        attn.attentionBackward(c, { dqkv, dout, qkv, att, B, T, C, NH }, v as attn.AttentionVariant);
      },
    };
  }
  if (op === 'attentionCached') {
    const [B, T, keys, C, NH] = d;
    const [out, qkv, kc, vc] = [f(B, T, C), f(B, T, 3 * C), f(B, keys, C), f(B, keys, C)];
    return {
      tensors: ts,
      run: (v, c = be) =>
        attn.attentionCached(
          c,
          { out, qkv, kcache: kc, vcache: vc, B, T, pos0: keys - T, Tmax: keys, C, NH },
          v as attn.AttentionVariant,
        ),
    };
  }
  if (op === 'logprob') {
    const [N, V] = d;
    const [logp, logits, weights, dlogits, targets] = [f(N), f(N, V), f(N), f(N, V), u(N)];
    return {
      tensors: ts,
      run: (v, c = be) => {
        lp.logprobForward(
          c,
          { logp, entropy: null, certainty: null, logits, targets, N, V, temperature: 1 },
          v as lp.LogprobVariant,
        );
        lp.logprobBackward(
          c,
          { dlogits, logits, targets, weights, N, V, temperature: 1 },
          v as lp.LogprobVariant,
        );
      },
    };
  }
  const [N] = d;
  const [out, inp] = [f(1), f(N)];
  return { tensors: ts, run: (v, c = be) => opt.sumSquares(c, { out, inp, N }, v as opt.SumSquaresVariant) };
}

/** The kernels one call of variant v dispatches (recorded, not run). */
function kernelsOf(be: WebGpuBackend, run: Runner, v: string): Kernel[] {
  const ks: Kernel[] = [];
  run(v, {
    run: (k) => void ks.push(k),
    grid: (n, w) => be.grid(n, w),
    scratch: (key, n) => be.scratch(key, n),
  });
  return ks;
}

/** ms of `reps` calls of variant v (GPU time from timestamps where there are any, else wall clock), per call. */
async function sample(be: WebGpuBackend, run: Runner, v: string, reps: number): Promise<number> {
  if (be.hasTimestamps) {
    be.beginTimestamps(reps * 8);
    for (let r = 0; r < reps; r++) run(v);
    return (await be.endTimestamps()).reduce((a, k) => a + k.ms, 0) / reps;
  }
  await be.sync();
  const t0 = performance.now();
  for (let r = 0; r < reps; r++) run(v);
  await be.sync();
  return (performance.now() - t0) / reps;
}

/**
 * The best of a few samples of variant v, ms per call. One call first (it also compiles the variant where
 * prepare() did not, so without timestamps it is not counted); a variant already CUTOFF times slower than
 * `best` in that call is not sampled further (on SwiftShader a workgroup variant can take 100 ms a call).
 */
async function timeVariant(
  be: WebGpuBackend,
  run: Runner,
  v: string,
  best: number,
  reps: number,
  samples: number,
): Promise<number> {
  const first = await sample(be, run, v, 1);
  if (be.hasTimestamps && first > CUTOFF * best) return first;
  let t = be.hasTimestamps ? first : Infinity;
  if (!be.hasTimestamps) {
    const again = await sample(be, run, v, 1);
    if (again > CUTOFF * best) return again;
  }
  for (let s = 0; s < samples; s++) t = Math.min(t, await sample(be, run, v, reps));
  return t;
}

/**
 * Measure every variant of each shape in `be.kernels.misses` (or `shapes`) and record the fastest in
 * be.kernels; stops starting new shapes once `budgetMs` of wall time is spent (the rest stay misses).
 * With `compiledOnly`, shapes with a variant not compiled yet are skipped (and compiled in the background).
 */
export async function tune(
  be: WebGpuBackend,
  o: {
    budgetMs?: number;
    reps?: number;
    samples?: number;
    shapes?: { op: TunedOp; dims: number[] }[];
    compiledOnly?: boolean;
  } = {},
): Promise<TuneReport> {
  const t0 = performance.now();
  const budget = o.budgetMs ?? Infinity;
  // smallest shapes first, so losses seen there can prune the larger ones
  const todo = [...(o.shapes ?? be.kernels.misses.values())].sort((a, b) => work(a.dims) - work(b.dims));
  const losses: { op: TunedOp; v: string; dims: number[]; ratio: number }[] = [];
  const measured: MeasuredChoice[] = [];
  let done = 0;
  for (const { op, dims } of todo) {
    if (performance.now() - t0 > budget) break;
    const spec: TunableOp = TUNABLE[op];
    const { run, tensors } = setup(be, op, dims);
    const ms: Record<string, number | null> = {};
    const pruned: Record<string, string> = {};
    // compiledOnly: a variant whose pipelines are not ready is compiled in the background and the shape
    // measured at a later call (a synchronous compile costs up to 0.75 s a kernel on SwiftShader)
    const missing = o.compiledOnly
      ? spec.variants
          .flatMap((v) => (spec.cannot(v, dims) ? [] : kernelsOf(be, run, v)))
          .filter((k) => !be.hasPipeline(k))
      : [];
    if (missing.length) {
      be.prepare(missing, 1).catch(() => {}); // a compile error surfaces at the next read (prepareError)
      for (const t of tensors) be.free(t);
      continue;
    }
    try {
      // the rule's variant first: the others are cut off against it
      const rule = spec.rule(dims);
      let best = Infinity;
      for (const v of [rule, ...spec.variants.filter((x) => x !== rule)]) {
        const lost = losses.find((l) => l.op === op && l.v === v && l.dims.every((x, i) => x <= dims[i]));
        if (spec.cannot(v, dims)) ms[v] = null;
        else if (lost && v !== rule) {
          pruned[v] = `lost ${lost.ratio.toFixed(0)}x at ${lost.dims.join('x')}`;
          ms[v] = null;
        } else
          best = Math.min(best, (ms[v] = await timeVariant(be, run, v, best, o.reps ?? 3, o.samples ?? 2)));
      }
    } finally {
      for (const t of tensors) be.free(t);
    }
    const ok = spec.variants.filter((v) => ms[v] !== null);
    const variant = ok.reduce((a, b) => (ms[b]! < ms[a]! ? b : a));
    for (const v of ok)
      if (ms[v]! > PRUNE_RATIO * ms[variant]!)
        losses.push({ op, v, dims: [...dims], ratio: ms[v]! / ms[variant]! });
    const c: MeasuredChoice = {
      op,
      dims: [...dims],
      variant,
      rule: spec.rule(dims),
      ms,
      ...(Object.keys(pruned).length ? { pruned } : {}),
    };
    be.kernels.set(c);
    measured.push(c);
    done++;
  }
  return {
    measured,
    left: todo.length - done,
    ms: performance.now() - t0,
    timing: be.hasTimestamps ? 'gpu-timestamps' : 'wall-clock',
  };
}
