// Barrier-free layer normalisation for short rows (llm.c layernorm_forward/backward, eps 1e-5).
// CPU twin: src/engine/cpu/layernorm.ts. Needs common.wgsl prepended (flat_index).
// No workgroup memory and no barriers (each costs a fiber switch per invocation on CPU
// implementations of WebGPU such as SwiftShader): one invocation per row for the forward pass;
// the backward pass gives each invocation a slice of RS rows, writing their dinp and the slice's
// partial dweight/dbias sums to a scratch buffer, which layernorm_params_sum_rows then adds per
// channel in slice order. Every sum has a fixed order: deterministic, no atomics.

struct Params {
  N: u32,  // rows
  C: u32,  // channels per row
  S: u32,  // backward: row slices (ceil(N / RS)); unused by the forward pass
}

const WG: u32 = 32u;   // invocations per workgroup
const RS: u32 = 4u;    // layernorm_backward_rows: rows per slice
const EPS: f32 = 1e-5;

// Entry points bind different tensors at the same binding numbers (each uses only its own).
@group(0) @binding(0) var<uniform> params: Params;                // sizes (all entry points)

// layernorm_forward_rows
@group(0) @binding(1) var<storage, read_write> f_out: array<f32>;   // (N, C) normalised output
@group(0) @binding(2) var<storage, read_write> f_mean: array<f32>;  // (N) saved row means
@group(0) @binding(3) var<storage, read_write> f_rstd: array<f32>;  // (N) saved 1/sqrt(var + eps)
@group(0) @binding(4) var<storage, read> f_inp: array<f32>;         // (N, C) input
@group(0) @binding(5) var<storage, read> f_weight: array<f32>;      // (C) gain
@group(0) @binding(6) var<storage, read> f_bias: array<f32>;        // (C) shift

// layernorm_backward_rows (dinp and partial parameter gradients)
@group(0) @binding(1) var<storage, read_write> b_dinp: array<f32>;    // (N, C) input gradient, accumulated
@group(0) @binding(2) var<storage, read_write> b_partial: array<f32>; // (S, 2C) per slice: dweight | dbias sums
@group(0) @binding(3) var<storage, read> b_dout: array<f32>;          // (N, C) output gradient
@group(0) @binding(4) var<storage, read> b_inp: array<f32>;           // (N, C) forward input
@group(0) @binding(5) var<storage, read> b_weight: array<f32>;        // (C) gain
@group(0) @binding(6) var<storage, read> b_mean: array<f32>;          // (N) saved row means
@group(0) @binding(7) var<storage, read> b_rstd: array<f32>;          // (N) saved rstd

// layernorm_params_sum_rows
@group(0) @binding(1) var<storage, read_write> s_dweight: array<f32>; // (C) gain gradient, accumulated
@group(0) @binding(2) var<storage, read_write> s_dbias: array<f32>;   // (C) shift gradient, accumulated
@group(0) @binding(3) var<storage, read> s_partial: array<f32>;       // (S, 2C) from layernorm_backward_rows

// out[n,:] = (inp[n,:] - mean) * rstd * weight + bias; one invocation per row, sums as the CPU twin.
@compute @workgroup_size(WG)
fn layernorm_forward_rows(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let n = flat_index(gid, nwg, WG);
  if (n >= params.N) { return; }
  let C = params.C;
  let x = n * C;
  var s = 0.0;
  for (var i = 0u; i < C; i++) { s += f_inp[x + i]; }
  let m = s / f32(C);
  var v = 0.0;
  for (var i = 0u; i < C; i++) {
    let d = f_inp[x + i] - m;
    v += d * d;
  }
  let r = 1.0 / sqrt(v / f32(C) + EPS);
  for (var i = 0u; i < C; i++) {
    f_out[x + i] = (f_inp[x + i] - m) * r * f_weight[i] + f_bias[i];
  }
  f_mean[n] = m;
  f_rstd[n] = r;
}

// Slice s (rows s*RS .. s*RS+RS-1): dinp += (dnorm - mean(dnorm) - norm * mean(dnorm * norm)) * rstd,
// dnorm = weight * dout, per row; partial[s] = (sum over the slice's rows of dout * norm | of dout).
@compute @workgroup_size(WG)
fn layernorm_backward_rows(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let s = flat_index(gid, nwg, WG);
  if (s >= params.S) { return; }
  let C = params.C;
  let p = s * 2u * C;
  let n0 = s * RS;
  let n1 = min(n0 + RS, params.N);
  for (var n = n0; n < n1; n++) {
    let x = n * C;
    let m = b_mean[n];
    let r = b_rstd[n];
    var a = 0.0;
    var b = 0.0;
    for (var i = 0u; i < C; i++) {
      let norm = (b_inp[x + i] - m) * r;
      let dnorm = b_weight[i] * b_dout[x + i];
      a += dnorm;
      b += dnorm * norm;
    }
    let dnorm_mean = a / f32(C);
    let dnorm_norm_mean = b / f32(C);
    for (var i = 0u; i < C; i++) {
      let d = b_dout[x + i];
      let norm = (b_inp[x + i] - m) * r;
      let dnorm = b_weight[i] * d;
      b_dinp[x + i] += (dnorm - dnorm_mean - norm * dnorm_norm_mean) * r;
      if (n == n0) {
        b_partial[p + i] = norm * d;
        b_partial[p + C + i] = d;
      } else {
        b_partial[p + i] += norm * d;
        b_partial[p + C + i] += d;
      }
    }
  }
}

// dweight[c] += sum_s partial[s, c]; dbias[c] += sum_s partial[s, C + c], slices in order.
@compute @workgroup_size(WG)
fn layernorm_params_sum_rows(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let c = flat_index(gid, nwg, WG);
  let C = params.C;
  if (c >= C) { return; }
  var dw = 0.0;
  var db = 0.0;
  for (var s = 0u; s < params.S; s++) {
    dw += s_partial[s * 2u * C + c];
    db += s_partial[s * 2u * C + C + c];
  }
  s_dweight[c] += dw;
  s_dbias[c] += db;
}
