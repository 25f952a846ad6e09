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

/** Device buffers of the policy pass for one (model, R, T), allocated once. */
interface Bufs {
  tokens: Tensor; // u32 (R, L) with L = Tp + maxNew
  targets: Tensor; // u32 (R*T), T = L - 1: targets[r*T + t] = tokens[r, t+1]
  logp: Tensor; // (R*T)
  entropy: Tensor; // (R*T)
  certainty: Tensor; // (R*T)
  weights: Tensor; // (R*T) dLoss/dlogp, zero on prompt positions and after EOS
  key: string;
}
const cache = new WeakMap<GPT, Bufs>();

function buffers(model: GPT, rows: PolicyRows): Bufs {
  const L = rows.Tp + rows.maxNewTokens;
  const T = L - 1;
  const key = `${rows.R}x${L}`;
  const hit = cache.get(model);
  if (hit && hit.key === key) return hit;
  if (hit) releasePolicyBuffers(model);
  const be = model.backend;
  const b: Bufs = {
    tokens: be.alloc([rows.R, L], 'u32', 'policy.tokens'),
    targets: be.alloc([rows.R * T], 'u32', 'policy.targets'),
    logp: be.alloc([rows.R * T], 'f32', 'policy.logp'),
    entropy: be.alloc([rows.R * T], 'f32', 'policy.entropy'),
    certainty: be.alloc([rows.R * T], 'f32', 'policy.certainty'),
    weights: be.alloc([rows.R * T], 'f32', 'policy.weights'),
    key,
  };
  cache.set(model, b);
  return b;
}

/** Free the policy-pass buffers kept for `model`. */
export function releasePolicyBuffers(model: GPT): void {
  const b = cache.get(model);
  if (!b) return;
  for (const t of [b.tokens, b.targets, b.logp, b.entropy, b.certainty, b.weights]) model.backend.free(t);
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

/** Pick the completion positions (R, maxNew) out of a full (R, T) per-position array. */
function completionPart(full: Float32Array, rows: PolicyRows): Float32Array {
  const T = rows.Tp + rows.maxNewTokens - 1;
  const out = new Float32Array(rows.R * rows.maxNewTokens);
  for (let r = 0; r < rows.R; r++) {
    // completion token j sits at column Tp + j and is predicted at input position Tp - 1 + j
    out.set(
      full.subarray(r * T + rows.Tp - 1, r * T + rows.Tp - 1 + rows.maxNewTokens),
      r * rows.maxNewTokens,
    );
  }
  return out;
}

/**
 * Teacher-forced forward of `model` over the rows (inputs = columns 0..L-2, targets = columns 1..L-1)
 * with log-probs (and optionally entropy and self-certainty) at `temperature`, recorded on the device
 * without reading back: resolve it (with other models' forwards: resolvePending) before the next
 * forward of the same model, which reuses its buffers. The model keeps the activations, so
 * {@link policyBackward} may follow for the same rows.
 */
export function startPolicyForward(
  model: GPT,
  rows: PolicyRows,
  temperature: number,
  want: { entropy?: boolean; certainty?: boolean } = {},
): Pending<TokenFigures> {
  checkRows(model, rows);
  const be = model.backend;
  const b = buffers(model, rows);
  const L = rows.Tp + rows.maxNewTokens;
  const T = L - 1;
  const N = rows.R * T;
  const targets = new Uint32Array(N);
  for (let r = 0; r < rows.R; r++) targets.set(rows.seq.subarray(r * L + 1, (r + 1) * L), r * T);
  be.write(b.tokens, rows.seq);
  be.write(b.targets, targets);
  const logits = model.forward(b.tokens, rows.R, T, L);
  be.logprobForward({
    logp: b.logp,
    entropy: want.entropy ? b.entropy : null,
    certainty: want.certainty ? b.certainty : null,
    logits,
    targets: b.targets,
    N,
    V: model.cfg.vocabSize,
    temperature,
  });
  const tensors = [b.logp];
  if (want.entropy) tensors.push(b.entropy);
  if (want.certainty) tensors.push(b.certainty);
  return {
    tensors,
    finish: (values) => {
      const [logp, ...rest] = values.map((v) => completionPart(v as Float32Array, rows));
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
 * w = dLoss/dlogp (R, maxNew), ACCUMULATING into the model's gradients (zero them first).
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
  const T = rows.Tp + rows.maxNewTokens - 1;
  const full = new Float32Array(rows.R * T);
  for (let r = 0; r < rows.R; r++) {
    for (let j = 0; j < rows.maxNewTokens; j++)
      full[r * T + rows.Tp - 1 + j] = weights[r * rows.maxNewTokens + j];
  }
  const be = model.backend;
  be.write(b.weights, full);
  const dlogits = model.gradLogits();
  be.fill(dlogits, 0);
  be.logprobBackward({
    dlogits,
    logits: model.lastLogits(),
    targets: b.targets,
    weights: b.weights,
    N: rows.R * T,
    V: model.cfg.vocabSize,
    temperature,
  });
  model.backward(dlogits);
}
