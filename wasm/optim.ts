// Optimizer kernels of the wasm backend (AssemblyScript, f32x4), twins of src/engine/cpu/optim.ts: the
// squared L2 norm (summed in float64 lanes, as the reference sums in doubles) and AdamW (llm.c adamw_cpu).
import { madd } from './simd';

/** out[0] = sum_i inp[i]^2, accumulated in f64x2 lanes. */
export function sumSquares(out: usize, inp: usize, N: i32): void {
  const N4 = N & ~3;
  let a = f64x2.splat(0);
  let b = f64x2.splat(0);
  for (let i = 0; i < N4; i += 4) {
    const v = v128.load(inp + (<usize>i << 2));
    const sq = f32x4.mul(v, v);
    a = f64x2.add(a, f64x2.promote_low_f32x4(sq));
    b = f64x2.add(b, f64x2.promote_low_f32x4(v128.shuffle<f32>(sq, sq, 2, 3, 0, 1)));
  }
  let s = f64x2.extract_lane(a, 0) + f64x2.extract_lane(a, 1) + f64x2.extract_lane(b, 0) + f64x2.extract_lane(b, 1);
  for (let i = N4; i < N; i++) {
    const x = <f64>load<f32>(inp + (<usize>i << 2));
    s += x * x;
  }
  store<f32>(out, <f32>s);
}

/**
 * One AdamW step on N elements in place: g = grads * scale; m = b1 m + (1-b1) g; v = b2 v + (1-b2) g^2;
 * params -= lr * (m/bc1 / (sqrt(v/bc2) + eps) + wd * params). scale, bc1, bc2 come from the caller.
 */
export function adamw(
  params: usize, grads: usize, m: usize, v: usize, N: i32,
  scale: f32, lr: f32, b1: f32, b2: f32, eps: f32, wd: f32, bc1: f32, bc2: f32,
): void {
  const N4 = N & ~3;
  const sv = f32x4.splat(scale), b1v = f32x4.splat(b1), b2v = f32x4.splat(b2);
  const c1 = f32x4.splat(1 - b1), c2 = f32x4.splat(1 - b2);
  const ib1 = f32x4.splat(1 / bc1), ib2 = f32x4.splat(1 / bc2);
  const lrv = f32x4.splat(lr), epsv = f32x4.splat(eps), wdv = f32x4.splat(wd);
  for (let i = 0; i < N4; i += 4) {
    const o = <usize>i << 2;
    const g = f32x4.mul(v128.load(grads + o), sv);
    const mi = madd(c1, g, f32x4.mul(b1v, v128.load(m + o)));
    const vi = madd(c2, f32x4.mul(g, g), f32x4.mul(b2v, v128.load(v + o)));
    v128.store(m + o, mi);
    v128.store(v + o, vi);
    const p = v128.load(params + o);
    const step = madd(wdv, p, f32x4.div(f32x4.mul(mi, ib1), f32x4.add(f32x4.sqrt(f32x4.mul(vi, ib2)), epsv)));
    v128.store(params + o, f32x4.sub(p, f32x4.mul(lrv, step)));
  }
  for (let i = N4; i < N; i++) {
    const o = <usize>i << 2;
    const g = load<f32>(grads + o) * scale;
    const mi = b1 * load<f32>(m + o) + (1 - b1) * g;
    const vi = b2 * load<f32>(v + o) + (1 - b2) * g * g;
    store<f32>(m + o, mi);
    store<f32>(v + o, vi);
    const p = load<f32>(params + o);
    store<f32>(params + o, p - lr * ((mi / bc1) / (Mathf.sqrt(vi / bc2) + eps) + wd * p));
  }
}
