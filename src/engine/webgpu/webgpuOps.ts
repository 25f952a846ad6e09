// The WebGPU backend's ops: every op of the table (src/engine/ops/table.ts) is implemented here, by its wrapper in
// ./ops/<family>.ts with the tuned variant picked; a missing one is an error when the backend is built.
import type { Tensor } from '../tensor';
import { OpBackend, installOps, type OpImpls } from '../ops/run';
import type { GpuContext, Kernel, Param } from './context';
import * as enc from './ops/encoder';
import * as rope from './ops/rope';
import * as mm from './ops/matmul';
import * as ln from './ops/layernorm';
import * as attn from './ops/attention';
import { genericOps } from './ops/generic';
import * as lp from './ops/logprob';
import * as smp from './ops/sample';
import * as opt from './ops/optim';
import * as dec from './ops/decode';
import type { DecodeOps } from '../decode';
import type { TunedOp, VariantOf } from './choices';

/** The op half of WebGpuBackend (./webgpuBackend.ts), which supplies the dispatch machinery and the kernel picks. */
export abstract class WebGpuOps extends OpBackend implements GpuContext {
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

  /** Every op of the table: the generic one-thread-per-element kernels and the wrappers in ./ops/<family>.ts, tuned variants picked. */
  constructor() {
    super();
    installOps(this, this.ops(), 'the WebGPU backend');
  }

  private ops(): OpImpls {
    const pick = <O extends TunedOp>(op: O, d: readonly number[]) => this.pick(op, d);
    return {
      ...genericOps(this),
      encoderForward: (a) => enc.encoderForward(this, a),
      encoderBackward: (a) => enc.encoderBackward(this, a),
      ropeForward: (a) => rope.ropeForward(this, a),
      ropeBackward: (a) => rope.ropeBackward(this, a),
      matmulForward: (a) => mm.matmulForward(this, a, pick('matmul', [a.N, a.C, a.OC])),
      matmulBackward: (a) => mm.matmulBackward(this, a, pick('matmul', [a.N, a.C, a.OC])),
      layernormForward: (a) => ln.layernormForward(this, a, pick('layernorm', [a.N, a.C])),
      layernormBackward: (a) => ln.layernormBackward(this, a, pick('layernorm', [a.N, a.C])),
      attentionForward: (a) => attn.attentionForward(this, a, pick('attention', [a.B, a.T, a.C, a.NH])),
      attentionBackward: (a) => attn.attentionBackward(this, a, pick('attention', [a.B, a.T, a.C, a.NH])),
      kvCacheWrite: (a) => attn.kvCacheWrite(this, a),
      attentionCached: (a) =>
        attn.attentionCached(this, a, pick('attentionCached', [a.B, a.T, a.pos0 + a.T, a.C, a.NH])),
      logprobForward: (a) => lp.logprobForward(this, a, pick('logprob', [a.N, a.V])),
      logprobBackward: (a) => lp.logprobBackward(this, a, pick('logprob', [a.N, a.V])),
      crossEntropyForward: (a) => lp.crossEntropyForward(this, a, pick('logprob', [a.N, a.V])),
      crossEntropyBackward: (a) => lp.crossEntropyBackward(this, a, pick('logprob', [a.N, a.V])),
      sampleTokens: (a) => smp.sampleTokens(this, a),
      sumSquares: (a) => opt.sumSquares(this, a, pick('sumSquares', [a.N])),
      adamw: (a) => opt.adamw(this, a),
    };
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
