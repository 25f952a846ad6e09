// Autoregressive generation with a KV cache: prefill the prompts, then one token per step for all
// B*K rows (with the backend's fused decode ops where it has them: 3 dispatches per block + 1 per step), sampling on the device straight into the token rows with the chosen token's log-prob in the
// same dispatch (no per-token readback), and one readback of tokens and log-probs at the end
// (`startGenerate` records the work without reading, so callers can batch several generations into one
// readback). Follows the usual GPT KV-cache decoding (nanoGPT's
// generate without recompute); `generateNoCache` is the full-recompute reference used by tests.
import { resolvePending, type Backend, type Pending } from '../engine/backend';
import { assertFitsContext } from './config';
import type { GPT } from './gpt';
import { getDecoder, releaseDecoders } from './decoder';

export { releaseDecoders };

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
    be.sampleTokens({
      out: d.seq,
      logits: d.dec.logits,
      rows: R,
      V,
      temperature: opts.temperature,
      seed: opts.seed,
      counter: s,
      outStride: d.L,
      outOffset: Tp + s,
      logp,
      logpOffset: s * R,
    });
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
    be.sampleTokens({
      out: cur,
      logits: last,
      rows: R,
      V,
      temperature: opts.temperature,
      seed: opts.seed,
      counter: s,
      outStride: 1,
      outOffset: 0,
    });
    be.logprobForward({
      logp: lp,
      entropy: null,
      certainty: null,
      logits: last,
      targets: cur,
      N: R,
      V,
      temperature: opts.temperature > 0 ? opts.temperature : 1,
    });
    const c = (await be.read(cur)) as Uint32Array;
    lpAll.set((await be.read(lp)) as Float32Array, s * R);
    for (let r = 0; r < R; r++) host[r * L + T] = c[r];
  }
  for (const t of [seq, last, cur, lp]) be.free(t);
  return finish(...gather(host, wantLogp ? lpAll : null, R, Tp, maxNew, L), R, maxNew, opts.eosId);
}

// Host-side helpers: argument checks, the prompt token rows, gathering and EOS-cutting the generated rows.

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
