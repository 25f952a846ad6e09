// Matmul kernels, twins of src/engine/cpu/matmul.ts (llm.c matmul_forward/backward):
// forward out = inp @ weight^T + bias; backward dinp += dout @ weight, dweight += dout^T @ inp,
// dbias += column sums of dout. The three products share one tiled core: a 16x16 workgroup
// computes a 64x64 output tile, each thread a 4x4 block (rows ty+16i, columns tx+16j), stepping
// through K in slices of 16 staged in workgroup memory. Loads outside the matrices read 0 and
// stores outside are skipped, so any size works. These tiled kernels serve large shapes (and any C);
// the model's small shapes run the barrier-free register blocks of shaders/matmul_blocked.wgsl
// (src/engine/webgpu/ops/matmul.ts chooses per shape). The dbias kernel serves both.

struct Params {
  N: u32,  // rows of inp / dout (B*T)
  C: u32,  // input channels
  OC: u32, // output channels
}

const TM: u32 = 64u; // output tile rows and columns
const TK: u32 = 16u; // K slice staged per step

var<workgroup> tile_a: array<f32, 1024>; // (TK, TM): A[m0+m, k0+k] at k*TM + m
var<workgroup> tile_b: array<f32, 1024>; // (TK, TM): B[k0+k, n0+n] at k*TM + n

// acc[i*4+j] += sum_k tile_a[k, ty+16i] * tile_b[k, tx+16j] over the staged slice.
fn mac_slice(tx: u32, ty: u32, acc: ptr<function, array<f32, 16>>) {
  for (var k = 0u; k < TK; k++) {
    var a: array<f32, 4>;
    var b: array<f32, 4>;
    for (var i = 0u; i < 4u; i++) {
      a[i] = tile_a[k * TM + ty + 16u * i];
      b[i] = tile_b[k * TM + tx + 16u * i];
    }
    for (var i = 0u; i < 4u; i++) {
      for (var j = 0u; j < 4u; j++) {
        (*acc)[i * 4u + j] += a[i] * b[j];
      }
    }
  }
}

// ---- forward: out (N,OC) = inp (N,C) @ weight (OC,C)^T [+ bias] -------------------------------
// A = inp (m = n, k = c), B[k, o] = weight[o, k]: both are contiguous along k.

@group(0) @binding(0) var<uniform> params: Params;                // sizes
@group(0) @binding(1) var<storage, read_write> out: array<f32>;    // (N, OC) output
@group(0) @binding(2) var<storage, read> inp: array<f32>;          // (N, C) input rows
@group(0) @binding(3) var<storage, read> weight: array<f32>;       // (OC, C) weight
@group(0) @binding(4) var<storage, read> bias: array<f32>;         // (OC) bias (matmul_forward only)

// Stage inp[n0.., k0..] and weight[o0.., k0..] (both K-contiguous: consecutive threads read along k).
fn load_forward_slice(lid: u32, n0: u32, o0: u32, k0: u32) {
  for (var r = 0u; r < 4u; r++) {
    let idx = lid + 256u * r;
    let k = idx % TK;
    let m = idx / TK;
    let n = n0 + m;
    let o = o0 + m;
    let c = k0 + k;
    var a = 0.0;
    var b = 0.0;
    if (n < params.N && c < params.C) { a = inp[n * params.C + c]; }
    if (o < params.OC && c < params.C) { b = weight[o * params.C + c]; }
    tile_a[k * TM + m] = a;
    tile_b[k * TM + m] = b;
  }
}

fn forward_tile(lid: vec3<u32>, wg: vec3<u32>) -> array<f32, 16> {
  var acc: array<f32, 16>;
  let n0 = wg.y * TM;
  let o0 = wg.x * TM;
  let flat = lid.y * 16u + lid.x;
  for (var k0 = 0u; k0 < params.C; k0 += TK) {
    load_forward_slice(flat, n0, o0, k0);
    workgroupBarrier();
    mac_slice(lid.x, lid.y, &acc);
    workgroupBarrier();
  }
  return acc;
}

// Grid (ceil(OC/64), ceil(N/64)); workgroup 16x16.
@compute @workgroup_size(16, 16)
fn matmul_forward(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wg: vec3<u32>) {
  let acc = forward_tile(lid, wg);
  for (var i = 0u; i < 4u; i++) {
    let n = wg.y * TM + lid.y + 16u * i;
    for (var j = 0u; j < 4u; j++) {
      let o = wg.x * TM + lid.x + 16u * j;
      if (n < params.N && o < params.OC) { out[n * params.OC + o] = acc[i * 4u + j] + bias[o]; }
    }
  }
}

// As matmul_forward without a bias (the bias binding is not declared by this entry point).
@compute @workgroup_size(16, 16)
fn matmul_forward_nobias(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wg: vec3<u32>) {
  let acc = forward_tile(lid, wg);
  for (var i = 0u; i < 4u; i++) {
    let n = wg.y * TM + lid.y + 16u * i;
    for (var j = 0u; j < 4u; j++) {
      let o = wg.x * TM + lid.x + 16u * j;
      if (n < params.N && o < params.OC) { out[n * params.OC + o] = acc[i * 4u + j]; }
    }
  }
}

// ---- backward dinp: dinp (N,C) += dout (N,OC) @ weight (OC,C) ---------------------------------
// A = dout (m = n, k = o), contiguous along k; B = weight (k = o, column c), contiguous along c.

@group(0) @binding(1) var<storage, read_write> dinp: array<f32>;   // (N, C) input gradient, accumulated
@group(0) @binding(2) var<storage, read> dout: array<f32>;         // (N, OC) output gradient
@group(0) @binding(3) var<storage, read> weight_b: array<f32>;     // (OC, C) weight

// Grid (ceil(C/64), ceil(N/64)); workgroup 16x16.
@compute @workgroup_size(16, 16)
fn matmul_backward_dinp(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wg: vec3<u32>) {
  var acc: array<f32, 16>;
  let n0 = wg.y * TM;
  let c0 = wg.x * TM;
  let flat = lid.y * 16u + lid.x;
  for (var k0 = 0u; k0 < params.OC; k0 += TK) {
    for (var r = 0u; r < 4u; r++) {
      let idx = flat + 256u * r;
      // dout[n0+m, k0+k], consecutive threads along k
      let ka = idx % TK;
      let m = idx / TK;
      var a = 0.0;
      if (n0 + m < params.N && k0 + ka < params.OC) { a = dout[(n0 + m) * params.OC + k0 + ka]; }
      tile_a[ka * TM + m] = a;
      // weight[k0+k, c0+c], consecutive threads along c
      let cb = idx % TM;
      let kb = idx / TM;
      var b = 0.0;
      if (k0 + kb < params.OC && c0 + cb < params.C) { b = weight_b[(k0 + kb) * params.C + c0 + cb]; }
      tile_b[kb * TM + cb] = b;
    }
    workgroupBarrier();
    mac_slice(lid.x, lid.y, &acc);
    workgroupBarrier();
  }
  for (var i = 0u; i < 4u; i++) {
    let n = n0 + lid.y + 16u * i;
    for (var j = 0u; j < 4u; j++) {
      let c = c0 + lid.x + 16u * j;
      if (n < params.N && c < params.C) { dinp[n * params.C + c] += acc[i * 4u + j]; }
    }
  }
}

// ---- backward dweight: dweight (OC,C) += dout^T (OC,N) @ inp (N,C) ----------------------------
// A[o, k=n] = dout[n, o], contiguous along o; B = inp (k = n, column c), contiguous along c.

@group(0) @binding(1) var<storage, read_write> dweight: array<f32>; // (OC, C) weight gradient, accumulated
@group(0) @binding(2) var<storage, read> dout_w: array<f32>;        // (N, OC) output gradient
@group(0) @binding(3) var<storage, read> inp_w: array<f32>;         // (N, C) input rows

// Grid (ceil(C/64), ceil(OC/64)); workgroup 16x16.
@compute @workgroup_size(16, 16)
fn matmul_backward_dweight(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wg: vec3<u32>) {
  var acc: array<f32, 16>;
  let o0 = wg.y * TM;
  let c0 = wg.x * TM;
  let flat = lid.y * 16u + lid.x;
  for (var k0 = 0u; k0 < params.N; k0 += TK) {
    for (var r = 0u; r < 4u; r++) {
      let idx = flat + 256u * r;
      let m = idx % TM;
      let k = idx / TM;
      let n = k0 + k;
      var a = 0.0;
      var b = 0.0;
      if (n < params.N && o0 + m < params.OC) { a = dout_w[n * params.OC + o0 + m]; }
      if (n < params.N && c0 + m < params.C) { b = inp_w[n * params.C + c0 + m]; }
      tile_a[k * TM + m] = a;
      tile_b[k * TM + m] = b;
    }
    workgroupBarrier();
    mac_slice(lid.x, lid.y, &acc);
    workgroupBarrier();
  }
  for (var i = 0u; i < 4u; i++) {
    let o = o0 + lid.y + 16u * i;
    for (var j = 0u; j < 4u; j++) {
      let c = c0 + lid.x + 16u * j;
      if (o < params.OC && c < params.C) { dweight[o * params.C + c] += acc[i * 4u + j]; }
    }
  }
}

// ---- backward dbias: dbias[o] += sum_n dout[n, o] ---------------------------------------------
// One thread per column looping over n in order: deterministic, reads coalesced across threads.

@group(0) @binding(1) var<storage, read_write> dbias: array<f32>; // (OC) bias gradient, accumulated
@group(0) @binding(2) var<storage, read> dout_b: array<f32>;      // (N, OC) output gradient

// Grid (ceil(OC/64)); workgroup 64.
@compute @workgroup_size(64)
fn matmul_backward_dbias(@builtin(global_invocation_id) gid: vec3<u32>) {
  let o = gid.x;
  if (o >= params.OC) { return; }
  var s = 0.0;
  for (var n = 0u; n < params.N; n++) { s += dout_b[n * params.OC + o]; }
  dbias[o] += s;
}
