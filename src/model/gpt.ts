// A GPT-2 style transformer over the Backend interface: forward to logits with the activations kept
// for backward, backward into flat gradients, and a clipped AdamW step over the flat buffers.
// Follows karpathy/llm.c train_gpt2.c (gpt2_forward / gpt2_backward), with an optional RoPE variant
// (rope applied to qkv after the qkv matmul, before attention; its backward before the matmul's).
import type { AdamWParams, Backend } from '../engine/backend';
import type { Tensor } from '../engine/tensor';
import { assertGPTConfig, type GPTConfig } from './config';
import { ActivationCache, type Acts } from './activations';
import {
  initParams,
  LAYER_PARAM_NAMES,
  layerParam,
  paramLayout,
  type LayerParamName,
  type ParamLayout,
} from './params';

/** Views of one block's parameters (or gradients). */
export type LayerTensors = Record<LayerParamName, Tensor>;

export class GPT {
  readonly cfg: GPTConfig;
  readonly layout: ParamLayout;
  /** Flat parameters, gradients and AdamW moments (layout.total elements each). */
  readonly params: Tensor;
  readonly grads: Tensor;
  readonly m: Tensor;
  readonly v: Tensor;
  /** (1) squared global gradient norm, written by `step` when clipping. */
  readonly normSq: Tensor;
  private readonly pviews = new Map<string, Tensor>();
  private readonly gviews = new Map<string, Tensor>();
  private readonly pl: LayerTensors[] = [];
  private readonly gl: LayerTensors[] = [];
  private readonly shapes: ActivationCache;
  private last: { acts: Acts; tokens: Tensor; tokStride: number } | null = null;

  /** A freshly initialised model (GPT-2 init from cfg.seed); throws naming every bad config field. */
  constructor(
    readonly backend: Backend,
    cfg: GPTConfig,
  ) {
    assertGPTConfig(cfg);
    this.cfg = { ...cfg };
    this.shapes = new ActivationCache(backend, this.cfg, (a) => {
      if (this.last?.acts === a) this.last = null;
    });
    this.layout = paramLayout(cfg);
    const n = this.layout.total;
    this.params = backend.alloc([n], 'f32', 'params');
    this.grads = backend.alloc([n], 'f32', 'grads');
    this.m = backend.alloc([n], 'f32', 'adam.m');
    this.v = backend.alloc([n], 'f32', 'adam.v');
    this.normSq = backend.alloc([1], 'f32', 'normSq');
    for (const s of this.layout.specs) {
      this.pviews.set(s.name, backend.view(this.params, s.offset, s.shape, s.name));
      this.gviews.set(s.name, backend.view(this.grads, s.offset, s.shape, `d${s.name}`));
    }
    for (let l = 0; l < cfg.nLayer; l++) {
      const p = {} as LayerTensors;
      const g = {} as LayerTensors;
      for (const k of LAYER_PARAM_NAMES) {
        p[k] = this.pviews.get(layerParam(l, k))!;
        g[k] = this.gviews.get(layerParam(l, k))!;
      }
      this.pl.push(p);
      this.gl.push(g);
    }
    backend.write(this.params, initParams(cfg, this.layout));
    this.zeroGrad();
    this.resetOptimizer();
  }

  /** The view of a named parameter, e.g. 'wte' or 'h0.qkvw'. */
  param(name: string): Tensor {
    const t = this.pviews.get(name);
    if (!t) throw new Error(`unknown parameter '${name}'; known: ${[...this.pviews.keys()].join(', ')}`);
    return t;
  }
  /** The view of a named parameter's gradient. */
  grad(name: string): Tensor {
    this.param(name);
    return this.gviews.get(name)!;
  }
  /** Views of block `l`'s parameters. */
  layerParams(l: number): LayerTensors {
    return this.pl[l];
  }

  /** Set every gradient to zero (backward accumulates). */
  zeroGrad(): void {
    this.backend.fill(this.grads, 0);
  }
  /** Zero the AdamW moments (a fresh optimizer). */
  resetOptimizer(): void {
    this.backend.fill(this.m, 0);
    this.backend.fill(this.v, 0);
  }
  /** Read the flat parameters back to the host. */
  async readParams(): Promise<Float32Array> {
    return (await this.backend.read(this.params)) as Float32Array;
  }
  /** Overwrite the flat parameters (layout.total values). */
  writeParams(flat: Float32Array): void {
    this.backend.write(this.params, flat);
  }

  private acts(B: number, T: number): Acts {
    return this.shapes.get(B, T);
  }

  /** Free every activation buffer (they are reallocated by the next forward). */
  releaseActivations(): void {
    this.shapes.release();
  }

  /**
   * Forward pass: logits (B, T, V) of tokens (u32, row b at tokens[b*tokStride .. +T]); keeps the
   * activations for `backward`. Returns the model-owned logits buffer (overwritten by the next
   * forward of the same shape).
   */
  forward(tokens: Tensor, B: number, T: number, tokStride = T): Tensor {
    const { nEmbd: C, nHead: NH, vocabSize: V, blockSize } = this.cfg;
    const H = this.cfg.mlpRatio * C;
    if (T > blockSize)
      throw new Error(`sequence of ${T} tokens is longer than the model's context (blockSize ${blockSize})`);
    if (tokens.dtype !== 'u32') throw new Error(`tokens must be u32, got ${tokens.dtype}`);
    if (tokens.size < (B - 1) * tokStride + T)
      throw new Error(`tokens (${tokens.size}) too small for B=${B}, T=${T}, stride ${tokStride}`);
    const be = this.backend;
    const a = this.acts(B, T);
    const N = B * T;
    be.encoderForward({
      out: a.encoded,
      wte: this.param('wte'),
      wpe: this.cfg.pos === 'learned' ? this.param('wpe') : null,
      tokens,
      B,
      T,
      C,
      tokStride,
      pos0: 0,
    });
    let x = a.encoded;
    for (let l = 0; l < this.cfg.nLayer; l++) {
      const p = this.pl[l];
      const la = a.layers[l];
      be.layernormForward({
        out: la.ln1,
        mean: la.ln1Mean,
        rstd: la.ln1Rstd,
        inp: x,
        weight: p.ln1w,
        bias: p.ln1b,
        N,
        C,
      });
      be.matmulForward({ out: la.qkv, inp: la.ln1, weight: p.qkvw, bias: p.qkvb, N, C, OC: 3 * C });
      if (la.qkvr !== la.qkv) be.ropeForward({ out: la.qkvr, inp: la.qkv, B, T, C, NH, pos0: 0 });
      be.attentionForward({ out: la.atty, att: la.att, qkv: la.qkvr, B, T, C, NH });
      be.matmulForward({ out: la.attproj, inp: la.atty, weight: p.attprojw, bias: p.attprojb, N, C, OC: C });
      be.residualForward({ out: la.res2, a: x, b: la.attproj, N: N * C });
      be.layernormForward({
        out: la.ln2,
        mean: la.ln2Mean,
        rstd: la.ln2Rstd,
        inp: la.res2,
        weight: p.ln2w,
        bias: p.ln2b,
        N,
        C,
      });
      be.matmulForward({ out: la.fch, inp: la.ln2, weight: p.fcw, bias: p.fcb, N, C, OC: H });
      be.geluForward({ out: la.fchg, inp: la.fch, N: N * H });
      be.matmulForward({ out: la.fcproj, inp: la.fchg, weight: p.fcprojw, bias: p.fcprojb, N, C: H, OC: C });
      be.residualForward({ out: la.res3, a: la.res2, b: la.fcproj, N: N * C });
      x = la.res3;
    }
    be.layernormForward({
      out: a.lnf,
      mean: a.lnfMean,
      rstd: a.lnfRstd,
      inp: x,
      weight: this.param('lnfw'),
      bias: this.param('lnfb'),
      N,
      C,
    });
    be.matmulForward({ out: a.logits, inp: a.lnf, weight: this.param('wte'), bias: null, N, C, OC: V }); // tied LM head
    this.last = { acts: a, tokens, tokStride };
    return a.logits;
  }

  private lastActs(): Acts {
    if (!this.last || this.last.acts.freed) throw new Error('backward/attention needs a forward pass first');
    return this.last.acts;
  }

  /** The logits (B, T, V) of the last forward. */
  lastLogits(): Tensor {
    return this.lastActs().logits;
  }

  /** The (B, T, V) dlogits buffer of the last forward's shape, for the caller to zero and fill. */
  gradLogits(): Tensor {
    return this.lastActs().dlogits;
  }

  /** Attention probabilities (B, NH, T, T) of block `layer` from the last forward. */
  attentionProbs(layer: number): Tensor {
    if (!(layer >= 0 && layer < this.cfg.nLayer))
      throw new Error(`layer ${layer} out of range [0, ${this.cfg.nLayer})`);
    return this.lastActs().layers[layer].att;
  }

  /**
   * Backward pass of the last forward from dlogits (B, T, V), ACCUMULATING into the flat gradients
   * (call zeroGrad first for a fresh step).
   */
  backward(dlogits: Tensor): void {
    const a = this.lastActs();
    const { tokens, tokStride } = this.last!;
    const { nEmbd: C, nHead: NH, vocabSize: V } = this.cfg;
    const H = this.cfg.mlpRatio * C;
    const { B, T } = a;
    const N = B * T;
    const be = this.backend;
    const L = this.cfg.nLayer;
    // LM head (tied to wte) and final layer norm
    be.fill(a.dbtc, 0);
    be.matmulBackward({
      dinp: a.dbtc,
      dweight: this.grad('wte'),
      dbias: null,
      dout: dlogits,
      inp: a.lnf,
      weight: this.param('wte'),
      N,
      C,
      OC: V,
    });
    be.fill(a.dres, 0);
    be.layernormBackward({
      dinp: a.dres,
      dweight: this.grad('lnfw'),
      dbias: this.grad('lnfb'),
      dout: a.dbtc,
      inp: a.layers[L - 1].res3,
      weight: this.param('lnfw'),
      mean: a.lnfMean,
      rstd: a.lnfRstd,
      N,
      C,
    });
    // a.dres now holds dL/d(res3 of the last block); each block turns it into dL/d(its input).
    for (let l = L - 1; l >= 0; l--) {
      const p = this.pl[l];
      const g = this.gl[l];
      const la = a.layers[l];
      const residual = l === 0 ? a.encoded : a.layers[l - 1].res3;
      // res3 = res2 + fcproj: both receive dres (dres keeps flowing as dL/d res2)
      be.fill(a.dfchg, 0);
      be.matmulBackward({
        dinp: a.dfchg,
        dweight: g.fcprojw,
        dbias: g.fcprojb,
        dout: a.dres,
        inp: la.fchg,
        weight: p.fcprojw,
        N,
        C: H,
        OC: C,
      });
      be.fill(a.dfch, 0);
      be.geluBackward({ dinp: a.dfch, inp: la.fch, dout: a.dfchg, N: N * H });
      be.fill(a.dbtc, 0);
      be.matmulBackward({
        dinp: a.dbtc,
        dweight: g.fcw,
        dbias: g.fcb,
        dout: a.dfch,
        inp: la.ln2,
        weight: p.fcw,
        N,
        C,
        OC: H,
      });
      be.layernormBackward({
        dinp: a.dres,
        dweight: g.ln2w,
        dbias: g.ln2b,
        dout: a.dbtc,
        inp: la.res2,
        weight: p.ln2w,
        mean: la.ln2Mean,
        rstd: la.ln2Rstd,
        N,
        C,
      });
      // res2 = residual + attproj: both receive dres (dres keeps flowing as dL/d residual)
      be.fill(a.datty, 0);
      be.matmulBackward({
        dinp: a.datty,
        dweight: g.attprojw,
        dbias: g.attprojb,
        dout: a.dres,
        inp: la.atty,
        weight: p.attprojw,
        N,
        C,
        OC: C,
      });
      be.fill(a.dqkv, 0);
      if (a.dqkvr) {
        be.fill(a.dqkvr, 0);
        be.attentionBackward({ dqkv: a.dqkvr, dout: a.datty, qkv: la.qkvr, att: la.att, B, T, C, NH });
        be.ropeBackward({ dinp: a.dqkv, dout: a.dqkvr, B, T, C, NH, pos0: 0 });
      } else {
        be.attentionBackward({ dqkv: a.dqkv, dout: a.datty, qkv: la.qkv, att: la.att, B, T, C, NH });
      }
      be.fill(a.dbtc, 0);
      be.matmulBackward({
        dinp: a.dbtc,
        dweight: g.qkvw,
        dbias: g.qkvb,
        dout: a.dqkv,
        inp: la.ln1,
        weight: p.qkvw,
        N,
        C,
        OC: 3 * C,
      });
      be.layernormBackward({
        dinp: a.dres,
        dweight: g.ln1w,
        dbias: g.ln1b,
        dout: a.dbtc,
        inp: residual,
        weight: p.ln1w,
        mean: la.ln1Mean,
        rstd: la.ln1Rstd,
        N,
        C,
      });
    }
    be.encoderBackward({
      dwte: this.grad('wte'),
      dwpe: this.cfg.pos === 'learned' ? this.grad('wpe') : null,
      dout: a.dres,
      tokens,
      B,
      T,
      C,
      tokStride,
      pos0: 0,
    });
  }

  /**
   * One AdamW step over the flat buffers. With maxNorm > 0 the global gradient norm is computed on
   * the device (into `normSq`) and AdamW scales the gradients by min(1, maxNorm/norm): no readback.
   */
  step(hp: AdamWParams, maxNorm = 1): void {
    const n = this.layout.total;
    if (maxNorm > 0 && Number.isFinite(maxNorm)) {
      this.backend.sumSquares({ out: this.normSq, inp: this.grads, N: n });
      this.backend.adamw({
        params: this.params,
        grads: this.grads,
        m: this.m,
        v: this.v,
        normSq: this.normSq,
        maxNorm,
        N: n,
        hp,
      });
    } else {
      this.backend.adamw({
        params: this.params,
        grads: this.grads,
        m: this.m,
        v: this.v,
        normSq: null,
        maxNorm: 0,
        N: n,
        hp,
      });
    }
  }

  /** Free every buffer the model holds. */
  free(): void {
    this.releaseActivations();
    for (const t of [this.params, this.grads, this.m, this.v, this.normSq]) this.backend.free(t);
  }
}
