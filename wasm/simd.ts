// Shared SIMD helpers of the wasm kernels (AssemblyScript): horizontal sums, a vector e^x (Cephes expf's
// polynomial), dot products and axpy over rows of floats. Pointers are byte offsets into linear memory.

/** a * b + c per lane: one fused multiply-add where the module is built with relaxed SIMD (the `relaxed`
 * kernel variant, `npm run build:wasm`), a multiply then an add otherwise (the `simd` variant). */
// @ts-ignore: decorator
@inline export function madd(a: v128, b: v128, c: v128): v128 {
  if (ASC_FEATURE_RELAXED_SIMD) return f32x4.relaxed_madd(a, b, c);
  return f32x4.add(c, f32x4.mul(a, b));
}

/** [sum a, sum b, sum c, sum d]: four horizontal sums in one vector. */
// @ts-ignore: decorator
@inline export function reduce4(a: v128, b: v128, c: v128, d: v128): v128 {
  const ab = f32x4.add(v128.shuffle<f32>(a, b, 0, 4, 1, 5), v128.shuffle<f32>(a, b, 2, 6, 3, 7));
  const cd = f32x4.add(v128.shuffle<f32>(c, d, 0, 4, 1, 5), v128.shuffle<f32>(c, d, 2, 6, 3, 7));
  return f32x4.add(v128.shuffle<f32>(ab, cd, 0, 1, 4, 5), v128.shuffle<f32>(ab, cd, 2, 3, 6, 7));
}

// @ts-ignore: decorator
@inline export function hsum(a: v128): f32 {
  return f32x4.extract_lane(a, 0) + f32x4.extract_lane(a, 1) + f32x4.extract_lane(a, 2) + f32x4.extract_lane(a, 3);
}

// @ts-ignore: decorator
@inline export function hmax(a: v128): f32 {
  return max(max(f32x4.extract_lane(a, 0), f32x4.extract_lane(a, 1)), max(f32x4.extract_lane(a, 2), f32x4.extract_lane(a, 3)));
}

/** e^x per lane (Cephes-style: 2^n * poly(r), r = x - n ln2, |r| <= ln2/2; relative error ~2e-7). */
export function expv(x0: v128): v128 {
  const x = f32x4.min(f32x4.max(x0, f32x4.splat(-87.3)), f32x4.splat(88.3));
  const n = f32x4.nearest(f32x4.mul(x, f32x4.splat(1.44269504)));
  let r = f32x4.sub(x, f32x4.mul(n, f32x4.splat(0.693359375)));
  r = f32x4.sub(r, f32x4.mul(n, f32x4.splat(-2.12194440e-4)));
  let p = f32x4.splat(1.9875691500e-4);
  p = f32x4.add(f32x4.mul(p, r), f32x4.splat(1.3981999507e-3));
  p = f32x4.add(f32x4.mul(p, r), f32x4.splat(8.3334519073e-3));
  p = f32x4.add(f32x4.mul(p, r), f32x4.splat(4.1665795894e-2));
  p = f32x4.add(f32x4.mul(p, r), f32x4.splat(1.6666665459e-1));
  p = f32x4.add(f32x4.mul(p, r), f32x4.splat(5.0000001201e-1));
  p = f32x4.add(f32x4.mul(f32x4.mul(p, r), r), f32x4.add(r, f32x4.splat(1.0)));
  const e = i32x4.shl(i32x4.add(i32x4.trunc_sat_f32x4_s(n), i32x4.splat(127)), 23);
  return f32x4.mul(p, e);
}

/** e^x of one value by the same polynomial as expv (tails agree with vector lanes). */
// @ts-ignore: decorator
@inline export function exp1(x: f32): f32 {
  return f32x4.extract_lane(expv(f32x4.splat(x)), 0);
}

/** sum_c x[c] * w[c] for c in [c0, C) (scalar tail of a dot product). */
// @ts-ignore: decorator
@inline export function tailDot(x: usize, w: usize, c0: i32, C: i32): f32 {
  let s: f32 = 0;
  for (let c = c0; c < C; c++) s += load<f32>(x + (<usize>c << 2)) * load<f32>(w + (<usize>c << 2));
  return s;
}

/** Dot product of two rows of C floats. */
export function dot(x: usize, w: usize, C: i32): f32 {
  const C4 = C & ~3;
  let a = f32x4.splat(0);
  for (let c = 0; c < C4; c += 4) {
    const off = <usize>c << 2;
    a = madd(v128.load(x + off), v128.load(w + off), a);
  }
  return hsum(a) + tailDot(x, w, C4, C);
}

/** y[i] += a * x[i] for i < n. */
export function axpy(y: usize, a: f32, x: usize, n: i32): void {
  const n4 = n & ~3;
  const av = f32x4.splat(a);
  for (let i = 0; i < n4; i += 4) {
    const off = <usize>i << 2;
    v128.store(y + off, madd(av, v128.load(x + off), v128.load(y + off)));
  }
  for (let i = n4; i < n; i++) {
    const off = <usize>i << 2;
    store<f32>(y + off, load<f32>(y + off) + a * load<f32>(x + off));
  }
}


/** max_i row[i] over n floats (-Infinity when n = 0). */
export function rowMax(row: usize, n: i32): f32 {
  const n4 = n & ~3;
  let mx: f32 = -Infinity;
  if (n4 > 0) {
    let mv = v128.load(row);
    for (let i = 4; i < n4; i += 4) mv = f32x4.max(mv, v128.load(row + (<usize>i << 2)));
    mx = hmax(mv);
  }
  for (let i = n4; i < n; i++) mx = max(mx, load<f32>(row + (<usize>i << 2)));
  return mx;
}
