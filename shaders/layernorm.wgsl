// Layer normalisation over the last dimension (llm.c layernorm_forward/backward, eps 1e-5).
// CPU twin: src/engine/cpu/layernorm.ts.
// layernorm_forward and layernorm_backward: one workgroup of WG threads per row (fixed-order tree
// reductions in workgroup memory). layernorm_backward_params: dweight/dbias, one thread per
// (channel, row slice), partial sums reduced in a fixed order: deterministic, no atomics.

struct Params {
  N: u32, // rows
  C: u32, // channels per row
}

const WG: u32 = 64u;       // threads per row (power of two)
const EPS: f32 = 1e-5;
const PC: u32 = 32u;       // layernorm_backward_params: channels per workgroup
const PS: u32 = 8u;        // layernorm_backward_params: row slices per workgroup

// Entry points bind different tensors at the same binding numbers (each uses only its own).
@group(0) @binding(0) var<uniform> params: Params;              // sizes (all entry points)

// layernorm_forward
@group(0) @binding(1) var<storage, read_write> out: array<f32>;   // (N, C) normalised output
@group(0) @binding(2) var<storage, read_write> mean: array<f32>;  // (N) saved row means
@group(0) @binding(3) var<storage, read_write> rstd: array<f32>;  // (N) saved 1/sqrt(var + eps)
@group(0) @binding(4) var<storage, read> inp: array<f32>;         // (N, C) input
@group(0) @binding(5) var<storage, read> weight: array<f32>;      // (C) gain
@group(0) @binding(6) var<storage, read> bias: array<f32>;        // (C) shift

// layernorm_backward (dinp)
@group(0) @binding(1) var<storage, read_write> b_dinp: array<f32>; // (N, C) input gradient, accumulated
@group(0) @binding(2) var<storage, read> b_dout: array<f32>;       // (N, C) output gradient
@group(0) @binding(3) var<storage, read> b_inp: array<f32>;        // (N, C) forward input
@group(0) @binding(4) var<storage, read> b_weight: array<f32>;     // (C) gain
@group(0) @binding(5) var<storage, read> b_mean: array<f32>;       // (N) saved row means
@group(0) @binding(6) var<storage, read> b_rstd: array<f32>;       // (N) saved rstd

// layernorm_backward_params (dweight, dbias)
@group(0) @binding(1) var<storage, read_write> p_dweight: array<f32>; // (C) gain gradient, accumulated
@group(0) @binding(2) var<storage, read_write> p_dbias: array<f32>;   // (C) shift gradient, accumulated
@group(0) @binding(3) var<storage, read> p_dout: array<f32>;          // (N, C) output gradient
@group(0) @binding(4) var<storage, read> p_inp: array<f32>;           // (N, C) forward input
@group(0) @binding(5) var<storage, read> p_mean: array<f32>;          // (N) saved row means
@group(0) @binding(6) var<storage, read> p_rstd: array<f32>;          // (N) saved rstd

var<workgroup> red_a: array<f32, 256>; // reduction scratch (WG or PC*PS entries used)
var<workgroup> red_b: array<f32, 256>; // second reduction scratch

// Sum of red_a[0..WG) (and red_b) into red_a[0] (red_b[0]), in a fixed tree order.
fn reduce_wg(lid: u32) {
  for (var s = WG / 2u; s > 0u; s = s / 2u) {
    workgroupBarrier();
    if (lid < s) {
      red_a[lid] += red_a[lid + s];
      red_b[lid] += red_b[lid + s];
    }
  }
  workgroupBarrier();
}

@compute @workgroup_size(WG)
fn layernorm_forward(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                     @builtin(local_invocation_index) lid: u32) {
  let n = wid.x + wid.y * nwg.x; // row (uniform within the workgroup)
  if (n >= params.N) { return; }
  let C = params.C;
  let x = n * C;
  var s = 0.0;
  for (var i = lid; i < C; i += WG) { s += inp[x + i]; }
  red_a[lid] = s;
  red_b[lid] = 0.0;
  reduce_wg(lid);
  let m = red_a[0] / f32(C);
  workgroupBarrier();
  var v = 0.0;
  for (var i = lid; i < C; i += WG) {
    let d = inp[x + i] - m;
    v += d * d;
  }
  red_a[lid] = v;
  reduce_wg(lid);
  let r = 1.0 / sqrt(red_a[0] / f32(C) + EPS);
  for (var i = lid; i < C; i += WG) {
    out[x + i] = (inp[x + i] - m) * r * weight[i] + bias[i];
  }
  if (lid == 0u) {
    mean[n] = m;
    rstd[n] = r;
  }
}

// dinp += (dnorm - mean(dnorm) - norm * mean(dnorm * norm)) * rstd, dnorm = weight * dout.
@compute @workgroup_size(WG)
fn layernorm_backward(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                      @builtin(local_invocation_index) lid: u32) {
  let n = wid.x + wid.y * nwg.x; // row (uniform within the workgroup)
  if (n >= params.N) { return; }
  let C = params.C;
  let x = n * C;
  let m = b_mean[n];
  let r = b_rstd[n];
  var a = 0.0;
  var b = 0.0;
  for (var i = lid; i < C; i += WG) {
    let norm = (b_inp[x + i] - m) * r;
    let dnorm = b_weight[i] * b_dout[x + i];
    a += dnorm;
    b += dnorm * norm;
  }
  red_a[lid] = a;
  red_b[lid] = b;
  reduce_wg(lid);
  let dnorm_mean = red_a[0] / f32(C);
  let dnorm_norm_mean = red_b[0] / f32(C);
  for (var i = lid; i < C; i += WG) {
    let norm = (b_inp[x + i] - m) * r;
    let dnorm = b_weight[i] * b_dout[x + i];
    b_dinp[x + i] += (dnorm - dnorm_mean - norm * dnorm_norm_mean) * r;
  }
}

// dweight[c] += sum_n dout[n,c] * norm[n,c]; dbias[c] += sum_n dout[n,c]. Workgroup: PC channels
// x PS row slices; slice s sums rows s, s+PS, ...; slices are then added in order 0..PS-1.
@compute @workgroup_size(PC, PS)
fn layernorm_backward_params(@builtin(workgroup_id) wid: vec3<u32>,
                             @builtin(local_invocation_id) lid3: vec3<u32>) {
  let C = params.C;
  let c = wid.x * PC + lid3.x;
  let k = lid3.y * PC + lid3.x; // slot in the reduction scratch
  var dw = 0.0;
  var db = 0.0;
  if (c < C) {
    for (var n = lid3.y; n < params.N; n += PS) {
      let d = p_dout[n * C + c];
      let norm = (p_inp[n * C + c] - p_mean[n]) * p_rstd[n];
      dw += norm * d;
      db += d;
    }
  }
  red_a[k] = dw;
  red_b[k] = db;
  workgroupBarrier();
  if (lid3.y == 0u && c < C) {
    var sw = 0.0;
    var sb = 0.0;
    for (var s = 0u; s < PS; s++) {
      sw += red_a[s * PC + lid3.x];
      sb += red_b[s * PC + lid3.x];
    }
    p_dweight[c] += sw;
    p_dbias[c] += sb;
  }
}
