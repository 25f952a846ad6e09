// Parity of shaders/decode.wgsl (the fused decode-step kernels) against src/engine/cpu/decode.ts at
// awkward sizes: rows off the 32-wide workgroups, odd widths and head sizes, position 0, contexts past
// the 64-key row-attention limit, the widest C the kernels take, V = 257. Outputs are poisoned; caches
// and token rows are pre-filled so writes outside the decoded position are caught.
import type { Backend } from '../backend';
import type { Tensor } from '../tensor';
import { VIEW_ALIGN } from '../backend';
import { compareArrays, type CompareResult } from '../compare';
import { DECODE_MAX_C, type DecodeOps } from '../decode';
import { cpuDecodeOps } from '../cpu/decodeOps';
import { Pair, type ParityCase, pair, poisoned, randInt, randn } from './parityUtil';

/** Named weights as views of one flat buffer on each backend (as the model's parameters are). */
class Weights {
  readonly gpu: Record<string, Tensor> = {};
  readonly cpu: Record<string, Tensor> = {};
  private readonly flat: Pair;
  constructor(gpu: Backend, cpu: Backend, sizes: Record<string, number>, seed: number) {
    const offs: Record<string, number> = {};
    let n = 0;
    for (const [k, s] of Object.entries(sizes)) {
      offs[k] = n;
      n += Math.ceil(s / VIEW_ALIGN) * VIEW_ALIGN;
    }
    this.flat = pair(gpu, cpu, [n], randn(n, seed, 0.5), 'weights');
    for (const [k, s] of Object.entries(sizes)) {
      this.gpu[k] = gpu.view(this.flat.gpu, offs[k], [s], k);
      this.cpu[k] = cpu.view(this.flat.cpu, offs[k], [s], k);
    }
  }
  free(): void {
    this.flat.free();
  }
}

/** The fused ops of each side: the WebGPU backend's, and the CPU twins (the CPU backend does not offer them). */
const both = (gpu: Backend): (readonly [DecodeOps, 'gpu' | 'cpu'])[] => [
  [gpu as Backend & DecodeOps, 'gpu'],
  [cpuDecodeOps, 'cpu'],
];

interface QkvShape {
  R: number;
  C: number;
  NH: number;
  pos: number;
  Tmax: number;
  embed: boolean;
  rope: boolean;
}

async function qkvCase(gpu: Backend, cpu: Backend, s: QkvShape, seed: number): Promise<CompareResult[]> {
  const { R, C, NH, pos, Tmax, embed, rope } = s;
  const V = 19;
  const L = Tmax + 1;
  const w = new Weights(
    gpu,
    cpu,
    { lnw: C, lnb: C, w: 3 * C * C, b: 3 * C, wte: V * C, wpe: Tmax * C },
    seed,
  );
  const tokens = pair(gpu, cpu, [R, L], randInt(R * L, seed + 1, V), 'tokens');
  const q = poisoned(gpu, cpu, [R, C], 'f32', 'q');
  const kc = pair(gpu, cpu, [R, Tmax, C], randn(R * Tmax * C, seed + 2), 'kcache');
  const vc = pair(gpu, cpu, [R, Tmax, C], randn(R * Tmax * C, seed + 3), 'vcache');
  const x = embed
    ? poisoned(gpu, cpu, [R, C], 'f32', 'x')
    : pair(gpu, cpu, [R, C], randn(R * C, seed + 4), 'x');
  for (const [be, side] of both(gpu)) {
    const W = side === 'gpu' ? w.gpu : w.cpu;
    be.decodeQkv(
      q[side],
      kc[side],
      vc[side],
      x[side],
      embed ? tokens[side] : null,
      embed ? W.wte : null,
      embed && !rope ? W.wpe : null,
      W.lnw,
      W.lnb,
      W.w,
      W.b,
      R,
      C,
      NH,
      pos,
      Tmax,
      L,
      rope,
    );
  }
  const tag = `R=${R} C=${C} NH=${NH} pos=${pos}${embed ? ' embed' : ''}${rope ? ' rope' : ''}`;
  const res = [
    await q.check(`q ${tag}`),
    await kc.check(`kcache ${tag}`),
    await vc.check(`vcache ${tag}`),
    await x.check(`x ${tag}`),
  ];
  for (const p of [tokens, q, kc, vc, x, w]) p.free();
  return res;
}

interface AttnShape {
  R: number;
  C: number;
  NH: number;
  pos: number;
  Tmax: number;
}

async function attnCase(gpu: Backend, cpu: Backend, s: AttnShape, seed: number): Promise<CompareResult[]> {
  const { R, C, NH, pos, Tmax } = s;
  const w = new Weights(gpu, cpu, { w: C * C, b: C }, seed);
  const q = pair(gpu, cpu, [R, C], randn(R * C, seed + 1), 'q');
  const kc = pair(gpu, cpu, [R, Tmax, C], randn(R * Tmax * C, seed + 2), 'kcache');
  const vc = pair(gpu, cpu, [R, Tmax, C], randn(R * Tmax * C, seed + 3), 'vcache');
  const x = pair(gpu, cpu, [R, C], randn(R * C, seed + 4), 'x');
  const out = poisoned(gpu, cpu, [R, C], 'f32', 'out');
  for (const [be, side] of both(gpu)) {
    const W = side === 'gpu' ? w.gpu : w.cpu;
    be.decodeAttn(out[side], q[side], kc[side], vc[side], x[side], W.w, W.b, R, C, NH, pos, Tmax);
  }
  const res = [await out.check(`out R=${R} C=${C} NH=${NH} pos=${pos} Tmax=${Tmax}`)];
  for (const p of [q, kc, vc, x, out, w]) p.free();
  return res;
}

async function mlpCase(
  gpu: Backend,
  cpu: Backend,
  R: number,
  C: number,
  H: number,
  seed: number,
): Promise<CompareResult[]> {
  const w = new Weights(gpu, cpu, { lnw: C, lnb: C, fcw: H * C, fcb: H, pw: C * H, pb: C }, seed);
  const x = pair(gpu, cpu, [R, C], randn(R * C, seed + 1), 'x');
  const out = poisoned(gpu, cpu, [R, C], 'f32', 'out');
  for (const [be, side] of both(gpu)) {
    const W = side === 'gpu' ? w.gpu : w.cpu;
    be.decodeMlp(out[side], x[side], W.lnw, W.lnb, W.fcw, W.fcb, W.pw, W.pb, R, C, H);
  }
  const res = [await out.check(`out R=${R} C=${C} H=${H}`)];
  for (const p of [x, out, w]) p.free();
  return res;
}

interface HeadShape {
  R: number;
  C: number;
  V: number;
  temperature: number;
  logp: boolean;
}

async function headCase(gpu: Backend, cpu: Backend, s: HeadShape, seed: number): Promise<CompareResult[]> {
  const { R, C, V, temperature } = s;
  const [L, col, lpOff] = [7, 4, 3];
  const w = new Weights(gpu, cpu, { lnw: C, lnb: C, wte: V * C }, seed);
  const x = pair(gpu, cpu, [R, C], randn(R * C, seed + 1, 2), 'x');
  const tokens = poisoned(gpu, cpu, [R, L], 'u32', 'tokens');
  const logp = poisoned(gpu, cpu, [lpOff + R], 'f32', 'logp');
  const logits = poisoned(gpu, cpu, [R, V], 'f32', 'logits');
  for (const [be, side] of both(gpu)) {
    const W = side === 'gpu' ? w.gpu : w.cpu;
    be.decodeHead(
      tokens[side],
      s.logp ? logp[side] : null,
      logits[side],
      x[side],
      W.lnw,
      W.lnb,
      W.wte,
      R,
      C,
      V,
      temperature,
      77,
      5,
      L,
      col,
      lpOff,
    );
  }
  const tag = `R=${R} C=${C} V=${V} T=${temperature}${s.logp ? ' logp' : ''}`;
  const res = [await logits.check(`logits ${tag}`), await tokens.check(`tokens ${tag}`, 0, 0)];
  if (s.logp) {
    const [g, c] = await Promise.all([gpu.read(logp.gpu), cpu.read(logp.cpu)]);
    res.push(compareArrays(`logp ${tag}`, g.subarray(lpOff), c.subarray(lpOff), 1e-4, 1e-4));
    res.push(
      compareArrays(
        `logp before the offset stays unwritten ${tag}`,
        [...g.subarray(0, lpOff)].map(Number.isNaN).map(Number),
        [1, 1, 1],
        0,
        0,
      ),
    );
  }
  for (const p of [x, tokens, logp, logits, w]) p.free();
  return res;
}

/** A call that must throw a message matching `re`. */
function refuses(name: string, re: RegExp, call: (gpu: Backend) => void): ParityCase {
  return {
    name,
    async run(gpu) {
      let msg = '';
      try {
        call(gpu);
      } catch (e) {
        msg = String(e);
      }
      return [compareArrays(`throws "${msg}"`, [re.test(msg) ? 1 : 0], [1], 0, 0)];
    },
  };
}

const qkvShapes: QkvShape[] = [
  { R: 37, C: 24, NH: 4, pos: 5, Tmax: 9, embed: true, rope: false }, // block 0 of the default agent A
  { R: 33, C: 32, NH: 4, pos: 7, Tmax: 12, embed: true, rope: true }, // block 0 of agent B
  { R: 5, C: 18, NH: 3, pos: 0, Tmax: 4, embed: false, rope: true }, // hs 6, position 0
  { R: 1, C: 15, NH: 5, pos: 3, Tmax: 4, embed: false, rope: false }, // odd width, last position
  { R: 3, C: DECODE_MAX_C, NH: 8, pos: 70, Tmax: 80, embed: true, rope: true }, // widest, long context
];
const attnShapes: AttnShape[] = [
  { R: 37, C: 24, NH: 4, pos: 5, Tmax: 9 },
  { R: 33, C: 32, NH: 4, pos: 0, Tmax: 3 },
  { R: 7, C: 15, NH: 5, pos: 70, Tmax: 71 }, // 71 keys, past the 64 of the row kernels
  { R: 2, C: DECODE_MAX_C, NH: 8, pos: 9, Tmax: 12 },
];
const mlpShapes: [number, number, number][] = [
  [37, 24, 96],
  [33, 32, 128],
  [5, 17, 41],
  [2, DECODE_MAX_C, 300],
];
const headShapes: HeadShape[] = [
  { R: 37, C: 24, V: 16, temperature: 1, logp: true },
  { R: 33, C: 32, V: 16, temperature: 0.7, logp: false },
  { R: 9, C: 17, V: 257, temperature: 0, logp: true },
  { R: 2, C: DECODE_MAX_C, V: 40, temperature: 1.3, logp: true },
];

export const cases: ParityCase[] = [
  ...qkvShapes.map((s, i) => ({
    name: `decode qkv: R=${s.R} C=${s.C} NH=${s.NH} pos=${s.pos}${s.embed ? ' embed' : ''}${s.rope ? ' rope' : ''}`,
    run: (gpu: Backend, cpu: Backend) => qkvCase(gpu, cpu, s, 1300 + 10 * i),
  })),
  ...attnShapes.map((s, i) => ({
    name: `decode attn: R=${s.R} C=${s.C} NH=${s.NH} pos=${s.pos}`,
    run: (gpu: Backend, cpu: Backend) => attnCase(gpu, cpu, s, 1400 + 10 * i),
  })),
  ...mlpShapes.map(([R, C, H], i) => ({
    name: `decode mlp: R=${R} C=${C} H=${H}`,
    run: (gpu: Backend, cpu: Backend) => mlpCase(gpu, cpu, R, C, H, 1500 + 10 * i),
  })),
  ...headShapes.map((s, i) => ({
    name: `decode head: R=${s.R} C=${s.C} V=${s.V} T=${s.temperature}${s.logp ? ' logp' : ''}`,
    run: (gpu: Backend, cpu: Backend) => headCase(gpu, cpu, s, 1600 + 10 * i),
  })),
  refuses('decode: a width past DECODE_MAX_C is refused', /exceeds the fused kernels' 256/, (gpu) => {
    const t = gpu.alloc([1]);
    try {
      gpu.decodeMlp!(t, t, t, t, t, t, t, t, 1, DECODE_MAX_C + 1, 4);
    } finally {
      gpu.free(t);
    }
  }),
  refuses('decode: weights outside one buffer are refused', /not a view of the same buffer/, (gpu) => {
    const [a, b] = [gpu.alloc([64]), gpu.alloc([64])];
    try {
      gpu.decodeAttn!(a, a, a, a, a, a, b, 1, 4, 1, 0, 1);
    } finally {
      gpu.free(a);
      gpu.free(b);
    }
  }),
];
