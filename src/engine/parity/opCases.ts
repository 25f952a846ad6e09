// Parity cases of the op table (src/engine/ops/table.ts), read by every parity run and the bench: one call
// of an op with seeded random inputs, made on the backend under test and on the CPU reference, every
// tensor compared after (src/engine/parity/opParity.ts). An op either has cases here or is in OWN_PARITY
// (its family's parity file tests it at more shapes and edge cases); a test fails for an op with neither.
import type { OpName } from '../ops/table';

/** One call of an op. */
export interface OpCase {
  /** Element count of each tensor argument (a nullable one left out is passed null). */
  sizes: Readonly<Record<string, number>>;
  /** Each number argument. */
  numbers: Readonly<Record<string, number>>;
  /** u32 tensors hold integers below this (token ids, targets). Default 2. */
  below?: number;
  /** Tolerance of the comparison (default 1e-4 each). */
  atol?: number;
  rtol?: number;
}

const ew = (N: number, n: number): Record<string, number> =>
  Object.fromEntries([...'abcd'].slice(0, n).map((k) => [k, N]));
const mm = { N: 13, C: 36, OC: 20 };
const lp = { N: 9, V: 67 };

export const OP_CASES: Partial<Record<OpName, readonly OpCase[]>> = {
  geluForward: [1000, 37 * 45].map((N) => ({ sizes: { out: N, inp: N }, numbers: { N } })),
  geluBackward: [{ sizes: { dinp: 1000, inp: 1000, dout: 1000 }, numbers: { N: 1000 } }],
  residualForward: [{ sizes: { out: 1027, ...ew(1027, 2) }, numbers: { N: 1027 }, atol: 0, rtol: 0 }],
  residualBackward: [{ sizes: { da: 1027, db: 1027, dout: 1027 }, numbers: { N: 1027 }, atol: 0, rtol: 0 }],
  matmulForward: [
    { sizes: { out: mm.N * mm.OC, inp: mm.N * mm.C, weight: mm.OC * mm.C, bias: mm.OC }, numbers: mm },
  ],
  matmulBackward: [
    {
      sizes: {
        dinp: mm.N * mm.C,
        dweight: mm.OC * mm.C,
        dbias: mm.OC,
        dout: mm.N * mm.OC,
        inp: mm.N * mm.C,
        weight: mm.OC * mm.C,
      },
      numbers: mm,
    },
  ],
  layernormForward: [
    { sizes: { out: 7 * 36, mean: 7, rstd: 7, inp: 7 * 36, weight: 36, bias: 36 }, numbers: { N: 7, C: 36 } },
  ],
  ropeForward: [
    { sizes: { out: 2 * 5 * 48, inp: 2 * 5 * 48 }, numbers: { B: 2, T: 5, C: 16, NH: 2, pos0: 3 } },
  ],
  ropeBackward: [
    { sizes: { dinp: 2 * 5 * 48, dout: 2 * 5 * 48 }, numbers: { B: 2, T: 5, C: 16, NH: 2, pos0: 3 } },
  ],
  kvCacheWrite: [
    {
      sizes: { kcache: 2 * 8 * 16, vcache: 2 * 8 * 16, qkv: 2 * 3 * 48 },
      numbers: { B: 2, T: 3, pos0: 2, Tmax: 8, C: 16 },
      atol: 0,
      rtol: 0,
    },
  ],
  crossEntropyForward: [
    { sizes: { losses: lp.N, logits: lp.N * lp.V, targets: lp.N }, numbers: lp, below: lp.V },
  ],
  crossEntropyBackward: [
    {
      sizes: { dlogits: lp.N * lp.V, logits: lp.N * lp.V, targets: lp.N, dlosses: lp.N },
      numbers: lp,
      below: lp.V,
    },
  ],
  logprobForward: [
    {
      sizes: { logp: lp.N, entropy: lp.N, certainty: lp.N, logits: lp.N * lp.V, targets: lp.N },
      numbers: { ...lp, temperature: 0.7 },
      below: lp.V,
    },
  ],
  logprobBackward: [
    {
      sizes: { dlogits: lp.N * lp.V, logits: lp.N * lp.V, targets: lp.N, weights: lp.N },
      numbers: { ...lp, temperature: 0.7 },
      below: lp.V,
    },
  ],
  sumSquares: [{ sizes: { out: 1, inp: 1000 }, numbers: { N: 1000 }, rtol: 1e-3 }],
};

/** Ops tested by their family's parity file (src/engine/parity/<family>.parity.ts, src/engine/wasm/wasmParity.suite.ts). */
export const OWN_PARITY: readonly OpName[] = [
  'encoderForward',
  'encoderBackward',
  'layernormBackward',
  'attentionForward',
  'attentionBackward',
  'attentionCached',
  'sampleTokens',
  'adamw',
];
