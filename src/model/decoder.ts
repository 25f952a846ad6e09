// The KV-cache decoder of generate.ts: its activation and cache buffers per shape, the cached and fused decode step, and the per-model decoder cache.
import type { Backend } from '../engine/backend';
import type { Tensor } from '../engine/tensor';
import { DECODE_MAX_C, type DecodeOps } from '../engine/decode';
import type { GPT } from './gpt';

/** Activation buffers of a cached forward at T positions (views of a Decoder's buffers). */
interface StepBufs {
  xa: Tensor; // (R, T, C) residual stream
  xb: Tensor; // (R, T, C)
  ln: Tensor; // (R, T, C)
  mean: Tensor; // (R, T)
  rstd: Tensor; // (R, T)
  qkv: Tensor; // (R, T, 3C)
  qkvr: Tensor; // (R, T, 3C), = qkv without rope
  atty: Tensor; // (R, T, C)
  attproj: Tensor; // (R, T, C)
  fch: Tensor; // (R, T, H)
  fchg: Tensor; // (R, T, H)
  fcproj: Tensor; // (R, T, C)
  logits: Tensor; // (R, T, V)
}

/** Sampling settings of one decode step (see Backend.sampleTokens). */
interface SampleArgs {
  temperature: number;
  seed: number;
  counter: number;
  logp: Tensor | null;
  logpOffset: number;
}

/** Decode buffers for one (rows, prompt length, maxNewTokens) shape, allocated once. */
export class Decoder {
  readonly L: number; // token buffer row length Tp + maxNew
  readonly Tmax: number; // cache positions Tp + maxNew - 1
  readonly seq: Tensor; // u32 (R, L): prompt then generated tokens
  readonly logpAll: Tensor; // (maxNew, R) step-major log-probs
  readonly kc: Tensor[] = []; // per layer (R, Tmax, C)
  readonly vc: Tensor[] = [];
  readonly pre: StepBufs | null; // T = Tp - 1 (prompt prefill)
  readonly dec: StepBufs; // T = 1 (one decode step)
  private readonly owned: Tensor[] = [];

  constructor(
    private readonly model: GPT,
    readonly R: number,
    readonly Tp: number,
    readonly maxNew: number,
  ) {
    const be = model.backend;
    const { nEmbd: C, vocabSize: V, nLayer } = model.cfg;
    const H = model.cfg.mlpRatio * C;
    this.L = Tp + maxNew;
    this.Tmax = Tp + maxNew - 1;
    const al = (shape: number[], label: string, dtype: 'f32' | 'u32' = 'f32'): Tensor => {
      const t = be.alloc(shape, dtype, `gen.${label}`);
      this.owned.push(t);
      return t;
    };
    this.seq = al([R, this.L], 'seq', 'u32');
    this.logpAll = al([maxNew, R], 'logp');
    for (let l = 0; l < nLayer; l++) {
      this.kc.push(al([R, this.Tmax, C], `kcache${l}`));
      this.vc.push(al([R, this.Tmax, C], `vcache${l}`));
    }
    const Tb = Math.max(Tp - 1, 1);
    const rope = model.cfg.pos === 'rope';
    const qkv = al([R * Tb * 3 * C], 'qkv');
    const full = {
      xa: al([R * Tb * C], 'xa'),
      xb: al([R * Tb * C], 'xb'),
      ln: al([R * Tb * C], 'ln'),
      mean: al([R * Tb], 'mean'),
      rstd: al([R * Tb], 'rstd'),
      qkv,
      qkvr: rope ? al([R * Tb * 3 * C], 'qkvr') : qkv,
      atty: al([R * Tb * C], 'atty'),
      attproj: al([R * Tb * C], 'attproj'),
      fch: al([R * Tb * H], 'fch'),
      fchg: al([R * Tb * H], 'fchg'),
      fcproj: al([R * Tb * C], 'fcproj'),
      logits: al([R, V], 'logits'),
    };
    const sizes: Record<keyof StepBufs, number> = {
      xa: C,
      xb: C,
      ln: C,
      mean: 1,
      rstd: 1,
      qkv: 3 * C,
      qkvr: 3 * C,
      atty: C,
      attproj: C,
      fch: H,
      fchg: H,
      fcproj: C,
      logits: V,
    };
    const views = (T: number): StepBufs => {
      const out = {} as StepBufs;
      for (const k of Object.keys(sizes) as (keyof StepBufs)[]) {
        const rows = k === 'logits' ? 1 : T; // logits are only computed for one position
        out[k] = k === 'qkvr' && !rope ? out.qkv : be.view(full[k], 0, [R, rows, sizes[k]], `gen.${k}`);
      }
      return out;
    };
    this.pre = Tp > 1 ? views(Tp - 1) : null;
    this.dec = views(1);
  }

  /**
   * Cached forward of T tokens per row at positions pos0..pos0+T-1 (read from `seq`): writes the
   * KV caches and, when `logits`, the logits (R, T, V) into b.logits.
   */
  forward(b: StepBufs, T: number, pos0: number, logits: boolean): void {
    const m = this.model;
    const be = m.backend;
    const { nEmbd: C, nHead: NH, vocabSize: V, nLayer } = m.cfg;
    const H = m.cfg.mlpRatio * C;
    const { R, Tmax } = this;
    const N = R * T;
    be.encoderForward({
      out: b.xa,
      wte: m.param('wte'),
      wpe: m.cfg.pos === 'learned' ? m.param('wpe') : null,
      tokens: this.seq,
      B: R,
      T,
      C,
      tokStride: this.L,
      pos0,
    });
    for (let l = 0; l < nLayer; l++) {
      const p = m.layerParams(l);
      be.layernormForward({
        out: b.ln,
        mean: b.mean,
        rstd: b.rstd,
        inp: b.xa,
        weight: p.ln1w,
        bias: p.ln1b,
        N,
        C,
      });
      be.matmulForward({ out: b.qkv, inp: b.ln, weight: p.qkvw, bias: p.qkvb, N, C, OC: 3 * C });
      if (b.qkvr !== b.qkv) be.ropeForward({ out: b.qkvr, inp: b.qkv, B: R, T, C, NH, pos0 });
      be.kvCacheWrite({ kcache: this.kc[l], vcache: this.vc[l], qkv: b.qkvr, B: R, T, pos0, Tmax, C });
      if (!logits && l === nLayer - 1) return; // prefill needs only the caches
      be.attentionCached({
        out: b.atty,
        qkv: b.qkvr,
        kcache: this.kc[l],
        vcache: this.vc[l],
        B: R,
        T,
        pos0,
        Tmax,
        C,
        NH,
      });
      be.matmulForward({ out: b.attproj, inp: b.atty, weight: p.attprojw, bias: p.attprojb, N, C, OC: C });
      be.residualForward({ out: b.xb, a: b.xa, b: b.attproj, N: N * C });
      be.layernormForward({
        out: b.ln,
        mean: b.mean,
        rstd: b.rstd,
        inp: b.xb,
        weight: p.ln2w,
        bias: p.ln2b,
        N,
        C,
      });
      be.matmulForward({ out: b.fch, inp: b.ln, weight: p.fcw, bias: p.fcb, N, C, OC: H });
      be.geluForward({ out: b.fchg, inp: b.fch, N: N * H });
      be.matmulForward({ out: b.fcproj, inp: b.fchg, weight: p.fcprojw, bias: p.fcprojb, N, C: H, OC: C });
      be.residualForward({ out: b.xa, a: b.xb, b: b.fcproj, N: N * C });
    }
    be.layernormForward({
      out: b.ln,
      mean: b.mean,
      rstd: b.rstd,
      inp: b.xa,
      weight: m.param('lnfw'),
      bias: m.param('lnfb'),
      N,
      C,
    });
    be.matmulForward({ out: b.logits, inp: b.ln, weight: m.param('wte'), bias: null, N, C, OC: V });
  }

  /** Whether the backend has the fused decode ops and the model fits them (src/engine/decode.ts). */
  get fused(): boolean {
    const be = this.model.backend;
    return (
      !!(be.decodeQkv && be.decodeAttn && be.decodeMlp && be.decodeHead) &&
      this.model.cfg.nEmbd <= DECODE_MAX_C
    );
  }

  /**
   * One decode step with the fused ops: position pos of every row from its token in `seq` to the next
   * token (into `seq` at pos + 1) and its log-prob; 3 dispatches per block and 1 for the head, the
   * embedding fused into block 0's first.
   */
  fusedStep(pos: number, s: SampleArgs): void {
    const m = this.model;
    const be = m.backend as Backend & DecodeOps;
    const { nEmbd: C, nHead: NH, vocabSize: V, nLayer } = m.cfg;
    const H = m.cfg.mlpRatio * C;
    const { R, Tmax, L } = this;
    const b = this.dec;
    const learned = m.cfg.pos === 'learned';
    for (let l = 0; l < nLayer; l++) {
      const p = m.layerParams(l);
      const e = l === 0; // block 0 embeds the tokens first
      be.decodeQkv(
        b.atty,
        this.kc[l],
        this.vc[l],
        b.xa,
        e ? this.seq : null,
        e ? m.param('wte') : null,
        e && learned ? m.param('wpe') : null,
        p.ln1w,
        p.ln1b,
        p.qkvw,
        p.qkvb,
        R,
        C,
        NH,
        pos,
        Tmax,
        L,
        !learned,
      );
      be.decodeAttn(b.xb, b.atty, this.kc[l], this.vc[l], b.xa, p.attprojw, p.attprojb, R, C, NH, pos, Tmax);
      be.decodeMlp(b.xa, b.xb, p.ln2w, p.ln2b, p.fcw, p.fcb, p.fcprojw, p.fcprojb, R, C, H);
    }
    be.decodeHead(
      this.seq,
      s.logp,
      b.logits,
      b.xa,
      m.param('lnfw'),
      m.param('lnfb'),
      m.param('wte'),
      R,
      C,
      V,
      s.temperature,
      s.seed,
      s.counter,
      L,
      pos + 1,
      s.logpOffset,
    );
  }

  free(): void {
    for (const t of this.owned) this.model.backend.free(t);
  }
}

const MAX_DECODERS = 4;
const decoders = new WeakMap<GPT, Map<string, Decoder>>();

export function getDecoder(model: GPT, R: number, Tp: number, maxNew: number): Decoder {
  let map = decoders.get(model);
  if (!map) decoders.set(model, (map = new Map()));
  const key = `${R}|${Tp}|${maxNew}`;
  let d = map.get(key);
  if (d) map.delete(key);
  else {
    if (map.size >= MAX_DECODERS) {
      const [k, old] = map.entries().next().value!;
      map.delete(k);
      old.free();
    }
    d = new Decoder(model, R, Tp, maxNew);
  }
  map.set(key, d);
  return d;
}

/** Free the decode buffers kept for `model` (they are reallocated on the next generate). */
export function releaseDecoders(model: GPT): void {
  const map = decoders.get(model);
  if (!map) return;
  for (const d of map.values()) d.free();
  decoders.delete(model);
}
