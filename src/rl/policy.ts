// The policy pass of a GRPO step on any backend: teacher-forced forward over prompt+completion rows
// giving per-completion-token log-probs, entropies and self-certainties (logprobForward), and the
// backward from per-token weights dLoss/dlogp (logprobBackward → GPT.backward). docs/method.md ("One training step", step 7).
// `startPolicyForward` records a forward without reading back, so a trainer reads every agent's (and
// reference's) figures in one readback.
import type { Pending } from '../engine/backend';
import type { Tensor } from '../engine/tensor';
import type { GPT } from '../model/gpt';

/** B*K rollout rows of one agent: the prompt, then the sampled completion (padded with EOS). */
export interface PolicyRows {
  /** Number of rows R = B*K. */
  R: number;
  /** Prompt length in tokens (every prompt of one agent has the same length). */
  Tp: number;
  /** Completion slots per row. */
  maxNewTokens: number;
  /** u32 (R, Tp + maxNewTokens): prompt tokens then completion tokens. */
  seq: Uint32Array;
  /** (R, maxNewTokens): 1 for completion tokens up to and including EOS, 0 after. */
  mask: Float32Array;
}

/** Per-completion-token figures of one forward, each (R, maxNewTokens) row-major. */
export interface TokenFigures {
  /** log pi(y_t | x, y_<t) at the sampling temperature. */
  logp: Float32Array;
  /** Entropy of the next-token distribution (logits / temperature); null unless asked for. */
  entropy: Float32Array | null;
  /** Self-certainty KL(U || p) of the next-token distribution; null unless asked for. */
  certainty: Float32Array | null;
}

/** Device buffers of one row pass (a slice of the rows, forwarded and backpropagated on its own). */
interface PassBufs {
  /** First row and number of rows of this pass. */
  r0: number;
  R: number;
  tokens: Tensor; // u32 (R, L) with L = Tp + maxNew
  targets: Tensor; // u32 (R*T), T = L - 1: targets[r*T + t] = tokens[r, t+1]
  logp: Tensor; // (R*T)
  entropy: Tensor; // (R*T)
  certainty: Tensor; // (R*T)
  weights: Tensor; // (R*T) dLoss/dlogp, zero on prompt positions and after EOS
}

/** The policy pass's buffers for one (model, R, L, rows per pass), allocated once. */
interface Bufs {
  passes: PassBufs[];
  key: string;
}
const cache = new WeakMap<GPT, Bufs>();

/**
 * The row passes of R rows at most `rowsPerPass` rows each (absent, or at least R: one pass of every row):
 * as few passes as that allows, of equal size where R divides evenly, else the last one smaller.
 */
export function rowPasses(R: number, rowsPerPass?: number): { r0: number; R: number }[] {
  const per = rowsPerPass === undefined || rowsPerPass >= R ? R : Math.ceil(R / Math.ceil(R / rowsPerPass));
  const out: { r0: number; R: number }[] = [];
  for (let r0 = 0; r0 < R; r0 += per) out.push({ r0, R: Math.min(per, R - r0) });
  return out;
}

function buffers(model: GPT, rows: PolicyRows, rowsPerPass?: number): Bufs {
  const L = rows.Tp + rows.maxNewTokens;
  const T = L - 1;
  const passes = rowPasses(rows.R, rowsPerPass);
  const key = `${rows.R}x${L}/${passes[0].R}`;
  const hit = cache.get(model);
  if (hit && hit.key === key) return hit;
  if (hit) releasePolicyBuffers(model);
  const be = model.backend;
  const b: Bufs = {
    passes: passes.map(({ r0, R }) => ({
      r0,
      R,
      tokens: be.alloc([R, L], 'u32', 'policy.tokens'),
      targets: be.alloc([R * T], 'u32', 'policy.targets'),
      logp: be.alloc([R * T], 'f32', 'policy.logp'),
      entropy: be.alloc([R * T], 'f32', 'policy.entropy'),
      certainty: be.alloc([R * T], 'f32', 'policy.certainty'),
      weights: be.alloc([R * T], 'f32', 'policy.weights'),
    })),
    key,
  };
  cache.set(model, b);
  return b;
}

/** Free the policy-pass buffers kept for `model`. */
export function releasePolicyBuffers(model: GPT): void {
  const b = cache.get(model);
  if (!b) return;
  for (const p of b.passes)
    for (const t of [p.tokens, p.targets, p.logp, p.entropy, p.certainty, p.weights]) model.backend.free(t);
  cache.delete(model);
}

function checkRows(model: GPT, rows: PolicyRows): void {
  const L = rows.Tp + rows.maxNewTokens;
  if (rows.seq.length !== rows.R * L)
    throw new Error(`policy rows: seq holds ${rows.seq.length} ids, expected R*(Tp+maxNew) = ${rows.R * L}`);
  if (rows.mask.length !== rows.R * rows.maxNewTokens)
    throw new Error(`policy rows: mask holds ${rows.mask.length}, expected ${rows.R * rows.maxNewTokens}`);
  if (L - 1 > model.cfg.blockSize)
    throw new Error(`policy rows need ${L - 1} positions, more than blockSize ${model.cfg.blockSize}`);
}

/** Pick the completion positions (R, maxNew) of `R` rows out of a full (R, T) per-position array into `out` from row `r0`. */
function completionPart(
  full: Float32Array,
  rows: PolicyRows,
  r0: number,
  R: number,
  out: Float32Array,
): void {
  const T = rows.Tp + rows.maxNewTokens - 1;
  for (let r = 0; r < R; r++) {
    // completion token j sits at column Tp + j and is predicted at input position Tp - 1 + j
    out.set(
      full.subarray(r * T + rows.Tp - 1, r * T + rows.Tp - 1 + rows.maxNewTokens),
      (r0 + r) * rows.maxNewTokens,
    );
  }
}

/**
 * Teacher-forced forward of `model` over the rows (inputs = columns 0..L-2, targets = columns 1..L-1)
 * with log-probs (and optionally entropy and self-certainty) at `temperature`, recorded on the device
 * without reading back: resolve it (with other models' forwards: resolvePending) before the next
 * forward of the same model, which reuses its buffers. The model keeps the activations, so
 * {@link policyBackward} may follow for the same rows. With `rowsPerPass` below R the rows go through
 * the model in passes of at most that many rows ({@link rowPasses}), so the activations held
 * at once are those of one pass: the same figures in less memory, for one more forward per extra pass
 * in the backward.
 */
export function startPolicyForward(
  model: GPT,
  rows: PolicyRows,
  temperature: number,
  want: { entropy?: boolean; certainty?: boolean } = {},
  rowsPerPass?: number,
): Pending<TokenFigures> {
  checkRows(model, rows);
  const be = model.backend;
  const b = buffers(model, rows, rowsPerPass);
  const L = rows.Tp + rows.maxNewTokens;
  const T = L - 1;
  const tensors: Tensor[] = [];
  for (const p of b.passes) {
    const targets = new Uint32Array(p.R * T);
    for (let r = 0; r < p.R; r++)
      targets.set(rows.seq.subarray((p.r0 + r) * L + 1, (p.r0 + r + 1) * L), r * T);
    be.write(p.tokens, rows.seq.subarray(p.r0 * L, (p.r0 + p.R) * L));
    be.write(p.targets, targets);
    const logits = model.forward(p.tokens, p.R, T, L);
    be.logprobForward({
      logp: p.logp,
      entropy: want.entropy ? p.entropy : null,
      certainty: want.certainty ? p.certainty : null,
      logits,
      targets: p.targets,
      N: p.R * T,
      V: model.cfg.vocabSize,
      temperature,
    });
    tensors.push(p.logp);
    if (want.entropy) tensors.push(p.entropy);
    if (want.certainty) tensors.push(p.certainty);
  }
  const kinds = tensors.length / b.passes.length;
  return {
    tensors,
    finish: (values) => {
      const all = Array.from({ length: kinds }, () => new Float32Array(rows.R * rows.maxNewTokens));
      b.passes.forEach((p, i) => {
        for (let k = 0; k < kinds; k++)
          completionPart(values[i * kinds + k] as Float32Array, rows, p.r0, p.R, all[k]);
      });
      const [logp, ...rest] = all;
      return {
        logp,
        entropy: want.entropy ? rest.shift()! : null,
        certainty: want.certainty ? rest.shift()! : null,
      };
    },
  };
}

/**
 * Backward of the last {@link startPolicyForward} of `model` from per-completion-token weights
 * w = dLoss/dlogp (R, maxNew), ACCUMULATING into the model's gradients (zero them first). In passes
 * (the forward's `rowsPerPass`), the last pass first, from the activations the forward left, then each
 * other pass after a forward again of its rows (the same numbers: the model has not changed in between).
 */
export function policyBackward(
  model: GPT,
  rows: PolicyRows,
  weights: ArrayLike<number>,
  temperature: number,
): void {
  const b = cache.get(model);
  if (!b) throw new Error('policyBackward needs a policy forward of the same model first');
  if (weights.length !== rows.R * rows.maxNewTokens)
    throw new Error(`expected ${rows.R * rows.maxNewTokens} weights, got ${weights.length}`);
  const L = rows.Tp + rows.maxNewTokens;
  const T = L - 1;
  const be = model.backend;
  const last = b.passes.length - 1;
  for (const i of [last, ...[...b.passes.keys()].filter((k) => k !== last)]) {
    const p = b.passes[i];
    if (i !== last) model.forward(p.tokens, p.R, T, L);
    const full = new Float32Array(p.R * T);
    for (let r = 0; r < p.R; r++) {
      for (let j = 0; j < rows.maxNewTokens; j++)
        full[r * T + rows.Tp - 1 + j] = weights[(p.r0 + r) * rows.maxNewTokens + j];
    }
    be.write(p.weights, full);
    const dlogits = model.gradLogits();
    be.fill(dlogits, 0);
    be.logprobBackward({
      dlogits,
      logits: model.lastLogits(),
      targets: p.targets,
      weights: p.weights,
      N: p.R * T,
      V: model.cfg.vocabSize,
      temperature,
    });
    model.backward(dlogits);
  }
}
