// Register-blocked matmul kernels for the model's small shapes, twins of src/engine/cpu/matmul.ts
// (the same products as shaders/matmul.wgsl, which keeps the 64x64 shared-memory tiles for large
// shapes). No workgroup memory and no barriers: each invocation computes a block of outputs straight
// from storage with vec4 loads along C (so C must be a multiple of 4; other sizes use the tiled
// kernels). That suits small matrices on any GPU (the operands sit in cache) and is what a CPU-backed
// adapter such as SwiftShader runs fastest: there a barrier costs a fiber switch per invocation.
// Rows and columns past the matrix are clamped on load and skipped on store, so any N and OC work.

struct Params {
  N: u32,  // rows of inp (B*T)
  C: u32,  // input channels, a multiple of 4
  OC: u32, // output channels
}

const FR: u32 = 8u; // forward: output rows per invocation (output columns per invocation: 8)

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;      // (N, OC) output
@group(0) @binding(2) var<storage, read> inp: array<vec4<f32>>;      // (N, C) input rows
@group(0) @binding(3) var<storage, read> weight: array<vec4<f32>>;   // (OC, C) weight rows
@group(0) @binding(4) var<storage, read> bias: array<f32>;           // (OC) bias (matmul_forward_blocked only)

// Sums of one block without bias: lo[i] = out[n0+i, o0..o0+3], hi[i] = out[n0+i, o0+4..o0+7],
// each over c in order of vec4 slices. Rows past N and weight rows past OC are clamped (their sums
// are never stored).
struct Block {
  lo: array<vec4<f32>, FR>,
  hi: array<vec4<f32>, FR>,
}

fn forward_block(n0: u32, o0: u32) -> Block {
  let C4 = params.C / 4u;
  let last = params.OC - 1u;
  let wa = min(o0, last) * C4;
  let wb = min(o0 + 1u, last) * C4;
  let wc = min(o0 + 2u, last) * C4;
  let wd = min(o0 + 3u, last) * C4;
  let we = min(o0 + 4u, last) * C4;
  let wf = min(o0 + 5u, last) * C4;
  let wg = min(o0 + 6u, last) * C4;
  let wh = min(o0 + 7u, last) * C4;
  var rows: array<u32, FR>;
  for (var i = 0u; i < FR; i++) { rows[i] = min(n0 + i, params.N - 1u) * C4; }
  var acc: Block;
  for (var k = 0u; k < C4; k++) {
    let xa = weight[wa + k];
    let xb = weight[wb + k];
    let xc = weight[wc + k];
    let xd = weight[wd + k];
    let xe = weight[we + k];
    let xf = weight[wf + k];
    let xg = weight[wg + k];
    let xh = weight[wh + k];
    for (var i = 0u; i < FR; i++) {
      let a = inp[rows[i] + k];
      acc.lo[i] += vec4<f32>(dot(a, xa), dot(a, xb), dot(a, xc), dot(a, xd));
      acc.hi[i] += vec4<f32>(dot(a, xe), dot(a, xf), dot(a, xg), dot(a, xh));
    }
  }
  return acc;
}

// Invocation g covers output rows FR*(g / colBlocks) .. +FR and columns 8*(g % colBlocks) .. +8.
fn forward_origin(g: u32) -> vec2<u32> {
  let colBlocks = (params.OC + 7u) / 8u;
  return vec2<u32>((g / colBlocks) * FR, (g % colBlocks) * 8u);
}

// out[n, o..o+3] = v, skipping columns past OC.
fn put4(n: u32, o: u32, v: vec4<f32>) {
  let at = n * params.OC + o;
  if (o < params.OC) { out[at] = v.x; }
  if (o + 1u < params.OC) { out[at + 1u] = v.y; }
  if (o + 2u < params.OC) { out[at + 2u] = v.z; }
  if (o + 3u < params.OC) { out[at + 3u] = v.w; }
}

// bias[o..o+3], clamped past OC.
fn bias4(o: u32) -> vec4<f32> {
  let l = params.OC - 1u;
  return vec4<f32>(bias[min(o, l)], bias[min(o + 1u, l)], bias[min(o + 2u, l)], bias[min(o + 3u, l)]);
}

// out (N,OC) = inp (N,C) @ weight (OC,C)^T + bias. Grid: ceil(N/8) * ceil(OC/8) invocations in
// workgroups of 32, laid out 2-D (x, y) past 65535 groups; invocation g = x + y * 32 * groupsX.
@compute @workgroup_size(32)
fn matmul_forward_blocked(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let org = forward_origin(gid.x + gid.y * nwg.x * 32u);
  if (org.x >= params.N) { return; }
  let acc = forward_block(org.x, org.y);
  let b0 = bias4(org.y);
  let b1 = bias4(org.y + 4u);
  for (var i = 0u; i < FR; i++) {
    let n = org.x + i;
    if (n >= params.N) { break; }
    put4(n, org.y, acc.lo[i] + b0);
    put4(n, org.y + 4u, acc.hi[i] + b1);
  }
}

// As matmul_forward_blocked without a bias (the bias binding is not declared by this entry point).
@compute @workgroup_size(32)
fn matmul_forward_blocked_nobias(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let org = forward_origin(gid.x + gid.y * nwg.x * 32u);
  if (org.x >= params.N) { return; }
  let acc = forward_block(org.x, org.y);
  for (var i = 0u; i < FR; i++) {
    let n = org.x + i;
    if (n >= params.N) { break; }
    put4(n, org.y, acc.lo[i]);
    put4(n, org.y + 4u, acc.hi[i]);
  }
}

// ---- backward with OC % 4 == 0: dout rows as vec4 ------------------------------------------------

const DR: u32 = 8u; // dinp: rows per invocation (columns: one vec4)

@group(0) @binding(1) var<storage, read_write> grad: array<vec4<f32>>; // dinp (N, C) or dweight (OC, C), accumulated
@group(0) @binding(2) var<storage, read> dout4: array<vec4<f32>>;     // (N, OC) output gradient
@group(0) @binding(3) var<storage, read> rows4: array<vec4<f32>>;     // weight (OC, C) for dinp, inp (N, C) for dweight

// dinp (N,C) += dout (N,OC) @ weight (OC,C): DR rows x 4 columns per invocation, over o in slices
// of 4. Grid: ceil(N/DR) * C/4 invocations in workgroups of 32 (2-D past 65535 groups, as above).
@compute @workgroup_size(32)
fn matmul_backward_dinp_blocked(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let C4 = params.C / 4u;
  let OC4 = params.OC / 4u;
  let g = gid.x + gid.y * nwg.x * 32u;
  let n0 = (g / C4) * DR;
  let c4 = g % C4;
  if (n0 >= params.N) { return; }
  var drow: array<u32, DR>;
  for (var i = 0u; i < DR; i++) { drow[i] = min(n0 + i, params.N - 1u) * OC4; }
  var acc: array<vec4<f32>, DR>;
  for (var q = 0u; q < OC4; q++) {
    let o = q * 4u;
    let w0 = rows4[o * C4 + c4];
    let w1 = rows4[(o + 1u) * C4 + c4];
    let w2 = rows4[(o + 2u) * C4 + c4];
    let w3 = rows4[(o + 3u) * C4 + c4];
    for (var i = 0u; i < DR; i++) {
      let d = dout4[drow[i] + q];
      acc[i] += d.x * w0 + d.y * w1 + d.z * w2 + d.w * w3;
    }
  }
  for (var i = 0u; i < DR; i++) {
    let n = n0 + i;
    if (n < params.N) { grad[n * C4 + c4] += acc[i]; }
  }
}

// dweight (OC,C) += dout^T (OC,N) @ inp (N,C): 4 rows (one vec4 of dout's columns) x 4 columns per
// invocation, over n in order. Grid: OC/4 * C/4 invocations in workgroups of 32 (2-D as above).
@compute @workgroup_size(32)
fn matmul_backward_dweight_blocked(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let C4 = params.C / 4u;
  let OC4 = params.OC / 4u;
  let g = gid.x + gid.y * nwg.x * 32u;
  let q = g / C4;
  let c4 = g % C4;
  if (q >= OC4) { return; }
  var a0 = vec4<f32>();
  var a1 = vec4<f32>();
  var a2 = vec4<f32>();
  var a3 = vec4<f32>();
  for (var n = 0u; n < params.N; n++) {
    let x = rows4[n * C4 + c4];
    let d = dout4[n * OC4 + q];
    a0 += d.x * x;
    a1 += d.y * x;
    a2 += d.z * x;
    a3 += d.w * x;
  }
  let o = q * 4u;
  grad[o * C4 + c4] += a0;
  grad[(o + 1u) * C4 + c4] += a1;
  grad[(o + 2u) * C4 + c4] += a2;
  grad[(o + 3u) * C4 + c4] += a3;
}

// ---- backward, any OC: dst (M, C) += A (M, K) @ B (K, C) ---------------------------------------
// Both backward products have this form with A read from dout at a stride (scalar loads, so any OC):
//   dinp    (N, C)  += dout (N, OC) @ weight (OC, C):   M = N,  K = OC, A(m, k) = dout[m*OC + k]
//   dweight (OC, C) += dout^T (OC, N) @ inp (N, C):     M = OC, K = N,  A(m, k) = dout[k*OC + m]
// Each invocation computes BR rows x 4 columns (one vec4), summing over k in order.

struct BParams {
  M: u32,
  K: u32,
  C: u32,  // a multiple of 4
  sm: u32, // A(m, k) is at m*sm + k*sk
  sk: u32,
}

const BR: u32 = 4u; // backward: output rows per invocation

@group(0) @binding(0) var<uniform> bp: BParams;
@group(0) @binding(1) var<storage, read_write> dst: array<vec4<f32>>; // (M, C) gradient, accumulated
@group(0) @binding(2) var<storage, read> amat: array<f32>;            // dout (N, OC)
@group(0) @binding(3) var<storage, read> bmat: array<vec4<f32>>;      // (K, C): weight or inp

// Grid: ceil(M/BR) * C/4 invocations in workgroups of 32, 2-D past 65535 groups as above.
@compute @workgroup_size(32)
fn matmul_backward_blocked(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let C4 = bp.C / 4u;
  let g = gid.x + gid.y * nwg.x * 32u;
  let m0 = (g / C4) * BR;
  let c4 = g % C4;
  if (m0 >= bp.M) { return; }
  var arow: array<u32, BR>;
  for (var i = 0u; i < BR; i++) { arow[i] = min(m0 + i, bp.M - 1u) * bp.sm; }
  var acc: array<vec4<f32>, BR>;
  for (var k = 0u; k < bp.K; k++) {
    let b = bmat[k * C4 + c4];
    let ak = k * bp.sk;
    for (var i = 0u; i < BR; i++) { acc[i] += amat[arow[i] + ak] * b; }
  }
  for (var i = 0u; i < BR; i++) {
    let m = m0 + i;
    if (m < bp.M) { dst[m * C4 + c4] += acc[i]; }
  }
}
