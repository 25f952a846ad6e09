// The WebGPU backend's op methods: each forwards to its wrapper in ./ops/<family>.ts, with the tuned variant picked.
import type { AdamWParams } from '../backend';
import type { Tensor } from '../tensor';
import type { GpuContext, Kernel, Param } from './context';
import * as enc from './ops/encoder';
import * as rope from './ops/rope';
import * as mm from './ops/matmul';
import * as ln from './ops/layernorm';
import * as attn from './ops/attention';
import * as ew from './ops/elementwise';
import * as lp from './ops/logprob';
import * as smp from './ops/sample';
import * as opt from './ops/optim';
import * as dec from './ops/decode';
import type { DecodeOps } from '../decode';
import type { TunedOp, VariantOf } from './choices';

/** The op half of WebGpuBackend (./webgpuBackend.ts), which supplies the dispatch machinery and the kernel picks. */
export abstract class WebGpuOps implements GpuContext {
  abstract run(
    kernel: Kernel,
    tensors: readonly Tensor[],
    params: readonly Param[],
    groups: readonly number[],
  ): void;
  abstract grid(total: number, wgSize: number): [number, number];
  abstract scratch(key: string, size: number): Tensor;
  /** The kernel variant of a tuned op at shape `d`. */
  protected abstract pick<O extends TunedOp>(op: O, d: readonly number[]): VariantOf<O>;

  // ---- ops -----------------------------------------------------------------------------------
  encoderForward(
    out: Tensor,
    wte: Tensor,
    wpe: Tensor | null,
    tokens: Tensor,
    B: number,
    T: number,
    C: number,
    tokStride: number,
    pos0: number,
  ): void {
    enc.encoderForward(this, out, wte, wpe, tokens, B, T, C, tokStride, pos0);
  }
  encoderBackward(
    dwte: Tensor,
    dwpe: Tensor | null,
    dout: Tensor,
    tokens: Tensor,
    B: number,
    T: number,
    C: number,
    tokStride: number,
    pos0: number,
  ): void {
    enc.encoderBackward(this, dwte, dwpe, dout, tokens, B, T, C, tokStride, pos0);
  }
  ropeForward(out: Tensor, inp: Tensor, B: number, T: number, C: number, NH: number, pos0: number): void {
    rope.ropeForward(this, out, inp, B, T, C, NH, pos0);
  }
  ropeBackward(dinp: Tensor, dout: Tensor, B: number, T: number, C: number, NH: number, pos0: number): void {
    rope.ropeBackward(this, dinp, dout, B, T, C, NH, pos0);
  }
  matmulForward(
    out: Tensor,
    inp: Tensor,
    weight: Tensor,
    bias: Tensor | null,
    N: number,
    C: number,
    OC: number,
  ): void {
    mm.matmulForward(this, out, inp, weight, bias, N, C, OC, this.pick('matmul', [N, C, OC]));
  }
  matmulBackward(
    dinp: Tensor | null,
    dweight: Tensor,
    dbias: Tensor | null,
    dout: Tensor,
    inp: Tensor,
    weight: Tensor,
    N: number,
    C: number,
    OC: number,
  ): void {
    mm.matmulBackward(
      this,
      dinp,
      dweight,
      dbias,
      dout,
      inp,
      weight,
      N,
      C,
      OC,
      this.pick('matmul', [N, C, OC]),
    );
  }
  layernormForward(
    out: Tensor,
    mean: Tensor,
    rstd: Tensor,
    inp: Tensor,
    weight: Tensor,
    bias: Tensor,
    N: number,
    C: number,
  ): void {
    ln.layernormForward(this, out, mean, rstd, inp, weight, bias, N, C, this.pick('layernorm', [N, C]));
  }
  layernormBackward(
    dinp: Tensor,
    dweight: Tensor,
    dbias: Tensor,
    dout: Tensor,
    inp: Tensor,
    weight: Tensor,
    mean: Tensor,
    rstd: Tensor,
    N: number,
    C: number,
  ): void {
    ln.layernormBackward(
      this,
      dinp,
      dweight,
      dbias,
      dout,
      inp,
      weight,
      mean,
      rstd,
      N,
      C,
      this.pick('layernorm', [N, C]),
    );
  }
  attentionForward(out: Tensor, att: Tensor, qkv: Tensor, B: number, T: number, C: number, NH: number): void {
    attn.attentionForward(this, out, att, qkv, B, T, C, NH, this.pick('attention', [B, T, C, NH]));
  }
  attentionBackward(
    dqkv: Tensor,
    dout: Tensor,
    qkv: Tensor,
    att: Tensor,
    B: number,
    T: number,
    C: number,
    NH: number,
  ): void {
    attn.attentionBackward(this, dqkv, dout, qkv, att, B, T, C, NH, this.pick('attention', [B, T, C, NH]));
  }
  kvCacheWrite(
    kcache: Tensor,
    vcache: Tensor,
    qkv: Tensor,
    B: number,
    T: number,
    pos0: number,
    Tmax: number,
    C: number,
  ): void {
    attn.kvCacheWrite(this, kcache, vcache, qkv, B, T, pos0, Tmax, C);
  }
  attentionCached(
    out: Tensor,
    qkv: Tensor,
    kcache: Tensor,
    vcache: Tensor,
    B: number,
    T: number,
    pos0: number,
    Tmax: number,
    C: number,
    NH: number,
  ): void {
    attn.attentionCached(
      this,
      out,
      qkv,
      kcache,
      vcache,
      B,
      T,
      pos0,
      Tmax,
      C,
      NH,
      this.pick('attentionCached', [B, T, pos0 + T, C, NH]),
    );
  }
  geluForward(out: Tensor, inp: Tensor, N: number): void {
    ew.geluForward(this, out, inp, N);
  }
  geluBackward(dinp: Tensor, inp: Tensor, dout: Tensor, N: number): void {
    ew.geluBackward(this, dinp, inp, dout, N);
  }
  residualForward(out: Tensor, a: Tensor, b: Tensor, N: number): void {
    ew.residualForward(this, out, a, b, N);
  }
  residualBackward(da: Tensor, db: Tensor, dout: Tensor, N: number): void {
    ew.residualBackward(this, da, db, dout, N);
  }
  logprobForward(
    logp: Tensor | null,
    entropy: Tensor | null,
    certainty: Tensor | null,
    logits: Tensor,
    targets: Tensor,
    N: number,
    V: number,
    temperature: number,
  ): void {
    lp.logprobForward(
      this,
      logp,
      entropy,
      certainty,
      logits,
      targets,
      N,
      V,
      temperature,
      this.pick('logprob', [N, V]),
    );
  }
  logprobBackward(
    dlogits: Tensor,
    logits: Tensor,
    targets: Tensor,
    weights: Tensor,
    N: number,
    V: number,
    temperature: number,
  ): void {
    lp.logprobBackward(
      this,
      dlogits,
      logits,
      targets,
      weights,
      N,
      V,
      temperature,
      this.pick('logprob', [N, V]),
    );
  }
  crossEntropyForward(losses: Tensor, logits: Tensor, targets: Tensor, N: number, V: number): void {
    lp.crossEntropyForward(this, losses, logits, targets, N, V, this.pick('logprob', [N, V]));
  }
  crossEntropyBackward(
    dlogits: Tensor,
    logits: Tensor,
    targets: Tensor,
    dlosses: Tensor,
    N: number,
    V: number,
  ): void {
    lp.crossEntropyBackward(this, dlogits, logits, targets, dlosses, N, V, this.pick('logprob', [N, V]));
  }
  sampleTokens(
    out: Tensor,
    logits: Tensor,
    rows: number,
    V: number,
    temperature: number,
    seed: number,
    counter: number,
    outStride: number,
    outOffset: number,
    logp: Tensor | null = null,
    logpOffset = 0,
  ): void {
    smp.sampleTokens(
      this,
      out,
      logits,
      rows,
      V,
      temperature,
      seed,
      counter,
      outStride,
      outOffset,
      logp,
      logpOffset,
    );
  }
  sumSquares(out: Tensor, inp: Tensor, N: number): void {
    opt.sumSquares(this, out, inp, N, this.pick('sumSquares', [N]));
  }
  adamw(
    params: Tensor,
    grads: Tensor,
    m: Tensor,
    v: Tensor,
    normSq: Tensor | null,
    maxNorm: number,
    N: number,
    hp: AdamWParams,
  ): void {
    opt.adamw(this, params, grads, m, v, normSq, maxNorm, N, hp);
  }
  // fused decode step (src/engine/decode.ts)
  decodeQkv(...a: Parameters<DecodeOps['decodeQkv']>): void {
    dec.decodeQkv(this, ...a);
  }
  decodeAttn(...a: Parameters<DecodeOps['decodeAttn']>): void {
    dec.decodeAttn(this, ...a);
  }
  decodeMlp(...a: Parameters<DecodeOps['decodeMlp']>): void {
    dec.decodeMlp(this, ...a);
  }
  decodeHead(...a: Parameters<DecodeOps['decodeHead']>): void {
    dec.decodeHead(this, ...a);
  }
}
