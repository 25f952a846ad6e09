// Parity of shaders/rope.wgsl against src/engine/cpu/rope.ts: rotary embedding forward and its
// accumulating inverse-rotation backward, at awkward sizes, head sizes 2..128, and positions up to
// ~500 (where unreduced f32 cos/sin would drift).
import type { Backend } from '../backend';
import { compareArrays, type CompareResult } from '../compare';
import { type ParityCase, pair, poisoned, randn } from './parityUtil';

interface Shape {
  B: number;
  T: number;
  C: number;
  NH: number;
  pos0: number;
}

const shapes: Shape[] = [
  { B: 2, T: 13, C: 48, NH: 4, pos0: 0 }, // hs 12
  { B: 3, T: 37, C: 36, NH: 3, pos0: 5 },
  { B: 1, T: 7, C: 10, NH: 5, pos0: 2 }, // hs 2
  { B: 4, T: 1, C: 64, NH: 4, pos0: 200 }, // one decoding step
  { B: 8, T: 64, C: 128, NH: 4, pos0: 0 }, // model-typical, hs 32
  { B: 2, T: 100, C: 128, NH: 1, pos0: 411 }, // hs 128, positions 411..510
];

async function run(gpu: Backend, cpu: Backend, s: Shape, seed: number): Promise<CompareResult[]> {
  const { B, T, C, NH, pos0 } = s;
  const n = B * T * 3 * C;
  const inp = pair(gpu, cpu, [B, T, 3 * C], randn(n, seed, 2), 'qkv');
  const out = poisoned(gpu, cpu, [B, T, 3 * C], 'f32', 'out');
  const dout = pair(gpu, cpu, [B, T, 3 * C], randn(n, seed + 1, 2), 'dout');
  const dinp = pair(gpu, cpu, [B, T, 3 * C], randn(n, seed + 2), 'dinp'); // pre-filled: accumulation + coverage
  for (const [be, side] of [
    [gpu, 'gpu'],
    [cpu, 'cpu'],
  ] as const) {
    be.ropeForward({ out: out[side], inp: inp[side], B, T, C, NH, pos0 });
    be.ropeBackward({ dinp: dinp[side], dout: dout[side], B, T, C, NH, pos0 });
  }
  const tag = `B=${B} T=${T} C=${C} NH=${NH} pos0=${pos0}`;
  const res = [await out.check(`forward ${tag}`), await dinp.check(`backward ${tag}`)];
  for (const p of [inp, out, dout, dinp]) p.free();
  return res;
}

export const cases: ParityCase[] = [
  ...shapes.map((s, i) => ({
    name: `rope: B=${s.B} T=${s.T} C=${s.C} NH=${s.NH} pos0=${s.pos0}`,
    run: (gpu: Backend, cpu: Backend) => run(gpu, cpu, s, 300 + 10 * i),
  })),
  {
    name: 'rope: odd head size is rejected',
    async run(gpu) {
      const t = gpu.alloc([1, 1, 18]);
      let msg = '';
      try {
        gpu.ropeForward({ out: t, inp: t, B: 1, T: 1, C: 6, NH: 2, pos0: 0 }); // hs = 3
      } catch (e) {
        msg = String(e);
      }
      gpu.free(t);
      const ok = /even integer/.test(msg);
      return [compareArrays(`throws "${msg}"`, [ok ? 1 : 0], [1], 0, 0)];
    },
  },
];
