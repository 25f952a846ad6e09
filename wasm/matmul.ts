// Matmul kernels of the wasm backend (AssemblyScript, f32x4), twins of src/engine/cpu/matmul.ts (llm.c
// matmul_forward/backward): out = inp @ weight^T + bias, weight (OC, C); backward accumulates.
import { axpy, dot, madd, reduce4, tailDot } from './simd';

// ---- matmul (src/engine/cpu/matmul.ts) ------------------------------------------------------------------

/** out[n, o..o+3] for rows x0 and x1 (2 x 4 block of dot products along contiguous C). */
function mmBlock2x4(y0: usize, y1: usize, x0: usize, x1: usize, w0: usize, rowB: usize, C: i32, bias: usize): void {
  const C4 = C & ~3;
  const w1 = w0 + rowB, w2 = w1 + rowB, w3 = w2 + rowB;
  let a0 = f32x4.splat(0), a1 = f32x4.splat(0), a2 = f32x4.splat(0), a3 = f32x4.splat(0);
  let b0 = f32x4.splat(0), b1 = f32x4.splat(0), b2 = f32x4.splat(0), b3 = f32x4.splat(0);
  for (let c = 0; c < C4; c += 4) {
    const off = <usize>c << 2;
    const u = v128.load(x0 + off);
    const v = v128.load(x1 + off);
    let q = v128.load(w0 + off);
    a0 = madd(u, q, a0);
    b0 = madd(v, q, b0);
    q = v128.load(w1 + off);
    a1 = madd(u, q, a1);
    b1 = madd(v, q, b1);
    q = v128.load(w2 + off);
    a2 = madd(u, q, a2);
    b2 = madd(v, q, b2);
    q = v128.load(w3 + off);
    a3 = madd(u, q, a3);
    b3 = madd(v, q, b3);
  }
  let r0 = reduce4(a0, a1, a2, a3);
  let r1 = reduce4(b0, b1, b2, b3);
  if (C4 < C) {
    r0 = f32x4.add(r0, f32x4(tailDot(x0, w0, C4, C), tailDot(x0, w1, C4, C), tailDot(x0, w2, C4, C), tailDot(x0, w3, C4, C)));
    r1 = f32x4.add(r1, f32x4(tailDot(x1, w0, C4, C), tailDot(x1, w1, C4, C), tailDot(x1, w2, C4, C), tailDot(x1, w3, C4, C)));
  }
  if (bias) {
    const bv = v128.load(bias);
    r0 = f32x4.add(r0, bv);
    r1 = f32x4.add(r1, bv);
  }
  v128.store(y0, r0);
  v128.store(y1, r1);
}

/** out[n, o..o+3] for one row x0. */
function mmBlock1x4(y0: usize, x0: usize, w0: usize, rowB: usize, C: i32, bias: usize): void {
  const C4 = C & ~3;
  const w1 = w0 + rowB, w2 = w1 + rowB, w3 = w2 + rowB;
  let a0 = f32x4.splat(0), a1 = f32x4.splat(0), a2 = f32x4.splat(0), a3 = f32x4.splat(0);
  for (let c = 0; c < C4; c += 4) {
    const off = <usize>c << 2;
    const u = v128.load(x0 + off);
    a0 = madd(u, v128.load(w0 + off), a0);
    a1 = madd(u, v128.load(w1 + off), a1);
    a2 = madd(u, v128.load(w2 + off), a2);
    a3 = madd(u, v128.load(w3 + off), a3);
  }
  let r0 = reduce4(a0, a1, a2, a3);
  if (C4 < C) {
    r0 = f32x4.add(r0, f32x4(tailDot(x0, w0, C4, C), tailDot(x0, w1, C4, C), tailDot(x0, w2, C4, C), tailDot(x0, w3, C4, C)));
  }
  if (bias) r0 = f32x4.add(r0, v128.load(bias));
  v128.store(y0, r0);
}

/** out (N,OC) = inp (N,C) @ weight (OC,C)^T + bias (OC; 0 = none). */
export function matmulForward(out: usize, inp: usize, w: usize, bias: usize, N: i32, C: i32, OC: i32): void {
  const rowB = <usize>C << 2;
  const outB = <usize>OC << 2;
  const OC4 = OC & ~3;
  let n = 0;
  for (; n + 2 <= N; n += 2) {
    const x0 = inp + <usize>n * rowB;
    const y0 = out + <usize>n * outB;
    for (let o = 0; o < OC4; o += 4) {
      const ob = <usize>o << 2;
      mmBlock2x4(y0 + ob, y0 + outB + ob, x0, x0 + rowB, w + <usize>o * rowB, rowB, C, bias ? bias + ob : 0);
    }
  }
  for (; n < N; n++) {
    const x0 = inp + <usize>n * rowB;
    const y0 = out + <usize>n * outB;
    for (let o = 0; o < OC4; o += 4) {
      const ob = <usize>o << 2;
      mmBlock1x4(y0 + ob, x0, w + <usize>o * rowB, rowB, C, bias ? bias + ob : 0);
    }
  }
  for (let o = OC4; o < OC; o++) {
    // leftover output columns: one dot product per row
    const wo = w + <usize>o * rowB;
    const b: f32 = bias ? load<f32>(bias + (<usize>o << 2)) : 0;
    for (let r = 0; r < N; r++) store<f32>(out + <usize>r * outB + (<usize>o << 2), dot(inp + <usize>r * rowB, wo, C) + b);
  }
}

/**
 * dst[r, c] += sum_{k < K} coef[r*rs + k*ks] * src[k, c] for r < R, c < C (rows of C floats): both
 * matmul backward products. Blocks of 4 rows x 8 columns keep 8 accumulators across the k loop.
 */
export function addRowCombination(dst: usize, coef: usize, rs: i32, ks: i32, src: usize, R: i32, K: i32, C: i32): void {
  const rowB = <usize>C << 2;
  const C8 = C & ~7;
  const C4 = C & ~3;
  const ksB = <usize>ks << 2;
  let r = 0;
  for (; r + 4 <= R; r += 4) {
    const k0 = coef + (<usize>(r * rs) << 2);
    const k1 = k0 + (<usize>rs << 2), k2 = k1 + (<usize>rs << 2), k3 = k2 + (<usize>rs << 2);
    const d0 = dst + <usize>r * rowB;
    for (let c = 0; c < C8; c += 8) {
      const cb = <usize>c << 2;
      let a0 = f32x4.splat(0), a1 = f32x4.splat(0), a2 = f32x4.splat(0), a3 = f32x4.splat(0);
      let b0 = f32x4.splat(0), b1 = f32x4.splat(0), b2 = f32x4.splat(0), b3 = f32x4.splat(0);
      let s = src + cb;
      let kk: usize = 0;
      for (let k = 0; k < K; k++) {
        const u = v128.load(s);
        const v = v128.load(s, 16);
        let q = v128.load32_splat(k0 + kk);
        a0 = madd(q, u, a0);
        b0 = madd(q, v, b0);
        q = v128.load32_splat(k1 + kk);
        a1 = madd(q, u, a1);
        b1 = madd(q, v, b1);
        q = v128.load32_splat(k2 + kk);
        a2 = madd(q, u, a2);
        b2 = madd(q, v, b2);
        q = v128.load32_splat(k3 + kk);
        a3 = madd(q, u, a3);
        b3 = madd(q, v, b3);
        s += rowB;
        kk += ksB;
      }
      let y = d0 + cb;
      v128.store(y, f32x4.add(v128.load(y), a0));
      v128.store(y, f32x4.add(v128.load(y, 16), b0), 16);
      y += rowB;
      v128.store(y, f32x4.add(v128.load(y), a1));
      v128.store(y, f32x4.add(v128.load(y, 16), b1), 16);
      y += rowB;
      v128.store(y, f32x4.add(v128.load(y), a2));
      v128.store(y, f32x4.add(v128.load(y, 16), b2), 16);
      y += rowB;
      v128.store(y, f32x4.add(v128.load(y), a3));
      v128.store(y, f32x4.add(v128.load(y, 16), b3), 16);
    }
    if (C8 < C4) {
      const cb = <usize>C8 << 2;
      let a0 = f32x4.splat(0), a1 = f32x4.splat(0), a2 = f32x4.splat(0), a3 = f32x4.splat(0);
      let s = src + cb;
      let kk: usize = 0;
      for (let k = 0; k < K; k++) {
        const u = v128.load(s);
        a0 = madd(v128.load32_splat(k0 + kk), u, a0);
        a1 = madd(v128.load32_splat(k1 + kk), u, a1);
        a2 = madd(v128.load32_splat(k2 + kk), u, a2);
        a3 = madd(v128.load32_splat(k3 + kk), u, a3);
        s += rowB;
        kk += ksB;
      }
      let y = d0 + cb;
      v128.store(y, f32x4.add(v128.load(y), a0));
      y += rowB;
      v128.store(y, f32x4.add(v128.load(y), a1));
      y += rowB;
      v128.store(y, f32x4.add(v128.load(y), a2));
      y += rowB;
      v128.store(y, f32x4.add(v128.load(y), a3));
    }
    if (C4 < C) for (let i = 0; i < 4; i++) rowCombinationTail(d0 + <usize>i * rowB, coef + (<usize>((r + i) * rs) << 2), ksB, src, K, C4, C);
  }
  for (; r < R; r++) {
    // leftover rows: one destination row, vector over c
    const kr = coef + (<usize>(r * rs) << 2);
    const d = dst + <usize>r * rowB;
    let kk: usize = 0;
    for (let k = 0; k < K; k++) {
      axpy(d, load<f32>(kr + kk), src + <usize>k * rowB, C);
      kk += ksB;
    }
  }
}

/** dst[c] += sum_k coef[k] src[k, c] for c in [c0, C) (the columns past the last vector). */
function rowCombinationTail(d: usize, kr: usize, ksB: usize, src: usize, K: i32, c0: i32, C: i32): void {
  const rowB = <usize>C << 2;
  for (let c = c0; c < C; c++) {
    let s: f32 = 0;
    const cb = <usize>c << 2;
    for (let k = 0; k < K; k++) s += load<f32>(kr + <usize>k * ksB) * load<f32>(src + <usize>k * rowB + cb);
    store<f32>(d + cb, load<f32>(d + cb) + s);
  }
}

/** dbias[o] += sum_n dout[n, o]. */
export function biasBackward(dbias: usize, dout: usize, N: i32, OC: i32): void {
  const OC4 = OC & ~3;
  const rowB = <usize>OC << 2;
  for (let o = 0; o < OC4; o += 4) {
    const ob = <usize>o << 2;
    let a = f32x4.splat(0);
    for (let n = 0; n < N; n++) a = f32x4.add(a, v128.load(dout + <usize>n * rowB + ob));
    v128.store(dbias + ob, f32x4.add(v128.load(dbias + ob), a));
  }
  for (let o = OC4; o < OC; o++) {
    const ob = <usize>o << 2;
    let s: f32 = 0;
    for (let n = 0; n < N; n++) s += load<f32>(dout + <usize>n * rowB + ob);
    store<f32>(dbias + ob, load<f32>(dbias + ob) + s);
  }
}

/**
 * Pack weight (OC, C) into column panels for matmulForwardT: for each block of 8 outputs o0..o0+7, a
 * contiguous (C, 8) panel (row c holds w[o0+j, c], j < 8); then one (C, 4) panel for the next 4 outputs
 * when OC mod 8 >= 4. The kernel then streams each panel contiguously.
 */
export function packPanels(dst: usize, w: usize, OC: i32, C: i32): void {
  const OC8 = OC & ~7;
  const OC4 = OC & ~3;
  for (let o0 = 0; o0 < OC8; o0 += 8) {
    const panel = dst + (<usize>(o0 * C) << 2);
    for (let j = 0; j < 8; j++) {
      const src = w + (<usize>((o0 + j) * C) << 2);
      for (let c = 0; c < C; c++) store<f32>(panel + (<usize>(c * 8 + j) << 2), load<f32>(src + (<usize>c << 2)));
    }
  }
  if (OC8 < OC4) {
    const panel = dst + (<usize>(OC8 * C) << 2);
    for (let j = 0; j < 4; j++) {
      const src = w + (<usize>((OC8 + j) * C) << 2);
      for (let c = 0; c < C; c++) store<f32>(panel + (<usize>(c * 4 + j) << 2), load<f32>(src + (<usize>c << 2)));
    }
  }
}

/** 4 rows x 8 columns of out from an (C, 8) panel: acc += splat(x[r, c]) * panel[c, 0..8]. */
function mmT4x8(y: usize, outB: usize, x: usize, rowB: usize, panel: usize, C: i32, bias: usize): void {
  let a0 = f32x4.splat(0), a1 = f32x4.splat(0), a2 = f32x4.splat(0), a3 = f32x4.splat(0);
  let b0 = f32x4.splat(0), b1 = f32x4.splat(0), b2 = f32x4.splat(0), b3 = f32x4.splat(0);
  if (bias) {
    a0 = v128.load(bias);
    b0 = v128.load(bias, 16);
    a1 = a0; a2 = a0; a3 = a0;
    b1 = b0; b2 = b0; b3 = b0;
  }
  let w = panel;
  let xc = x;
  for (let c = 0; c < C; c++) {
    const u = v128.load(w);
    const v = v128.load(w, 16);
    let s = v128.load32_splat(xc);
    a0 = madd(s, u, a0);
    b0 = madd(s, v, b0);
    s = v128.load32_splat(xc + rowB);
    a1 = madd(s, u, a1);
    b1 = madd(s, v, b1);
    s = v128.load32_splat(xc + 2 * rowB);
    a2 = madd(s, u, a2);
    b2 = madd(s, v, b2);
    s = v128.load32_splat(xc + 3 * rowB);
    a3 = madd(s, u, a3);
    b3 = madd(s, v, b3);
    w += 32;
    xc += 4;
  }
  v128.store(y, a0);
  v128.store(y, b0, 16);
  v128.store(y + outB, a1);
  v128.store(y + outB, b1, 16);
  v128.store(y + 2 * outB, a2);
  v128.store(y + 2 * outB, b2, 16);
  v128.store(y + 3 * outB, a3);
  v128.store(y + 3 * outB, b3, 16);
}

/** One row, 4 columns of out from a panel whose rows are `wB` bytes apart (32: an 8-panel, 16: a 4-panel). */
function mmT1x4(y: usize, x: usize, panel: usize, wB: usize, C: i32, bias: usize): void {
  let a = bias ? v128.load(bias) : f32x4.splat(0);
  let w = panel;
  for (let c = 0; c < C; c++) {
    a = madd(v128.load32_splat(x + (<usize>c << 2)), v128.load(w), a);
    w += wB;
  }
  v128.store(y, a);
}

/**
 * out (N,OC) = inp (N,C) @ weight^T + bias with the weight packed by packPanels: broadcast-multiply
 * blocks of 4 rows x 8 columns (no horizontal sums; the fast form for small C). Columns past the last
 * multiple of 4 take dot products with the unpacked weight w (OC, C).
 */
export function matmulForwardT(out: usize, inp: usize, packed: usize, w: usize, bias: usize, N: i32, C: i32, OC: i32): void {
  const rowB = <usize>C << 2;
  const outB = <usize>OC << 2;
  const OC8 = OC & ~7;
  const OC4 = OC & ~3;
  const tail = packed + (<usize>(OC8 * C) << 2); // the 4-wide panel, if any
  let n = 0;
  for (; n + 4 <= N; n += 4) {
    const x = inp + <usize>n * rowB;
    const y = out + <usize>n * outB;
    for (let o = 0; o < OC8; o += 8) {
      const ob = <usize>o << 2;
      mmT4x8(y + ob, outB, x, rowB, packed + (<usize>(o * C) << 2), C, bias ? bias + ob : 0);
    }
    if (OC8 < OC4) {
      const ob = <usize>OC8 << 2;
      for (let r = 0; r < 4; r++) mmT1x4(y + <usize>r * outB + ob, x + <usize>r * rowB, tail, 16, C, bias ? bias + ob : 0);
    }
  }
  for (; n < N; n++) {
    const x = inp + <usize>n * rowB;
    const y = out + <usize>n * outB;
    for (let o = 0; o < OC8; o += 8) {
      const ob = <usize>o << 2;
      const pn = packed + (<usize>(o * C) << 2);
      mmT1x4(y + ob, x, pn, 32, C, bias ? bias + ob : 0);
      mmT1x4(y + ob + 16, x, pn + 16, 32, C, bias ? bias + ob + 16 : 0);
    }
    if (OC8 < OC4) {
      const ob = <usize>OC8 << 2;
      mmT1x4(y + ob, x, tail, 16, C, bias ? bias + ob : 0);
    }
  }
  for (let o = OC4; o < OC; o++) {
    const wo = w + <usize>o * rowB;
    const b: f32 = bias ? load<f32>(bias + (<usize>o << 2)) : 0;
    for (let r = 0; r < N; r++) store<f32>(out + <usize>r * outB + (<usize>o << 2), dot(inp + <usize>r * rowB, wo, C) + b);
  }
}
