// A GPT-2 style transformer over the Backend interface: forward to logits with the activations kept
// for backward, backward into flat gradients, and a clipped AdamW step over the flat buffers.
// Follows karpathy/llm.c train_gpt2.c (gpt2_forward / gpt2_backward), with an optional RoPE variant
// (rope applied to qkv after the qkv matmul, before attention; its backward before the matmul's).
import type { AdamWParams, Backend } from '../engine/backend';
import type { Tensor } from '../engine/tensor';
import { assertGPTConfig, type GPTConfig } from './config';
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

/** Activations of one block for one (B, T) shape. */
interface LayerActs {
  ln1: Tensor; // (B, T, C)
  ln1Mean: Tensor; // (B, T)
  ln1Rstd: Tensor; // (B, T)
  qkv: Tensor; // (B, T, 3C)
  qkvr: Tensor; // (B, T, 3C): rotated qkv for rope, else the same tensor as qkv
  atty: Tensor; // (B, T, C)
  att: Tensor; // (B, NH, T, T)
  attproj: Tensor; // (B, T, C)
  res2: Tensor; // (B, T, C)
  ln2: Tensor; // (B, T, C)
  ln2Mean: Tensor; // (B, T)
  ln2Rstd: Tensor; // (B, T)
  fch: Tensor; // (B, T, H)
  fchg: Tensor; // (B, T, H)
  fcproj: Tensor; // (B, T, C)
  res3: Tensor; // (B, T, C)
}

/** Every buffer of a forward/backward pass at one (B, T) shape, allocated once and reused. */
interface Acts {
  B: number;
  T: number;
  encoded: Tensor; // (B, T, C)
  layers: LayerActs[];
  lnf: Tensor; // (B, T, C)
  lnfMean: Tensor; // (B, T)
  lnfRstd: Tensor; // (B, T)
  logits: Tensor; // (B, T, V)
  dlogits: Tensor; // (B, T, V)
  // backward scratch (zeroed before each use, since backward ops accumulate)
  dres: Tensor; // (B, T, C) gradient of the residual stream
  dbtc: Tensor; // (B, T, C) gradient of a layer-norm output
  datty: Tensor; // (B, T, C)
  dqkv: Tensor; // (B, T, 3C)
  dqkvr: Tensor | null; // (B, T, 3C), rope only
  dfch: Tensor; // (B, T, H)
  dfchg: Tensor; // (B, T, H)
  owned: Tensor[];
  freed: boolean;
}

/** How many (B, T) activation sets the model keeps before freeing the least recently used. */
const MAX_SHAPES = 3;

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
  private readonly shapes = new Map<string, Acts>();
  private last: { acts: Acts; tokens: Tensor; tokStride: number } | null = null;

  /** A freshly initialised model (GPT-2 init from cfg.seed); throws naming every bad config field. */
  constructor(
    readonly backend: Backend,
    cfg: GPTConfig,
  ) {
    assertGPTConfig(cfg);
    this.cfg = { ...cfg };
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
    const key = `${B}x${T}`;
    const hit = this.shapes.get(key);
    if (hit) {
      this.shapes.delete(key);
      this.shapes.set(key, hit); // most recently used last
      return hit;
    }
    if (this.shapes.size >= MAX_SHAPES) {
      const [oldKey, old] = this.shapes.entries().next().value!;
      this.shapes.delete(oldKey);
      this.freeActs(old);
    }
    const a = this.allocActs(B, T);
    this.shapes.set(key, a);
    return a;
  }

  private allocActs(B: number, T: number): Acts {
    const { nEmbd: C, nHead: NH, vocabSize: V } = this.cfg;
    const H = this.cfg.mlpRatio * C;
    const owned: Tensor[] = [];
    const al = (shape: number[], label: string): Tensor => {
      const t = this.backend.alloc(shape, 'f32', label);
      owned.push(t);
      return t;
    };
    const rope = this.cfg.pos === 'rope';
    const layers: LayerActs[] = [];
    for (let l = 0; l < this.cfg.nLayer; l++) {
      const qkv = al([B, T, 3 * C], `h${l}.qkv`);
      layers.push({
        ln1: al([B, T, C], `h${l}.ln1`),
        ln1Mean: al([B, T], `h${l}.ln1Mean`),
        ln1Rstd: al([B, T], `h${l}.ln1Rstd`),
        qkv,
        qkvr: rope ? al([B, T, 3 * C], `h${l}.qkvr`) : qkv,
        atty: al([B, T, C], `h${l}.atty`),
        att: al([B, NH, T, T], `h${l}.att`),
        attproj: al([B, T, C], `h${l}.attproj`),
        res2: al([B, T, C], `h${l}.res2`),
        ln2: al([B, T, C], `h${l}.ln2`),
        ln2Mean: al([B, T], `h${l}.ln2Mean`),
        ln2Rstd: al([B, T], `h${l}.ln2Rstd`),
        fch: al([B, T, H], `h${l}.fch`),
        fchg: al([B, T, H], `h${l}.fchg`),
        fcproj: al([B, T, C], `h${l}.fcproj`),
        res3: al([B, T, C], `h${l}.res3`),
      });
    }
    return {
      B,
      T,
      layers,
      owned,
      freed: false,
      encoded: al([B, T, C], 'encoded'),
      lnf: al([B, T, C], 'lnf'),
      lnfMean: al([B, T], 'lnfMean'),
      lnfRstd: al([B, T], 'lnfRstd'),
      logits: al([B, T, V], 'logits'),
      dlogits: al([B, T, V], 'dlogits'),
      dres: al([B, T, C], 'dres'),
      dbtc: al([B, T, C], 'dbtc'),
      datty: al([B, T, C], 'datty'),
      dqkv: al([B, T, 3 * C], 'dqkv'),
      dqkvr: rope ? al([B, T, 3 * C], 'dqkvr') : null,
      dfch: al([B, T, H], 'dfch'),
      dfchg: al([B, T, H], 'dfchg'),
    };
  }

  private freeActs(a: Acts): void {
    for (const t of a.owned) this.backend.free(t);
    a.freed = true;
    if (this.last?.acts === a) this.last = null;
  }

  /** Free every activation buffer (they are reallocated by the next forward). */
  releaseActivations(): void {
    for (const a of this.shapes.values()) this.freeActs(a);
    this.shapes.clear();
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
    be.encoderForward(
      a.encoded,
      this.param('wte'),
      this.cfg.pos === 'learned' ? this.param('wpe') : null,
      tokens,
      B,
      T,
      C,
      tokStride,
      0,
    );
    let x = a.encoded;
    for (let l = 0; l < this.cfg.nLayer; l++) {
      const p = this.pl[l];
      const la = a.layers[l];
      be.layernormForward(la.ln1, la.ln1Mean, la.ln1Rstd, x, p.ln1w, p.ln1b, N, C);
      be.matmulForward(la.qkv, la.ln1, p.qkvw, p.qkvb, N, C, 3 * C);
      if (la.qkvr !== la.qkv) be.ropeForward(la.qkvr, la.qkv, B, T, C, NH, 0);
      be.attentionForward(la.atty, la.att, la.qkvr, B, T, C, NH);
      be.matmulForward(la.attproj, la.atty, p.attprojw, p.attprojb, N, C, C);
      be.residualForward(la.res2, x, la.attproj, N * C);
      be.layernormForward(la.ln2, la.ln2Mean, la.ln2Rstd, la.res2, p.ln2w, p.ln2b, N, C);
      be.matmulForward(la.fch, la.ln2, p.fcw, p.fcb, N, C, H);
      be.geluForward(la.fchg, la.fch, N * H);
      be.matmulForward(la.fcproj, la.fchg, p.fcprojw, p.fcprojb, N, H, C);
      be.residualForward(la.res3, la.res2, la.fcproj, N * C);
      x = la.res3;
    }
    be.layernormForward(a.lnf, a.lnfMean, a.lnfRstd, x, this.param('lnfw'), this.param('lnfb'), N, C);
    be.matmulForward(a.logits, a.lnf, this.param('wte'), null, N, C, V); // tied LM head
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
    be.matmulBackward(a.dbtc, this.grad('wte'), null, dlogits, a.lnf, this.param('wte'), N, C, V);
    be.fill(a.dres, 0);
    be.layernormBackward(
      a.dres,
      this.grad('lnfw'),
      this.grad('lnfb'),
      a.dbtc,
      a.layers[L - 1].res3,
      this.param('lnfw'),
      a.lnfMean,
      a.lnfRstd,
      N,
      C,
    );
    // a.dres now holds dL/d(res3 of the last block); each block turns it into dL/d(its input).
    for (let l = L - 1; l >= 0; l--) {
      const p = this.pl[l];
      const g = this.gl[l];
      const la = a.layers[l];
      const residual = l === 0 ? a.encoded : a.layers[l - 1].res3;
      // res3 = res2 + fcproj: both receive dres (dres keeps flowing as dL/d res2)
      be.fill(a.dfchg, 0);
      be.matmulBackward(a.dfchg, g.fcprojw, g.fcprojb, a.dres, la.fchg, p.fcprojw, N, H, C);
      be.fill(a.dfch, 0);
      be.geluBackward(a.dfch, la.fch, a.dfchg, N * H);
      be.fill(a.dbtc, 0);
      be.matmulBackward(a.dbtc, g.fcw, g.fcb, a.dfch, la.ln2, p.fcw, N, C, H);
      be.layernormBackward(a.dres, g.ln2w, g.ln2b, a.dbtc, la.res2, p.ln2w, la.ln2Mean, la.ln2Rstd, N, C);
      // res2 = residual + attproj: both receive dres (dres keeps flowing as dL/d residual)
      be.fill(a.datty, 0);
      be.matmulBackward(a.datty, g.attprojw, g.attprojb, a.dres, la.atty, p.attprojw, N, C, C);
      be.fill(a.dqkv, 0);
      if (a.dqkvr) {
        be.fill(a.dqkvr, 0);
        be.attentionBackward(a.dqkvr, a.datty, la.qkvr, la.att, B, T, C, NH);
        be.ropeBackward(a.dqkv, a.dqkvr, B, T, C, NH, 0);
      } else {
        be.attentionBackward(a.dqkv, a.datty, la.qkv, la.att, B, T, C, NH);
      }
      be.fill(a.dbtc, 0);
      be.matmulBackward(a.dbtc, g.qkvw, g.qkvb, a.dqkv, la.ln1, p.qkvw, N, C, 3 * C);
      be.layernormBackward(a.dres, g.ln1w, g.ln1b, a.dbtc, residual, p.ln1w, la.ln1Mean, la.ln1Rstd, N, C);
    }
    be.encoderBackward(
      this.grad('wte'),
      this.cfg.pos === 'learned' ? this.grad('wpe') : null,
      a.dres,
      tokens,
      B,
      T,
      C,
      tokStride,
      0,
    );
  }

  /**
   * One AdamW step over the flat buffers. With maxNorm > 0 the global gradient norm is computed on
   * the device (into `normSq`) and AdamW scales the gradients by min(1, maxNorm/norm): no readback.
   */
  step(hp: AdamWParams, maxNorm = 1): void {
    const n = this.layout.total;
    if (maxNorm > 0 && Number.isFinite(maxNorm)) {
      this.backend.sumSquares(this.normSq, this.grads, n);
      this.backend.adamw(this.params, this.grads, this.m, this.v, this.normSq, maxNorm, n, hp);
    } else {
      this.backend.adamw(this.params, this.grads, this.m, this.v, null, 0, n, hp);
    }
  }

  /** Free every buffer the model holds. */
  free(): void {
    this.releaseActivations();
    for (const t of [this.params, this.grads, this.m, this.v, this.normSq]) this.backend.free(t);
  }
}
