// Parity of shaders/sample.wgsl against src/engine/cpu/sample.ts: greedy ids (with ties), sampled
// ids for fixed seeds (expected identical; any mismatch is reported with its distance to the CDF
// step), writes only at out[r*outStride+outOffset], and a chi-square frequency test of GPU draws.
import type { Backend } from '../backend';
import { compareArrays, type CompareResult } from '../compare';
import { uniform01 } from '../random';
import { type ParityCase, pair, poisoned, randn } from './parityUtil';

/** Each backend with its side of a Pair. */
const sides = (gpu: Backend, cpu: Backend) =>
  [
    [gpu, 'gpu'],
    [cpu, 'cpu'],
  ] as const;

/** softmax(logits / T) in float64. */
function softmax(logits: ArrayLike<number>, T: number): number[] {
  const z = Array.from(logits, (x) => x / T);
  const mx = Math.max(...z);
  const e = z.map((x) => Math.exp(x - mx));
  const s = e.reduce((a, b) => a + b, 0);
  return e.map((x) => x / s);
}

/** Relative distance (in float64) from u to the nearest CDF step of row r: how close to a tie it was. */
function cdfMargin(
  logits: Float32Array,
  r: number,
  V: number,
  T: number,
  seed: number,
  counter: number,
): number {
  const p = softmax(logits.subarray(r * V, (r + 1) * V), T);
  const u = uniform01(seed, counter, r);
  let c = 0;
  let best = Infinity;
  for (const pi of p) {
    c += pi;
    best = Math.min(best, Math.abs(c - u));
  }
  return best;
}

/** Pearson chi-square statistic of observed counts against expected probabilities. */
function chiSquare(counts: number[], probs: number[], draws: number): number {
  let x2 = 0;
  for (let i = 0; i < probs.length; i++) {
    const e = probs[i] * draws;
    x2 += ((counts[i] - e) * (counts[i] - e)) / e;
  }
  return x2;
}

async function sampledCase(
  gpu: Backend,
  cpu: Backend,
  rows: number,
  V: number,
  T: number,
  seed: number,
  counter: number,
  stride: number,
  offset: number,
): Promise<CompareResult> {
  const host = randn(rows * V, seed, 2);
  const logits = pair(gpu, cpu, [rows, V], host, 'logits');
  const out = poisoned(gpu, cpu, [rows * stride], 'u32', 'tokens');
  for (const [be, s] of sides(gpu, cpu))
    be.sampleTokens({
      out: out[s],
      logits: logits[s],
      rows,
      V,
      temperature: T,
      seed,
      counter,
      outStride: stride,
      outOffset: offset,
    });
  const [g, c] = await Promise.all([gpu.read(out.gpu), cpu.read(out.cpu)]);
  const bad: string[] = [];
  for (let r = 0; r < rows; r++) {
    const i = r * stride + offset;
    if (g[i] !== c[i])
      bad.push(
        `row ${r}: gpu ${g[i]} cpu ${c[i]} |u-cdf|=${cdfMargin(host, r, V, T, seed, counter).toExponential(2)}`,
      );
  }
  const what = T > 0 ? `sampled T=${T}` : 'greedy';
  const res = compareArrays(
    `${what} rows=${rows} V=${V} stride=${stride} offset=${offset}: ${bad.length} of ${rows} rows differ${bad.length ? ` (${bad.slice(0, 3).join('; ')})` : ''}`,
    g,
    c,
    0,
    0,
  );
  logits.free();
  out.free();
  return res;
}

/**
 * The fused sample + log-prob pass (decoding's one dispatch per token): ids identical to the CPU twin,
 * log-probs within 1e-4 of the twin's, and of the separate logprobForward op at the chosen ids.
 */
async function fusedCase(
  gpu: Backend,
  cpu: Backend,
  rows: number,
  V: number,
  T: number,
  seed: number,
  logpOffset: number,
): Promise<CompareResult[]> {
  const host = randn(rows * V, seed + 1, 2);
  const logits = pair(gpu, cpu, [rows, V], host, 'logits');
  const out = poisoned(gpu, cpu, [rows * 2], 'u32', 'tokens');
  const lp = poisoned(gpu, cpu, [logpOffset + rows], 'f32', 'logp');
  for (const [be, s] of sides(gpu, cpu))
    be.sampleTokens({
      out: out[s],
      logits: logits[s],
      rows,
      V,
      temperature: T,
      seed,
      counter: 5,
      outStride: 2,
      outOffset: 1,
      logp: lp[s],
      logpOffset,
    });
  const what = `${T > 0 ? `T=${T}` : 'greedy'} rows=${rows} V=${V} logpOffset=${logpOffset}`;
  const ids = await out.check(`fused sample+logp ${what}: ids`, 0, 0);
  const got = (await gpu.read(lp.gpu)) as Float32Array;
  const want = (await cpu.read(lp.cpu)) as Float32Array;
  // nothing before logpOffset is written (it stays the NaN poison); the rest matches the CPU twin
  const untouched = got.subarray(0, logpOffset).filter((x) => !Number.isNaN(x)).length;
  const prefix = compareArrays(
    `fused sample+logp ${what}: ${untouched} of ${logpOffset} elements before logpOffset written (expected 0)`,
    [untouched],
    [0],
    0,
    0,
  );
  const logps = compareArrays(
    `fused sample+logp ${what}: log-probs vs CPU twin`,
    got.subarray(logpOffset),
    want.subarray(logpOffset),
    1e-4,
    1e-4,
  );
  // the same figures from the separate op at the CPU's ids (temperature 1 when greedy)
  const tok = (await cpu.read(out.cpu)) as Uint32Array;
  const targets = cpu.alloc([rows], 'u32', 'targets');
  cpu.write(
    targets,
    Uint32Array.from({ length: rows }, (_, r) => tok[2 * r + 1]),
  );
  const ref = cpu.alloc([rows], 'f32', 'ref');
  cpu.logprobForward({
    logp: ref,
    entropy: null,
    certainty: null,
    logits: logits.cpu,
    targets,
    N: rows,
    V,
    temperature: T > 0 ? T : 1,
  });
  const vsOp = compareArrays(
    `fused sample+logp ${what}: GPU log-probs vs logprobForward`,
    got.subarray(logpOffset),
    (await cpu.read(ref)) as Float32Array,
    1e-4,
    1e-4,
  );
  for (const t of [targets, ref]) cpu.free(t);
  for (const p of [logits, out, lp]) p.free();
  return [ids, prefix, logps, vsOp];
}

export const cases: ParityCase[] = [
  {
    name: 'sample: fused log-prob of the chosen ids (greedy and sampled)',
    async run(gpu, cpu) {
      return [
        ...(await fusedCase(gpu, cpu, 333, 29, 0, 7, 64)),
        ...(await fusedCase(gpu, cpu, 1000, 37, 0.8, 11, 128)),
        ...(await fusedCase(gpu, cpu, 70, 15, 1, 3, 0)),
      ];
    },
  },
  {
    name: 'sample: greedy with ties, strided output',
    async run(gpu, cpu) {
      const rows = 1001;
      const V = 29;
      // logits rounded to halves: many exact ties, which must go to the lowest id
      const host = randn(rows * V, 41, 1).map((x) => Math.round(x * 2) / 2);
      const logits = pair(gpu, cpu, [rows, V], host, 'logits');
      const out = poisoned(gpu, cpu, [rows * 3], 'u32', 'tokens');
      for (const [be, s] of sides(gpu, cpu))
        be.sampleTokens({
          out: out[s],
          logits: logits[s],
          rows,
          V,
          temperature: 0,
          seed: 1,
          counter: 2,
          outStride: 3,
          outOffset: 2,
        });
      const r0 = await out.check(`greedy rows=${rows} V=${V} stride=3 offset=2 (ties)`, 0, 0);
      logits.free();
      out.free();
      return [r0, await sampledCase(gpu, cpu, 517, 37, -1, 5, 0, 1, 0)];
    },
  },
  {
    name: 'sample: sampled ids identical to the CPU for fixed seeds',
    async run(gpu, cpu) {
      return [
        await sampledCase(gpu, cpu, 5000, 29, 0.7, 1234, 7, 2, 1),
        await sampledCase(gpu, cpu, 5000, 37, 1.3, 99, 123456, 1, 0),
        await sampledCase(gpu, cpu, 3001, 20, 1, 0xdeadbeef, 0xffffffff, 5, 4),
        await sampledCase(gpu, cpu, 257, 1000, 0.9, 17, 3, 1, 0),
      ];
    },
  },
  {
    name: 'sample: GPU draws follow softmax(logits/T) (chi-square)',
    async run(gpu, cpu) {
      const rows = 20000;
      const V = 7;
      const T = 0.7;
      const row = [1.0, 0.5, -0.3, 2.0, 0.0, -1.0, 1.5];
      const host = new Float32Array(rows * V);
      for (let r = 0; r < rows; r++) host.set(row, r * V);
      const logits = pair(gpu, cpu, [rows, V], host, 'logits');
      const out = poisoned(gpu, cpu, [rows], 'u32', 'tokens');
      gpu.sampleTokens({
        out: out.gpu,
        logits: logits.gpu,
        rows,
        V,
        temperature: T,
        seed: 2024,
        counter: 1,
        outStride: 1,
        outOffset: 0,
      });
      const g = await gpu.read(out.gpu);
      const counts = new Array<number>(V).fill(0);
      let invalid = 0;
      for (const t of g) {
        if (t < V) counts[t]++;
        else invalid++;
      }
      const x2 = chiSquare(counts, softmax(row, T), rows);
      const crit = 22.458; // chi-square, 6 degrees of freedom, p = 0.001
      const ok = x2 < crit && invalid === 0;
      const res = compareArrays(
        `chi2=${x2.toFixed(2)} vs critical ${crit} (df=6, p=0.001), ${rows} draws, counts ${counts.join(',')}, invalid ids ${invalid}`,
        [ok ? 1 : 0],
        [1],
        0,
        0,
      );
      logits.free();
      out.free();
      return [res];
    },
  },
];
