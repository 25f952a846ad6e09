// Autoregressive generation with a KV cache: prefill the prompts, then one token per step for all
// B*K rows (with the backend's fused decode ops where it has them: 3 dispatches per block + 1 per step), sampling on the device straight into the token rows with the chosen token's log-prob in the
// same dispatch (no per-token readback), and one readback of tokens and log-probs at the end
// (`startGenerate` records the work without reading, so callers can batch several generations into one
// readback). Follows the usual GPT KV-cache decoding (nanoGPT's
// generate without recompute); `generateNoCache` is the full-recompute reference used by tests.
import { resolvePending, type Backend, type Pending, type Tensor } from '../engine/backend';
import { DECODE_MAX_C, type DecodeOps } from '../engine/decode';
import { assertFitsContext } from './config';
import type { GPT } from './gpt';

export interface GenerateOptions {
  /** Samples per prompt K (rows r = b*K + k). */
  samples: number;
  /** Sampling temperature; 0 = greedy (argmax, ties to the lowest id). */
  temperature: number;
  /** Tokens to generate per row (always this many steps; rows that hit EOS are padded). */
  maxNewTokens: number;
  /** End-of-sequence id: a row's completion ends at its first EOS. */
  eosId: number;
  /** Seed of this call's random draws (u32); draw of row r at step s is uniform01(seed, s, r). */
  seed: number;
  /** Compute the generated tokens' log-probs (default true); when false, `logp` of the result is empty. */
  logp?: boolean;
}

export interface GenerateResult {
  /** Number of rows B*K. */
  rows: number;
  maxNewTokens: number;
  /** (rows, maxNewTokens) generated ids; after a row's first EOS every id is eosId. */
  tokens: Uint32Array;
  /**
   * (rows, maxNewTokens) log-prob of each token at the sampling temperature (1 when greedy); 0 after EOS.
   * Empty (length 0) when the options asked for no log-probs.
   */
  logp: Float32Array;
  /** (rows) tokens up to and including the first EOS, or maxNewTokens if there is none. */
  lengths: Uint32Array;
  /** (rows) 1 when the row never produced EOS. */
  truncated: Uint8Array;
}

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
class Decoder {
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
    be.encoderForward(
      b.xa,
      m.param('wte'),
      m.cfg.pos === 'learned' ? m.param('wpe') : null,
      this.seq,
      R,
      T,
      C,
      this.L,
      pos0,
    );
    for (let l = 0; l < nLayer; l++) {
      const p = m.layerParams(l);
      be.layernormForward(b.ln, b.mean, b.rstd, b.xa, p.ln1w, p.ln1b, N, C);
      be.matmulForward(b.qkv, b.ln, p.qkvw, p.qkvb, N, C, 3 * C);
      if (b.qkvr !== b.qkv) be.ropeForward(b.qkvr, b.qkv, R, T, C, NH, pos0);
      be.kvCacheWrite(this.kc[l], this.vc[l], b.qkvr, R, T, pos0, Tmax, C);
      if (!logits && l === nLayer - 1) return; // prefill needs only the caches
      be.attentionCached(b.atty, b.qkvr, this.kc[l], this.vc[l], R, T, pos0, Tmax, C, NH);
      be.matmulForward(b.attproj, b.atty, p.attprojw, p.attprojb, N, C, C);
      be.residualForward(b.xb, b.xa, b.attproj, N * C);
      be.layernormForward(b.ln, b.mean, b.rstd, b.xb, p.ln2w, p.ln2b, N, C);
      be.matmulForward(b.fch, b.ln, p.fcw, p.fcb, N, C, H);
      be.geluForward(b.fchg, b.fch, N * H);
      be.matmulForward(b.fcproj, b.fchg, p.fcprojw, p.fcprojb, N, H, C);
      be.residualForward(b.xa, b.xb, b.fcproj, N * C);
    }
    be.layernormForward(b.ln, b.mean, b.rstd, b.xa, m.param('lnfw'), m.param('lnfb'), N, C);
    be.matmulForward(b.logits, b.ln, m.param('wte'), null, N, C, V);
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

function getDecoder(model: GPT, R: number, Tp: number, maxNew: number): Decoder {
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

function checkArgs(model: GPT, prompts: Uint32Array, B: number, Tp: number, o: GenerateOptions): void {
  const isPosInt = (x: number): boolean => Number.isInteger(x) && x > 0;
  const errs: string[] = [];
  if (!isPosInt(B)) errs.push(`B must be a positive integer, got ${B}`);
  if (!isPosInt(o.samples)) errs.push(`samples must be a positive integer, got ${o.samples}`);
  if (!(o.temperature >= 0 && Number.isFinite(o.temperature)))
    errs.push(`temperature must be >= 0 (0 = greedy), got ${o.temperature}`);
  if (!(Number.isInteger(o.eosId) && o.eosId >= 0 && o.eosId < model.cfg.vocabSize))
    errs.push(`eosId ${o.eosId} is not a token id < vocabSize ${model.cfg.vocabSize}`);
  if (!(Number.isInteger(o.seed) && o.seed >= 0 && o.seed <= 0xffffffff))
    errs.push(`seed must be a u32, got ${o.seed}`);
  if (prompts.length !== B * Tp) errs.push(`prompts hold ${prompts.length} ids, expected B*Tp = ${B}*${Tp}`);
  const bad = prompts.findIndex((t) => t >= model.cfg.vocabSize);
  if (bad >= 0)
    errs.push(`prompt token ${prompts[bad]} at index ${bad} is >= vocabSize ${model.cfg.vocabSize}`);
  if (errs.length) throw new Error(`generate: ${errs.join('; ')}`);
  assertFitsContext(model.cfg, Tp, o.maxNewTokens);
}

/** The (R, L) token rows with each prompt repeated K times in columns 0..Tp-1. */
function promptRows(prompts: Uint32Array, B: number, Tp: number, K: number, L: number): Uint32Array {
  const seq = new Uint32Array(B * K * L);
  for (let b = 0; b < B; b++) {
    for (let k = 0; k < K; k++) seq.set(prompts.subarray(b * Tp, (b + 1) * Tp), (b * K + k) * L);
  }
  return seq;
}

/** Cut each row at its first EOS (pad the rest with EOS and log-prob 0) and compute lengths. */
function finish(
  tokens: Uint32Array,
  logp: Float32Array,
  rows: number,
  maxNew: number,
  eosId: number,
): GenerateResult {
  const lengths = new Uint32Array(rows);
  const truncated = new Uint8Array(rows);
  const hasLogp = logp.length > 0;
  for (let r = 0; r < rows; r++) {
    let len = maxNew;
    for (let s = 0; s < maxNew; s++) {
      if (tokens[r * maxNew + s] === eosId) {
        len = s + 1;
        break;
      }
    }
    lengths[r] = len;
    truncated[r] = tokens[r * maxNew + len - 1] === eosId ? 0 : 1;
    for (let s = len; s < maxNew; s++) {
      tokens[r * maxNew + s] = eosId;
      if (hasLogp) logp[r * maxNew + s] = 0;
    }
  }
  return { rows, maxNewTokens: maxNew, tokens, logp, lengths, truncated };
}

/**
 * Record the KV-cache decoding of `samples` completions for each of B prompts (u32 (B, Tp), all the same
 * length) on the model's backend, without reading anything back: per generated position one cached
 * forward and ONE sampling dispatch (token into the rows, its log-prob alongside), the same dispatches
 * for any number of rows. Row r = b*K + k. Resolve it (with others: resolvePending) before the next
 * generation of the same model and shape, which reuses its buffers.
 */
export function startGenerate(
  model: GPT,
  prompts: Uint32Array,
  B: number,
  Tp: number,
  opts: GenerateOptions,
): Pending<GenerateResult> {
  checkArgs(model, prompts, B, Tp, opts);
  const be = model.backend;
  const { vocabSize: V } = model.cfg;
  const K = opts.samples;
  const maxNew = opts.maxNewTokens;
  const R = B * K;
  const wantLogp = opts.logp ?? true;
  const d = getDecoder(model, R, Tp, maxNew);
  be.write(d.seq, promptRows(prompts, B, Tp, K, d.L));
  if (d.pre) d.forward(d.pre, Tp - 1, 0, false);
  const fused = d.fused;
  for (let s = 0; s < maxNew; s++) {
    const logp = wantLogp ? d.logpAll : null;
    if (fused) {
      d.fusedStep(Tp - 1 + s, {
        temperature: opts.temperature,
        seed: opts.seed,
        counter: s,
        logp,
        logpOffset: s * R,
      });
      continue;
    }
    d.forward(d.dec, 1, Tp - 1 + s, true);
    // the token goes into the rows (the next step's input); its log-prob into the step-major buffer
    be.sampleTokens(d.seq, d.dec.logits, R, V, opts.temperature, opts.seed, s, d.L, Tp + s, logp, s * R);
  }
  const { L } = d;
  return {
    tensors: wantLogp ? [d.seq, d.logpAll] : [d.seq],
    finish: ([seq, lpAll]) =>
      finish(
        ...gather(seq as Uint32Array, wantLogp ? (lpAll as Float32Array) : null, R, Tp, maxNew, L),
        R,
        maxNew,
        opts.eosId,
      ),
  };
}

/**
 * Generate `samples` completions for each of B prompts (u32 (B, Tp), all the same length) with KV-cache
 * decoding on the model's backend. Row r = b*K + k. One readback in all (tokens and log-probs together).
 */
export async function generate(
  model: GPT,
  prompts: Uint32Array,
  B: number,
  Tp: number,
  opts: GenerateOptions,
): Promise<GenerateResult> {
  const [res] = await resolvePending(model.backend, [startGenerate(model, prompts, B, Tp, opts)]);
  return res;
}

/** Row-major (R, maxNew) tokens and log-probs (empty when null) from the token rows and the step-major log-probs. */
function gather(
  seq: Uint32Array,
  lpAll: Float32Array | null,
  R: number,
  Tp: number,
  maxNew: number,
  L: number,
): [Uint32Array, Float32Array] {
  const tokens = new Uint32Array(R * maxNew);
  const logp = new Float32Array(lpAll ? R * maxNew : 0);
  for (let r = 0; r < R; r++) {
    for (let s = 0; s < maxNew; s++) {
      tokens[r * maxNew + s] = seq[r * L + Tp + s];
      if (lpAll) logp[r * maxNew + s] = lpAll[s * R + r];
    }
  }
  return [tokens, logp];
}

/**
 * Reference generation by full recomputation: every step runs the whole model over the prompt and
 * the tokens so far (model.forward) and samples from the last position with the same device ops and
 * draws as `generate`. Slow (a readback per step); for tests only.
 */
export async function generateNoCache(
  model: GPT,
  prompts: Uint32Array,
  B: number,
  Tp: number,
  opts: GenerateOptions,
): Promise<GenerateResult> {
  checkArgs(model, prompts, B, Tp, opts);
  const be: Backend = model.backend;
  const { vocabSize: V } = model.cfg;
  const K = opts.samples;
  const maxNew = opts.maxNewTokens;
  const R = B * K;
  const L = Tp + maxNew;
  const host = promptRows(prompts, B, Tp, K, L);
  const seq = be.alloc([R, L], 'u32', 'ref.seq');
  const last = be.alloc([R, V], 'f32', 'ref.logits');
  const cur = be.alloc([R], 'u32', 'ref.cur');
  const lp = be.alloc([R], 'f32', 'ref.lp');
  const wantLogp = opts.logp ?? true;
  const lpAll = new Float32Array(maxNew * R);
  const lastHost = new Float32Array(R * V);
  for (let s = 0; s < maxNew; s++) {
    const T = Tp + s;
    be.write(seq, host);
    const logits = (await be.read(model.forward(seq, R, T, L))) as Float32Array; // (R, T, V)
    for (let r = 0; r < R; r++) lastHost.set(logits.subarray((r * T + T - 1) * V, (r * T + T) * V), r * V);
    be.write(last, lastHost);
    be.sampleTokens(cur, last, R, V, opts.temperature, opts.seed, s, 1, 0);
    be.logprobForward(lp, null, null, last, cur, R, V, opts.temperature > 0 ? opts.temperature : 1);
    const c = (await be.read(cur)) as Uint32Array;
    lpAll.set((await be.read(lp)) as Float32Array, s * R);
    for (let r = 0; r < R; r++) host[r * L + T] = c[r];
  }
  for (const t of [seq, last, cur, lp]) be.free(t);
  return finish(...gather(host, wantLogp ? lpAll : null, R, Tp, maxNew, L), R, maxNew, opts.eosId);
}
