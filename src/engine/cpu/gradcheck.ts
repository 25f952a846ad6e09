// Central finite-difference checks of CPU backward ops, run in float64 (the CPU twins accept
// Float64Array). Loss = sum(out * R) for a fixed random R, so backward runs with dout = R.
import { makeNormalStream } from '../random';

export interface GradCheckResult {
  input: string;
  checked: number;
  maxAbsErr: number;
  maxRelErr: number;
  ok: boolean;
}

export interface GradCheckSpec {
  /** Inputs to differentiate (float64), by name. They may be mutated and are restored. */
  inputs: Record<string, Float64Array>;
  /** Forward: returns the output array (float64) for the current inputs. */
  forward: () => Float64Array;
  /** Backward: given dout, returns the gradient of each named input (accumulated from zero). */
  backward: (dout: Float64Array) => Record<string, Float64Array>;
  /** Step size (default 1e-5) and tolerance |num - ana| <= atol + rtol*|ana| (default 1e-6, 1e-5). */
  h?: number;
  atol?: number;
  rtol?: number;
  /** Check at most this many elements per input, spread evenly (default all). */
  maxPerInput?: number;
  seed?: number;
}

/** Compare analytic gradients with central differences for every listed input. */
export function gradCheck(spec: GradCheckSpec): GradCheckResult[] {
  const h = spec.h ?? 1e-5;
  const atol = spec.atol ?? 1e-6;
  const rtol = spec.rtol ?? 1e-5;
  const out0 = spec.forward();
  const rnd = makeNormalStream(spec.seed ?? 1234);
  const R = new Float64Array(out0.length);
  for (let i = 0; i < R.length; i++) R[i] = rnd();
  const loss = (): number => {
    const o = spec.forward();
    let s = 0;
    for (let i = 0; i < o.length; i++) s += o[i] * R[i];
    return s;
  };
  const grads = spec.backward(R);
  const results: GradCheckResult[] = [];
  for (const [name, x] of Object.entries(spec.inputs)) {
    const g = grads[name];
    if (!g) throw new Error(`backward returned no gradient for ${name}`);
    const stride = Math.max(1, Math.floor(x.length / (spec.maxPerInput ?? x.length)));
    let maxAbs = 0;
    let maxRel = 0;
    let ok = true;
    let checked = 0;
    for (let i = 0; i < x.length; i += stride) {
      const old = x[i];
      x[i] = old + h;
      const lp = loss();
      x[i] = old - h;
      const lm = loss();
      x[i] = old;
      const num = (lp - lm) / (2 * h);
      const err = Math.abs(num - g[i]);
      maxAbs = Math.max(maxAbs, err);
      if (g[i] !== 0) maxRel = Math.max(maxRel, err / Math.abs(g[i]));
      if (!(err <= atol + rtol * Math.abs(g[i]))) ok = false;
      checked++;
    }
    results.push({ input: name, checked, maxAbsErr: maxAbs, maxRelErr: maxRel, ok });
  }
  return results;
}
