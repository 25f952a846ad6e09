// Elementwise kernels of the wasm backend (AssemblyScript, f32x4), twins of src/engine/cpu/elementwise.ts
// (llm.c gelu_forward/backward, tanh approximation; residual_forward/backward).
import { expv, madd } from './simd';

const S: f32 = 0.7978845608028654; // sqrt(2/pi)
const A: f32 = 0.044715;

/** tanh per lane as 1 - 2 / (e^(2u) + 1) (saturates cleanly: expv clamps its argument). */
// @ts-ignore: decorator
@inline function tanhv(u: v128): v128 {
  const one = f32x4.splat(1);
  return f32x4.sub(one, f32x4.div(f32x4.splat(2), f32x4.add(expv(f32x4.add(u, u)), one)));
}

// @ts-ignore: decorator
@inline function tanh1(u: f32): f32 {
  return f32x4.extract_lane(tanhv(f32x4.splat(u)), 0);
}

/** out[i] = 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))). */
export function geluForward(out: usize, inp: usize, N: i32): void {
  const N4 = N & ~3;
  const sv = f32x4.splat(S), av = f32x4.splat(A), half = f32x4.splat(0.5), one = f32x4.splat(1);
  for (let i = 0; i < N4; i += 4) {
    const o = <usize>i << 2;
    const x = v128.load(inp + o);
    const u = f32x4.mul(sv, madd(av, f32x4.mul(x, f32x4.mul(x, x)), x));
    v128.store(out + o, f32x4.mul(f32x4.mul(half, x), f32x4.add(one, tanhv(u))));
  }
  for (let i = N4; i < N; i++) {
    const o = <usize>i << 2;
    const x = load<f32>(inp + o);
    store<f32>(out + o, 0.5 * x * (1 + tanh1(S * (x + A * x * x * x))));
  }
}

/** dinp[i] += gelu'(inp[i]) dout[i]. */
export function geluBackward(dinp: usize, inp: usize, dout: usize, N: i32): void {
  const N4 = N & ~3;
  const sv = f32x4.splat(S), av = f32x4.splat(A), a3 = f32x4.splat(3 * A), half = f32x4.splat(0.5), one = f32x4.splat(1);
  for (let i = 0; i < N4; i += 4) {
    const o = <usize>i << 2;
    const x = v128.load(inp + o);
    const x2 = f32x4.mul(x, x);
    const th = tanhv(f32x4.mul(sv, madd(av, f32x4.mul(x, x2), x)));
    const sech2 = f32x4.sub(one, f32x4.mul(th, th));
    const g = f32x4.add(
      f32x4.mul(half, f32x4.add(one, th)),
      f32x4.mul(f32x4.mul(f32x4.mul(half, x), f32x4.mul(sech2, sv)), madd(a3, x2, one)),
    );
    v128.store(dinp + o, madd(g, v128.load(dout + o), v128.load(dinp + o)));
  }
  for (let i = N4; i < N; i++) {
    const o = <usize>i << 2;
    const x = load<f32>(inp + o);
    const th = tanh1(S * (x + A * x * x * x));
    const g: f32 = 0.5 * (1 + th) + 0.5 * x * (1 - th * th) * S * (1 + 3 * A * x * x);
    store<f32>(dinp + o, load<f32>(dinp + o) + g * load<f32>(dout + o));
  }
}

/** out = a + b. */
export function residualForward(out: usize, a: usize, b: usize, N: i32): void {
  const N4 = N & ~3;
  for (let i = 0; i < N4; i += 4) {
    const o = <usize>i << 2;
    v128.store(out + o, f32x4.add(v128.load(a + o), v128.load(b + o)));
  }
  for (let i = N4; i < N; i++) {
    const o = <usize>i << 2;
    store<f32>(out + o, load<f32>(a + o) + load<f32>(b + o));
  }
}

/** da += dout; db += dout. */
export function residualBackward(da: usize, db: usize, dout: usize, N: i32): void {
  const N4 = N & ~3;
  for (let i = 0; i < N4; i += 4) {
    const o = <usize>i << 2;
    const g = v128.load(dout + o);
    v128.store(da + o, f32x4.add(v128.load(da + o), g));
    v128.store(db + o, f32x4.add(v128.load(db + o), g));
  }
  for (let i = N4; i < N; i++) {
    const o = <usize>i << 2;
    const g = load<f32>(dout + o);
    store<f32>(da + o, load<f32>(da + o) + g);
    store<f32>(db + o, load<f32>(db + o) + g);
  }
}
