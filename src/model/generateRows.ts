// Host-side helpers of generate.ts: argument checks, the prompt token rows, gathering and EOS-cutting the generated rows.
import { assertFitsContext } from './config';
import type { GPT } from './gpt';
import type { GenerateOptions, GenerateResult } from './generate';

export function checkArgs(model: GPT, prompts: Uint32Array, B: number, Tp: number, o: GenerateOptions): void {
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
export function promptRows(prompts: Uint32Array, B: number, Tp: number, K: number, L: number): Uint32Array {
  const seq = new Uint32Array(B * K * L);
  for (let b = 0; b < B; b++) {
    for (let k = 0; k < K; k++) seq.set(prompts.subarray(b * Tp, (b + 1) * Tp), (b * K + k) * L);
  }
  return seq;
}

/** Cut each row at its first EOS (pad the rest with EOS and log-prob 0) and compute lengths. */
export function finish(
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
export function gather(
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
