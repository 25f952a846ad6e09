// Profiling kernels of the fused multiply-add profile (src/bench/fmaProfile.ts, issue 20): ablations of the
// forward matmul's broadcast kernel (mmT4x8 in ../matmul.ts, which runs from 8 rows on). Not part of the
// shipped modules: the profile compiles this file itself, with and without relaxed SIMD. Every driver walks
// the same (C, 8) panels of packPanels as matmulForwardT; `madd` is the shipped helper (one FMA when built
// with relaxed SIMD).
import { madd } from '../simd';
export { packPanels } from '../matmul';

/** The same loads as mmT4x8 (2 panel vectors, 4 broadcast inputs per step of C), xor-folded into one vector. */
function loads4x8(y: usize, x: usize, rowB: usize, panel: usize, C: i32): void {
  let acc = f32x4.splat(0);
  let w = panel;
  let xc = x;
  for (let c = 0; c < C; c++) {
    const u = v128.load(w);
    const v = v128.load(w, 16);
    const s0 = v128.load32_splat(xc);
    const s1 = v128.load32_splat(xc + rowB);
    const s2 = v128.load32_splat(xc + 2 * rowB);
    const s3 = v128.load32_splat(xc + 3 * rowB);
    acc = v128.xor(acc, v128.xor(v128.xor(u, v), v128.xor(v128.xor(s0, s1), v128.xor(s2, s3))));
    w += 32;
    xc += 4;
  }
  v128.store(y, acc);
}

/** The 8 multiply-adds of mmT4x8 per step on register-resident inputs (read once); u and v swap every step so
 * no product is loop-invariant. */
function arith4x8(y: usize, outB: usize, x: usize, rowB: usize, panel: usize, C: i32): void {
  let a0 = f32x4.splat(0), a1 = f32x4.splat(0), a2 = f32x4.splat(0), a3 = f32x4.splat(0);
  let b0 = f32x4.splat(0), b1 = f32x4.splat(0), b2 = f32x4.splat(0), b3 = f32x4.splat(0);
  let u = v128.load(panel);
  let v = v128.load(panel, 16);
  const s0 = v128.load32_splat(x);
  const s1 = v128.load32_splat(x + rowB);
  const s2 = v128.load32_splat(x + 2 * rowB);
  const s3 = v128.load32_splat(x + 3 * rowB);
  for (let c = 0; c < C; c++) {
    a0 = madd(s0, u, a0);
    b0 = madd(s0, v, b0);
    a1 = madd(s1, u, a1);
    b1 = madd(s1, v, b1);
    a2 = madd(s2, u, a2);
    b2 = madd(s2, v, b2);
    a3 = madd(s3, u, a3);
    b3 = madd(s3, v, b3);
    const t = u;
    u = v;
    v = t;
  }
  v128.store(y, f32x4.add(f32x4.add(a0, a1), f32x4.add(a2, a3)));
  v128.store(y + outB, f32x4.add(f32x4.add(b0, b1), f32x4.add(b2, b3)));
}

/** Half the chains of arith4x8: 4 accumulators, each doing 2 multiply-adds a step (the same work, half the
 * independent chains: its time against arith4x8's shows whether 8 chains hide the latency). */
function arith4acc(y: usize, x: usize, rowB: usize, panel: usize, C: i32): void {
  let a0 = f32x4.splat(0), a1 = f32x4.splat(0), a2 = f32x4.splat(0), a3 = f32x4.splat(0);
  let u = v128.load(panel);
  let v = v128.load(panel, 16);
  const s0 = v128.load32_splat(x);
  const s1 = v128.load32_splat(x + rowB);
  const s2 = v128.load32_splat(x + 2 * rowB);
  const s3 = v128.load32_splat(x + 3 * rowB);
  for (let c = 0; c < C; c++) {
    a0 = madd(s0, v, madd(s0, u, a0));
    a1 = madd(s1, v, madd(s1, u, a1));
    a2 = madd(s2, v, madd(s2, u, a2));
    a3 = madd(s3, v, madd(s3, u, a3));
    const t = u;
    u = v;
    v = t;
  }
  v128.store(y, f32x4.add(f32x4.add(a0, a1), f32x4.add(a2, a3)));
}

/** 6 rows x 8 columns of out: mmT4x8 with 12 accumulators (without bias). */
function mm6x8(y: usize, outB: usize, x: usize, rowB: usize, panel: usize, C: i32): void {
  let a0 = f32x4.splat(0), a1 = f32x4.splat(0), a2 = f32x4.splat(0), a3 = f32x4.splat(0), a4 = f32x4.splat(0), a5 = f32x4.splat(0);
  let b0 = f32x4.splat(0), b1 = f32x4.splat(0), b2 = f32x4.splat(0), b3 = f32x4.splat(0), b4 = f32x4.splat(0), b5 = f32x4.splat(0);
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
    s = v128.load32_splat(xc + 4 * rowB);
    a4 = madd(s, u, a4);
    b4 = madd(s, v, b4);
    s = v128.load32_splat(xc + 5 * rowB);
    a5 = madd(s, u, a5);
    b5 = madd(s, v, b5);
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
  v128.store(y + 4 * outB, a4);
  v128.store(y + 4 * outB, b4, 16);
  v128.store(y + 5 * outB, a5);
  v128.store(y + 5 * outB, b5, 16);
}

/** 8 rows x 8 columns of out: 16 accumulators (more than x64's 16 vector registers hold beside the inputs). */
function mm8x8(y: usize, outB: usize, x: usize, rowB: usize, panel: usize, C: i32): void {
  let a0 = f32x4.splat(0), a1 = f32x4.splat(0), a2 = f32x4.splat(0), a3 = f32x4.splat(0);
  let a4 = f32x4.splat(0), a5 = f32x4.splat(0), a6 = f32x4.splat(0), a7 = f32x4.splat(0);
  let b0 = f32x4.splat(0), b1 = f32x4.splat(0), b2 = f32x4.splat(0), b3 = f32x4.splat(0);
  let b4 = f32x4.splat(0), b5 = f32x4.splat(0), b6 = f32x4.splat(0), b7 = f32x4.splat(0);
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
    s = v128.load32_splat(xc + 4 * rowB);
    a4 = madd(s, u, a4);
    b4 = madd(s, v, b4);
    s = v128.load32_splat(xc + 5 * rowB);
    a5 = madd(s, u, a5);
    b5 = madd(s, v, b5);
    s = v128.load32_splat(xc + 6 * rowB);
    a6 = madd(s, u, a6);
    b6 = madd(s, v, b6);
    s = v128.load32_splat(xc + 7 * rowB);
    a7 = madd(s, u, a7);
    b7 = madd(s, v, b7);
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
  v128.store(y + 4 * outB, a4);
  v128.store(y + 4 * outB, b4, 16);
  v128.store(y + 5 * outB, a5);
  v128.store(y + 5 * outB, b5, 16);
  v128.store(y + 6 * outB, a6);
  v128.store(y + 6 * outB, b6, 16);
  v128.store(y + 7 * outB, a7);
  v128.store(y + 7 * outB, b7, 16);
}

/** One row x 8 columns (the rows past the last full block of mm6x8 and mm8x8). */
function mm1x8(y: usize, x: usize, panel: usize, C: i32): void {
  let a = f32x4.splat(0), b = f32x4.splat(0);
  let w = panel;
  for (let c = 0; c < C; c++) {
    const s = v128.load32_splat(x + (<usize>c << 2));
    a = madd(s, v128.load(w), a);
    b = madd(s, v128.load(w, 16), b);
    w += 32;
  }
  v128.store(y, a);
  v128.store(y, b, 16);
}

export const LOADS: i32 = 0;
export const ARITH8: i32 = 1;
export const ARITH4: i32 = 2;
export const MM6X8: i32 = 3;
export const MM8X8: i32 = 4;

/**
 * Run ablation `mode` over out (N, OC) from inp (N, C) and packed (the panels of an (OC, C) weight), block by
 * block as matmulForwardT does; OC a multiple of 8. MM6X8 and MM8X8 compute out = inp @ weight^T (their
 * leftover rows one at a time); the others write values that only keep their work observable, over blocks of
 * 4 rows (N a multiple of 4).
 */
export function profileForward(mode: i32, out: usize, inp: usize, packed: usize, N: i32, C: i32, OC: i32): void {
  const rowB = <usize>C << 2;
  const outB = <usize>OC << 2;
  const rows = mode == MM6X8 ? 6 : mode == MM8X8 ? 8 : 4;
  let n = 0;
  for (; n + rows <= N; n += rows) {
    const x = inp + <usize>n * rowB;
    const y = out + <usize>n * outB;
    for (let o = 0; o < OC; o += 8) {
      const yo = y + (<usize>o << 2);
      const pn = packed + (<usize>(o * C) << 2);
      if (mode == LOADS) loads4x8(yo, x, rowB, pn, C);
      else if (mode == ARITH8) arith4x8(yo, outB, x, rowB, pn, C);
      else if (mode == ARITH4) arith4acc(yo, x, rowB, pn, C);
      else if (mode == MM6X8) mm6x8(yo, outB, x, rowB, pn, C);
      else mm8x8(yo, outB, x, rowB, pn, C);
    }
  }
  if (mode == MM6X8 || mode == MM8X8)
    for (; n < N; n++)
      for (let o = 0; o < OC; o += 8) mm1x8(out + <usize>n * outB + (<usize>o << 2), inp + <usize>n * rowB, packed + (<usize>(o * C) << 2), C);
}

/** A dependent chain of `n` f32x4 adds (8 a step): the profile's unit of time, one add latency (2 cycles on AMD
 * Zen 5, 3 on Zen 2-4 and Intel since Skylake). */
export function addChain(p: usize, n: i32): void {
  let a = v128.load(p);
  const d = v128.load(p, 16);
  for (let i = 0; i < n; i += 8) {
    a = f32x4.add(a, d);
    a = f32x4.add(a, d);
    a = f32x4.add(a, d);
    a = f32x4.add(a, d);
    a = f32x4.add(a, d);
    a = f32x4.add(a, d);
    a = f32x4.add(a, d);
    a = f32x4.add(a, d);
  }
  v128.store(p, a);
}
