// Parity of shaders/encoder.wgsl against src/engine/cpu/encoder.ts: token + position embedding
// forward and its deterministic backward (dwte by token, dwpe by position), with and without wpe,
// at awkward sizes, offsets pos0 > 0 and token rows wider than T (tokStride).
import type { Backend } from '../backend';
import type { Tensor } from '../tensor';
import type { CompareResult } from '../compare';
import { type Pair, type ParityCase, pair, poisoned, randn, randInt } from './parityUtil';

/** Run `f` on both backends with the matching side of each pair. */
function both(
  gpu: Backend,
  cpu: Backend,
  f: (be: Backend, t: (p: Pair | null) => Tensor | null) => void,
): void {
  f(gpu, (p) => (p ? p.gpu : null));
  f(cpu, (p) => (p ? p.cpu : null));
}

interface Shape {
  B: number;
  T: number;
  C: number;
  V: number;
  tokStride: number; // also maxT, the rows of wpe
  pos0: number;
  wpe: boolean;
}

const shapes: Shape[] = [
  { B: 3, T: 13, C: 45, V: 29, tokStride: 20, pos0: 4, wpe: true },
  { B: 1, T: 1, C: 7, V: 3, tokStride: 12, pos0: 9, wpe: true }, // one decoding step
  { B: 5, T: 61, C: 33, V: 61, tokStride: 64, pos0: 3, wpe: true }, // B*T = 305 > one token tile of 256
  { B: 4, T: 64, C: 64, V: 24, tokStride: 64, pos0: 0, wpe: false }, // rotary model
  { B: 8, T: 64, C: 128, V: 40, tokStride: 80, pos0: 16, wpe: true },
  { B: 7, T: 37, C: 96, V: 20, tokStride: 50, pos0: 11, wpe: false },
];

async function run(gpu: Backend, cpu: Backend, s: Shape, seed: number): Promise<CompareResult[]> {
  const { B, T, C, V, tokStride, pos0 } = s;
  const maxT = tokStride;
  const wte = pair(gpu, cpu, [V, C], randn(V * C, seed), 'wte');
  const wpe = s.wpe ? pair(gpu, cpu, [maxT, C], randn(maxT * C, seed + 1), 'wpe') : null;
  const tokens = pair(gpu, cpu, [B, tokStride], randInt(B * tokStride, seed + 2, V), 'tokens');
  const out = poisoned(gpu, cpu, [B, T, C], 'f32', 'out');
  const dout = pair(gpu, cpu, [B, T, C], randn(B * T * C, seed + 3), 'dout');
  // gradients pre-filled with the same random values: checks accumulation and full coverage
  const dwte = pair(gpu, cpu, [V, C], randn(V * C, seed + 4), 'dwte');
  const dwpe = s.wpe ? pair(gpu, cpu, [maxT, C], randn(maxT * C, seed + 5), 'dwpe') : null;
  both(gpu, cpu, (be, t) => {
    be.encoderForward({
      out: t(out)!,
      wte: t(wte)!,
      wpe: t(wpe),
      tokens: t(tokens)!,
      B,
      T,
      C,
      tokStride,
      pos0,
    });
    be.encoderBackward({
      dwte: t(dwte)!,
      dwpe: t(dwpe),
      dout: t(dout)!,
      tokens: t(tokens)!,
      B,
      T,
      C,
      tokStride,
      pos0,
    });
  });
  const tag = `B=${B} T=${T} C=${C} V=${V} pos0=${pos0}`;
  const res = [await out.check(`forward ${tag}${s.wpe ? '' : ' (no wpe)'}`), await dwte.check(`dwte ${tag}`)];
  if (dwpe) res.push(await dwpe.check(`dwpe ${tag}`));
  for (const p of [wte, wpe, tokens, out, dout, dwte, dwpe]) p?.free();
  return res;
}

export const cases: ParityCase[] = shapes.map((s, i) => ({
  name: `encoder: B=${s.B} T=${s.T} C=${s.C} V=${s.V} pos0=${s.pos0}${s.wpe ? '' : ' no wpe'}`,
  run: (gpu, cpu) => run(gpu, cpu, s, 200 + 10 * i),
}));
