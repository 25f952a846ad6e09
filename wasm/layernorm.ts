// Layer norm kernels of the wasm backend (AssemblyScript, f32x4), twins of src/engine/cpu/layernorm.ts
// (llm.c layernorm_forward/backward: eps 1e-5, biased variance, mean and rstd saved per row).
import { hsum, madd } from './simd';

const EPS: f32 = 1e-5;

/** Mean of row x (C floats). */
function rowMean(x: usize, C: i32): f32 {
  const C4 = C & ~3;
  let a = f32x4.splat(0);
  for (let i = 0; i < C4; i += 4) a = f32x4.add(a, v128.load(x + (<usize>i << 2)));
  let s = hsum(a);
  for (let i = C4; i < C; i++) s += load<f32>(x + (<usize>i << 2));
  return s / <f32>C;
}

/** Biased variance of row x around m. */
function rowVar(x: usize, m: f32, C: i32): f32 {
  const C4 = C & ~3;
  const mv = f32x4.splat(m);
  let a = f32x4.splat(0);
  for (let i = 0; i < C4; i += 4) {
    const d = f32x4.sub(v128.load(x + (<usize>i << 2)), mv);
    a = madd(d, d, a);
  }
  let s = hsum(a);
  for (let i = C4; i < C; i++) {
    const d = load<f32>(x + (<usize>i << 2)) - m;
    s += d * d;
  }
  return s / <f32>C;
}

/** out[n,:] = (inp[n,:] - mean) * rstd * weight + bias; mean[n], rstd[n] saved. */
export function layernormForward(out: usize, mean: usize, rstd: usize, inp: usize, w: usize, b: usize, N: i32, C: i32): void {
  const rowB = <usize>C << 2;
  const C4 = C & ~3;
  for (let n = 0; n < N; n++) {
    const x = inp + <usize>n * rowB;
    const y = out + <usize>n * rowB;
    const m = rowMean(x, C);
    const s: f32 = 1 / Mathf.sqrt(rowVar(x, m, C) + EPS);
    const mv = f32x4.splat(m);
    const sv = f32x4.splat(s);
    for (let i = 0; i < C4; i += 4) {
      const o = <usize>i << 2;
      const norm = f32x4.mul(f32x4.sub(v128.load(x + o), mv), sv);
      v128.store(y + o, f32x4.add(f32x4.mul(norm, v128.load(w + o)), v128.load(b + o)));
    }
    for (let i = C4; i < C; i++) {
      const o = <usize>i << 2;
      store<f32>(y + o, (load<f32>(x + o) - m) * s * load<f32>(w + o) + load<f32>(b + o));
    }
    store<f32>(mean + (<usize>n << 2), m);
    store<f32>(rstd + (<usize>n << 2), s);
  }
}

/** dinp, dweight, dbias += the layer norm gradients from dout, with the saved mean and rstd. */
export function layernormBackward(
  dinp: usize, dw: usize, db: usize, dout: usize, inp: usize, w: usize, mean: usize, rstd: usize, N: i32, C: i32,
): void {
  const rowB = <usize>C << 2;
  const C4 = C & ~3;
  for (let n = 0; n < N; n++) {
    const x = inp + <usize>n * rowB;
    const g = dout + <usize>n * rowB;
    const dx = dinp + <usize>n * rowB;
    const m = load<f32>(mean + (<usize>n << 2));
    const s = load<f32>(rstd + (<usize>n << 2));
    const mv = f32x4.splat(m);
    const sv = f32x4.splat(s);
    let a = f32x4.splat(0);
    let an = f32x4.splat(0);
    for (let i = 0; i < C4; i += 4) {
      const o = <usize>i << 2;
      const norm = f32x4.mul(f32x4.sub(v128.load(x + o), mv), sv);
      const dnorm = f32x4.mul(v128.load(w + o), v128.load(g + o));
      a = f32x4.add(a, dnorm);
      an = madd(dnorm, norm, an);
    }
    let dm = hsum(a);
    let dnm = hsum(an);
    for (let i = C4; i < C; i++) {
      const o = <usize>i << 2;
      const norm = (load<f32>(x + o) - m) * s;
      const dnorm = load<f32>(w + o) * load<f32>(g + o);
      dm += dnorm;
      dnm += dnorm * norm;
    }
    dm /= <f32>C;
    dnm /= <f32>C;
    const dmv = f32x4.splat(dm);
    const dnmv = f32x4.splat(dnm);
    for (let i = 0; i < C4; i += 4) {
      const o = <usize>i << 2;
      const gv = v128.load(g + o);
      const norm = f32x4.mul(f32x4.sub(v128.load(x + o), mv), sv);
      const dnorm = f32x4.mul(v128.load(w + o), gv);
      v128.store(db + o, f32x4.add(v128.load(db + o), gv));
      v128.store(dw + o, madd(norm, gv, v128.load(dw + o)));
      const d = f32x4.mul(f32x4.sub(f32x4.sub(dnorm, dmv), f32x4.mul(norm, dnmv)), sv);
      v128.store(dx + o, f32x4.add(v128.load(dx + o), d));
    }
    for (let i = C4; i < C; i++) {
      const o = <usize>i << 2;
      const gi = load<f32>(g + o);
      const norm = (load<f32>(x + o) - m) * s;
      const dnorm = load<f32>(w + o) * gi;
      store<f32>(db + o, load<f32>(db + o) + gi);
      store<f32>(dw + o, load<f32>(dw + o) + norm * gi);
      store<f32>(dx + o, load<f32>(dx + o) + (dnorm - dm - norm * dnm) * s);
    }
  }
}
