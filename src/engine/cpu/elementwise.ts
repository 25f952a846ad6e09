// GELU (tanh approximation) and the residual add, CPU twins of shaders/elementwise.wgsl
// (llm.c gelu_forward/backward, residual_forward/backward).
import type { Floats } from './types';

const GELU_SCALE = Math.sqrt(2 / Math.PI);

/** out[i] = 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))), x = inp[i]. */
export function geluForward(out: Floats, inp: Floats, N: number): void {
  // out (N); inp (N)
  for (let i = 0; i < N; i++) {
    const x = inp[i];
    const u = GELU_SCALE * (x + 0.044715 * x * x * x);
    out[i] = 0.5 * x * (1 + Math.tanh(u));
  }
}

/** dinp[i] += gelu'(inp[i]) * dout[i]. */
export function geluBackward(dinp: Floats, inp: Floats, dout: Floats, N: number): void {
  // dinp (N); inp (N); dout (N)
  for (let i = 0; i < N; i++) {
    const x = inp[i];
    const u = GELU_SCALE * (x + 0.044715 * x * x * x);
    const th = Math.tanh(u);
    const sech2 = 1 - th * th;
    const grad = 0.5 * (1 + th) + 0.5 * x * sech2 * GELU_SCALE * (1 + 3 * 0.044715 * x * x);
    dinp[i] += grad * dout[i];
  }
}

/** out[i] = a[i] + b[i]. */
export function residualForward(out: Floats, a: Floats, b: Floats, N: number): void {
  // out (N); a (N); b (N)
  for (let i = 0; i < N; i++) out[i] = a[i] + b[i];
}

/** da[i] += dout[i]; db[i] += dout[i]. */
export function residualBackward(da: Floats, db: Floats, dout: Floats, N: number): void {
  // da (N); db (N); dout (N)
  for (let i = 0; i < N; i++) {
    da[i] += dout[i];
    db[i] += dout[i];
  }
}
