// Temperature log-softmax per row: log-probs of targets, entropy, self-certainty, cross-entropy and
// their backward passes. One workgroup per row; threads stride over the V logits and combine their
// partial sums by a fixed tree reduction (deterministic). Twin: src/engine/cpu/logprob.ts.
// Each entry point declares its own bindings (prefixes lf_/cf_/lb_); binding numbers repeat across entry
// points, which WGSL allows since no entry point uses two variables at one binding.

const WG: u32 = 64u;

struct Params {
  n: u32,          // rows N
  v: u32,          // vocabulary size V (row length)
  temp: f32,       // temperature T (> 0); 1 for cross-entropy
  sign: f32,       // backward: +1 → += w (onehot - p) / T (logprob); -1 → += w (p - onehot) (cross-entropy)
}
@group(0) @binding(0) var<uniform> params: Params;  // sizes, temperature, sign

// Workgroup scratch for the row reductions.
var<workgroup> red_a: array<f32, WG>;
var<workgroup> red_b: array<f32, WG>;
var<workgroup> red_c: array<f32, WG>;

// Row handled by this workgroup (groups laid out on a 2-D grid past 65535 rows).
fn row_index(wid: vec3<u32>, nwg: vec3<u32>) -> u32 {
  return wid.x + wid.y * nwg.x;
}

// Tree reductions over the workgroup; every invocation must call them (they hold barriers).
fn reduce_max_a(lid: u32) -> f32 {
  workgroupBarrier();
  for (var s = WG / 2u; s > 0u; s = s >> 1u) {
    if (lid < s) { red_a[lid] = max(red_a[lid], red_a[lid + s]); }
    workgroupBarrier();
  }
  let r = red_a[0];
  workgroupBarrier();
  return r;
}
fn reduce_sum_a(lid: u32) -> f32 {
  workgroupBarrier();
  for (var s = WG / 2u; s > 0u; s = s >> 1u) {
    if (lid < s) { red_a[lid] += red_a[lid + s]; }
    workgroupBarrier();
  }
  let r = red_a[0];
  workgroupBarrier();
  return r;
}
fn reduce_sum_abc(lid: u32) -> vec3<f32> {
  workgroupBarrier();
  for (var s = WG / 2u; s > 0u; s = s >> 1u) {
    if (lid < s) {
      red_a[lid] += red_a[lid + s];
      red_b[lid] += red_b[lid + s];
      red_c[lid] += red_c[lid + s];
    }
    workgroupBarrier();
  }
  let r = vec3<f32>(red_a[0], red_b[0], red_c[0]);
  workgroupBarrier();
  return r;
}

// ---- logprob_forward ------------------------------------------------------------------------------
@group(0) @binding(1) var<storage, read_write> lf_logp: array<f32>;       // (N) log p[target]
@group(0) @binding(2) var<storage, read_write> lf_entropy: array<f32>;    // (N) entropy
@group(0) @binding(3) var<storage, read_write> lf_certainty: array<f32>;  // (N) self-certainty
@group(0) @binding(4) var<storage, read> lf_logits: array<f32>;           // (N, V) logits
@group(0) @binding(5) var<storage, read> lf_targets: array<u32>;          // (N) target ids < V

@compute @workgroup_size(WG)
fn logprob_forward(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                   @builtin(local_invocation_index) lid: u32) {
  let n = row_index(wid, nwg);
  if (n >= params.n) { return; }  // uniform per workgroup
  let row = n * params.v;
  var mx = -3.0e38;
  for (var i = lid; i < params.v; i += WG) { mx = max(mx, lf_logits[row + i] / params.temp); }
  red_a[lid] = mx;
  mx = reduce_max_a(lid);
  // s = sum e^(z-max), zs = sum (z-max), ezs = sum e^(z-max) (z-max)
  var s = 0.0;
  var zs = 0.0;
  var ezs = 0.0;
  for (var i = lid; i < params.v; i += WG) {
    let d = lf_logits[row + i] / params.temp - mx;
    let e = exp(d);
    s += e;
    zs += d;
    ezs += e * d;
  }
  red_a[lid] = s;
  red_b[lid] = zs;
  red_c[lid] = ezs;
  let t = reduce_sum_abc(lid);
  if (lid == 0u) {
    let logs = log(t.x);
    lf_logp[n] = lf_logits[row + lf_targets[n]] / params.temp - mx - logs;
    lf_entropy[n] = logs - t.z / t.x;
    lf_certainty[n] = logs - t.y / f32(params.v) - log(f32(params.v));
  }
}

// ---- crossentropy_forward -------------------------------------------------------------------------
@group(0) @binding(1) var<storage, read_write> cf_losses: array<f32>;  // (N) -log p[target]
@group(0) @binding(2) var<storage, read> cf_logits: array<f32>;        // (N, V) logits
@group(0) @binding(3) var<storage, read> cf_targets: array<u32>;       // (N) target ids < V

@compute @workgroup_size(WG)
fn crossentropy_forward(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                        @builtin(local_invocation_index) lid: u32) {
  let n = row_index(wid, nwg);
  if (n >= params.n) { return; }
  let row = n * params.v;
  var mx = -3.0e38;
  for (var i = lid; i < params.v; i += WG) { mx = max(mx, cf_logits[row + i]); }
  red_a[lid] = mx;
  mx = reduce_max_a(lid);
  var s = 0.0;
  for (var i = lid; i < params.v; i += WG) { s += exp(cf_logits[row + i] - mx); }
  red_a[lid] = s;
  s = reduce_sum_a(lid);
  if (lid == 0u) {
    cf_losses[n] = log(s) - (cf_logits[row + cf_targets[n]] - mx);
  }
}

// ---- logprob_backward (also cross-entropy backward with sign = -1, temp = 1) ---------------------
@group(0) @binding(1) var<storage, read_write> lb_dlogits: array<f32>;  // (N, V) gradient, accumulated
@group(0) @binding(2) var<storage, read> lb_logits: array<f32>;         // (N, V) logits
@group(0) @binding(3) var<storage, read> lb_targets: array<u32>;        // (N) target ids < V
@group(0) @binding(4) var<storage, read> lb_weights: array<f32>;        // (N) dLoss/dlogp (or dlosses)

@compute @workgroup_size(WG)
fn logprob_backward(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                    @builtin(local_invocation_index) lid: u32) {
  let n = row_index(wid, nwg);
  if (n >= params.n) { return; }
  let row = n * params.v;
  var mx = -3.0e38;
  for (var i = lid; i < params.v; i += WG) { mx = max(mx, lb_logits[row + i] / params.temp); }
  red_a[lid] = mx;
  mx = reduce_max_a(lid);
  var s = 0.0;
  for (var i = lid; i < params.v; i += WG) { s += exp(lb_logits[row + i] / params.temp - mx); }
  red_a[lid] = s;
  let inv_s = 1.0 / reduce_sum_a(lid);
  let w = params.sign * lb_weights[n] / params.temp;
  let tgt = lb_targets[n];
  for (var i = lid; i < params.v; i += WG) {
    let p = exp(lb_logits[row + i] / params.temp - mx) * inv_s;
    let onehot = select(0.0, 1.0, i == tgt);
    lb_dlogits[row + i] += w * (onehot - p);
  }
}
