// Log-softmax kernels of the wasm backend (AssemblyScript, f32x4), twins of src/engine/cpu/logprob.ts:
// temperature log-probs of targets, entropy and self-certainty, cross-entropy, and their backward passes.
import { expv, exp1, hsum, madd, rowMax } from './simd';

/** max_i row[i] * invT over V floats (max(z/T) = max(z)/T for T > 0). */
// @ts-ignore: decorator
@inline function scaledMax(row: usize, V: i32, invT: f32): f32 {
  return rowMax(row, V) * invT;
}

/** sum_i e^(row[i] invT - mx) over V floats. */
function rowExpSum(row: usize, V: i32, invT: f32, mx: f32): f32 {
  const V4 = V & ~3;
  const tv = f32x4.splat(invT);
  const mv = f32x4.splat(mx);
  let sv = f32x4.splat(0);
  for (let i = 0; i < V4; i += 4) sv = f32x4.add(sv, expv(f32x4.sub(f32x4.mul(v128.load(row + (<usize>i << 2)), tv), mv)));
  let s = hsum(sv);
  for (let i = V4; i < V; i++) s += exp1(load<f32>(row + (<usize>i << 2)) * invT - mx);
  return s;
}

/** Per row: logp = log p[target], entropy = -sum p log p, certainty = lse - mean(z) - log V (0 = skip). */
export function logprobForward(
  logp: usize, entropy: usize, certainty: usize, logits: usize, targets: usize, N: i32, V: i32, temperature: f32,
): void {
  const invT: f32 = 1 / temperature;
  const V4 = V & ~3;
  const tv = f32x4.splat(invT);
  for (let n = 0; n < N; n++) {
    const row = logits + (<usize>(n * V) << 2);
    const mx = scaledMax(row, V, invT);
    const mv = f32x4.splat(mx);
    let sv = f32x4.splat(0), zv = f32x4.splat(0), ezv = f32x4.splat(0);
    for (let i = 0; i < V4; i += 4) {
      const d = f32x4.sub(f32x4.mul(v128.load(row + (<usize>i << 2)), tv), mv);
      const e = expv(d);
      sv = f32x4.add(sv, e);
      zv = f32x4.add(zv, d);
      ezv = madd(e, d, ezv);
    }
    let s = hsum(sv), zs = hsum(zv), ezs = hsum(ezv);
    for (let i = V4; i < V; i++) {
      const d = load<f32>(row + (<usize>i << 2)) * invT - mx;
      const e = exp1(d);
      s += e;
      zs += d;
      ezs += e * d;
    }
    const logs = Mathf.log(s);
    const no = <usize>n << 2;
    if (logp) {
      const tgt = load<u32>(targets + no);
      store<f32>(logp + no, load<f32>(row + (<usize>tgt << 2)) * invT - mx - logs);
    }
    if (entropy) store<f32>(entropy + no, logs - ezs / s);
    if (certainty) store<f32>(certainty + no, logs - zs / <f32>V - Mathf.log(<f32>V));
  }
}

/** dlogits[n,:] += coef * p (p = softmax(logits[n] invT)), then dlogits[n, target] += hot. */
function addSoftmax(drow: usize, row: usize, V: i32, invT: f32, coef: f32, tgt: u32, hot: f32): void {
  const V4 = V & ~3;
  const mx = scaledMax(row, V, invT);
  const c: f32 = coef / rowExpSum(row, V, invT, mx);
  const tv = f32x4.splat(invT), mv = f32x4.splat(mx), cv = f32x4.splat(c);
  for (let i = 0; i < V4; i += 4) {
    const o = <usize>i << 2;
    const e = expv(f32x4.sub(f32x4.mul(v128.load(row + o), tv), mv));
    v128.store(drow + o, madd(cv, e, v128.load(drow + o)));
  }
  for (let i = V4; i < V; i++) {
    const o = <usize>i << 2;
    store<f32>(drow + o, load<f32>(drow + o) + c * exp1(load<f32>(row + o) * invT - mx));
  }
  const to = <usize>tgt << 2;
  store<f32>(drow + to, load<f32>(drow + to) + hot);
}

/** dlogits[n,i] += weights[n] (onehot(target)_i - p_i) / temperature. */
export function logprobBackward(dlogits: usize, logits: usize, targets: usize, weights: usize, N: i32, V: i32, temperature: f32): void {
  const invT: f32 = 1 / temperature;
  for (let n = 0; n < N; n++) {
    const ro = <usize>(n * V) << 2;
    const w = load<f32>(weights + (<usize>n << 2)) * invT;
    addSoftmax(dlogits + ro, logits + ro, V, invT, -w, load<u32>(targets + (<usize>n << 2)), w);
  }
}

/** losses[n] = -log softmax(logits[n])[target]. */
export function crossEntropyForward(losses: usize, logits: usize, targets: usize, N: i32, V: i32): void {
  for (let n = 0; n < N; n++) {
    const row = logits + (<usize>(n * V) << 2);
    const mx = scaledMax(row, V, 1);
    const s = rowExpSum(row, V, 1, mx);
    const tgt = load<u32>(targets + (<usize>n << 2));
    store<f32>(losses + (<usize>n << 2), Mathf.log(s) - (load<f32>(row + (<usize>tgt << 2)) - mx));
  }
}

/** dlogits[n,i] += dlosses[n] (p_i - onehot(target)_i). */
export function crossEntropyBackward(dlogits: usize, logits: usize, targets: usize, dlosses: usize, N: i32, V: i32): void {
  for (let n = 0; n < N; n++) {
    const ro = <usize>(n * V) << 2;
    const dl = load<f32>(dlosses + (<usize>n << 2));
    addSoftmax(dlogits + ro, logits + ro, V, 1, dl, load<u32>(targets + (<usize>n << 2)), -dl);
  }
}
