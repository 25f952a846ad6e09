// Parity of the attention kernels (shaders/attention.wgsl, shaders/attention_rows.wgsl) against the
// CPU twin src/engine/cpu/attention.ts: forward (out, att), backward (dqkv), KV-cache write and cached
// attention. Shapes pick their kernel variant as the backend does ('rows' up to 64 keys); the
// forced-variant cases check 'workgroup' at short contexts too, so both variants are covered.
import type { CompareResult } from '../compare';
import { attentionForward as cpuAttentionForward } from '../cpu/attention';
import type { GpuContext } from '../webgpu/context';
import * as attn from '../webgpu/ops/attention';
import { type ParityCase, pair, poisoned, randn } from './parityUtil';

type Shape = [number, number, number, number, attn.AttentionVariant?];

// (B, T, C, NH, forced variant): awkward head sizes and T around the 64-thread row workgroup and the
// 64-key limit of the 'rows' kernels, the model's B*T = 320 with hs 6 and 8, and typical B*T = 64..512
// with C = 32..128 and hs 8..32; then 'workgroup' at shapes that pick 'rows'.
const shapes: Shape[] = [
  [2, 13, 36, 3],
  [3, 7, 45, 5],
  [1, 1, 16, 2],
  [4, 64, 64, 4],
  [2, 100, 96, 3],
  [2, 130, 40, 5],
  [8, 64, 128, 4],
  [32, 10, 24, 4],
  [3, 65, 20, 4],
  [2, 13, 36, 3, 'workgroup'],
  [3, 7, 45, 5, 'workgroup'],
  [32, 10, 32, 4, 'workgroup'],
];

const tag = ([B, T, C, NH, v]: Shape): string =>
  `B=${B} T=${T} C=${C} NH=${NH} ${v ?? `(${attn.attentionVariant(T)})`}`;

function forwardCase([B, T, C, NH, v]: Shape, s: number): ParityCase {
  return {
    name: `attention: forward ${tag([B, T, C, NH, v])}`,
    async run(gpu, cpu) {
      const qkv = pair(gpu, cpu, [B, T, 3 * C], randn(B * T * 3 * C, 10 + s), 'qkv');
      const out = poisoned(gpu, cpu, [B, T, C], 'f32', 'out');
      const att = poisoned(gpu, cpu, [B, NH, T, T], 'f32', 'att');
      if (v)
        attn.attentionForward(
          gpu as unknown as GpuContext,
          { out: out.gpu, att: att.gpu, qkv: qkv.gpu, B, T, C, NH },
          v,
        );
      else gpu.attentionForward({ out: out.gpu, att: att.gpu, qkv: qkv.gpu, B, T, C, NH });
      cpu.attentionForward({ out: out.cpu, att: att.cpu, qkv: qkv.cpu, B, T, C, NH });
      const res = [await out.check('out'), await att.check('att')];
      for (const p of [qkv, out, att]) p.free();
      return res;
    },
  };
}

function backwardCase([B, T, C, NH, v]: Shape, s: number): ParityCase {
  return {
    name: `attention: backward ${tag([B, T, C, NH, v])}`,
    async run(gpu, cpu) {
      const x = randn(B * T * 3 * C, 20 + s);
      const a = new Float32Array(B * NH * T * T);
      cpuAttentionForward(new Float32Array(B * T * C), a, x, B, T, C, NH);
      const qkv = pair(gpu, cpu, [B, T, 3 * C], x, 'qkv');
      const att = pair(gpu, cpu, [B, NH, T, T], a, 'att');
      const dout = pair(gpu, cpu, [B, T, C], randn(B * T * C, 30 + s), 'dout');
      const dqkv = pair(gpu, cpu, [B, T, 3 * C], randn(B * T * 3 * C, 40 + s), 'dqkv'); // accumulated into
      if (v)
        attn.attentionBackward(
          gpu as unknown as GpuContext,
          { dqkv: dqkv.gpu, dout: dout.gpu, qkv: qkv.gpu, att: att.gpu, B, T, C, NH },
          v,
        );
      else gpu.attentionBackward({ dqkv: dqkv.gpu, dout: dout.gpu, qkv: qkv.gpu, att: att.gpu, B, T, C, NH });
      cpu.attentionBackward({ dqkv: dqkv.cpu, dout: dout.cpu, qkv: qkv.cpu, att: att.cpu, B, T, C, NH });
      const res = [await dqkv.check('dqkv')];
      for (const p of [qkv, att, dout, dqkv]) p.free();
      return res;
    },
  };
}

/** kvCacheWrite of T new positions at pos0 into random caches, then attentionCached of those T queries. */
function cachedCase(
  B: number,
  T: number,
  pos0: number,
  Tmax: number,
  C: number,
  NH: number,
  s: number,
  v?: attn.AttentionVariant,
): ParityCase {
  return {
    name: `attention: kv cache B=${B} T=${T} pos0=${pos0} Tmax=${Tmax} C=${C} NH=${NH} ${v ?? `(${attn.attentionVariant(pos0 + T)})`}`,
    async run(gpu, cpu) {
      const qkv = pair(gpu, cpu, [B, T, 3 * C], randn(B * T * 3 * C, 50 + s), 'qkv');
      // earlier positions (and unused ones, which must stay untouched) hold random cache contents
      const kc = pair(gpu, cpu, [B, Tmax, C], randn(B * Tmax * C, 60 + s), 'kcache');
      const vc = pair(gpu, cpu, [B, Tmax, C], randn(B * Tmax * C, 70 + s), 'vcache');
      const out = poisoned(gpu, cpu, [B, T, C], 'f32', 'out');
      gpu.kvCacheWrite({ kcache: kc.gpu, vcache: vc.gpu, qkv: qkv.gpu, B, T, pos0, Tmax, C });
      cpu.kvCacheWrite({ kcache: kc.cpu, vcache: vc.cpu, qkv: qkv.cpu, B, T, pos0, Tmax, C });
      if (v)
        attn.attentionCached(
          gpu as unknown as GpuContext,
          { out: out.gpu, qkv: qkv.gpu, kcache: kc.gpu, vcache: vc.gpu, B, T, pos0, Tmax, C, NH },
          v,
        );
      else
        gpu.attentionCached({
          out: out.gpu,
          qkv: qkv.gpu,
          kcache: kc.gpu,
          vcache: vc.gpu,
          B,
          T,
          pos0,
          Tmax,
          C,
          NH,
        });
      cpu.attentionCached({
        out: out.cpu,
        qkv: qkv.cpu,
        kcache: kc.cpu,
        vcache: vc.cpu,
        B,
        T,
        pos0,
        Tmax,
        C,
        NH,
      });
      const res: CompareResult[] = [
        await kc.check('kcache', 0, 0),
        await vc.check('vcache', 0, 0),
        await out.check('out'),
      ];
      for (const p of [qkv, kc, vc, out]) p.free();
      return res;
    },
  };
}

export const cases: ParityCase[] = [
  ...shapes.map(forwardCase),
  ...shapes.map(backwardCase),
  cachedCase(3, 5, 7, 19, 36, 3, 0),
  cachedCase(3, 1, 18, 19, 36, 3, 1), // decode step at the last position
  cachedCase(2, 19, 0, 19, 45, 5, 2), // prefill of the whole cache
  cachedCase(16, 1, 70, 130, 128, 4, 3), // model-like decode, context past the 64-thread row
  cachedCase(1, 3, 200, 256, 256, 2, 4), // hs = 128 > 64 threads: channel chunks
  cachedCase(16, 1, 12, 13, 24, 4, 5), // the model's last decode step, hs = 6
  cachedCase(2, 3, 61, 70, 36, 3, 6), // exactly 64 keys for the last query: the 'rows' limit
  cachedCase(3, 5, 7, 19, 36, 3, 7, 'workgroup'),
  cachedCase(16, 1, 12, 13, 32, 4, 8, 'workgroup'),
];
