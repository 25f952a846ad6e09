// Barrier-free temperature log-softmax for small vocabularies: log-probs of targets, entropy,
// self-certainty, cross-entropy and the backward pass, one invocation per row with every sum in a
// register in the CPU twin's order (no workgroup memory or barriers, which cost a fiber switch per
// invocation on CPU implementations of WebGPU such as SwiftShader). Twin: src/engine/cpu/logprob.ts.
// Needs common.wgsl prepended (flat_index). Params and bindings as in logprob.wgsl.

const WG: u32 = 32u;  // invocations (rows) per workgroup

struct Params {
  n: u32,          // rows N
  v: u32,          // vocabulary size V (row length)
  temp: f32,       // temperature T (> 0); 1 for cross-entropy
  sign: f32,       // backward: +1 → += w (onehot - p) / T (logprob); -1 → += w (p - onehot) (cross-entropy)
}
@group(0) @binding(0) var<uniform> params: Params;  // sizes, temperature, sign

// ---- logprob_forward_rows ---------------------------------------------------------------------------
@group(0) @binding(1) var<storage, read_write> lf_logp: array<f32>;       // (N) log p[target]
@group(0) @binding(2) var<storage, read_write> lf_entropy: array<f32>;    // (N) entropy
@group(0) @binding(3) var<storage, read_write> lf_certainty: array<f32>;  // (N) self-certainty
@group(0) @binding(4) var<storage, read> lf_logits: array<f32>;           // (N, V) logits
@group(0) @binding(5) var<storage, read> lf_targets: array<u32>;          // (N) target ids < V

@compute @workgroup_size(WG)
fn logprob_forward_rows(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let n = flat_index(gid, nwg, WG);
  if (n >= params.n) { return; }
  let V = params.v;
  let row = n * V;
  var mx = -3.0e38;
  for (var i = 0u; i < V; i++) { mx = max(mx, lf_logits[row + i] / params.temp); }
  // s = sum e^(z-max), zs = sum (z-max), ezs = sum e^(z-max) (z-max)
  var s = 0.0;
  var zs = 0.0;
  var ezs = 0.0;
  for (var i = 0u; i < V; i++) {
    let d = lf_logits[row + i] / params.temp - mx;
    let e = exp(d);
    s += e;
    zs += d;
    ezs += e * d;
  }
  let logs = log(s);
  lf_logp[n] = lf_logits[row + lf_targets[n]] / params.temp - mx - logs;
  lf_entropy[n] = logs - ezs / s;
  lf_certainty[n] = logs - zs / f32(V) - log(f32(V));
}

// ---- crossentropy_forward_rows ----------------------------------------------------------------------
@group(0) @binding(1) var<storage, read_write> cf_losses: array<f32>;  // (N) -log p[target]
@group(0) @binding(2) var<storage, read> cf_logits: array<f32>;        // (N, V) logits
@group(0) @binding(3) var<storage, read> cf_targets: array<u32>;       // (N) target ids < V

@compute @workgroup_size(WG)
fn crossentropy_forward_rows(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let n = flat_index(gid, nwg, WG);
  if (n >= params.n) { return; }
  let row = n * params.v;
  var mx = -3.0e38;
  for (var i = 0u; i < params.v; i++) { mx = max(mx, cf_logits[row + i]); }
  var s = 0.0;
  for (var i = 0u; i < params.v; i++) { s += exp(cf_logits[row + i] - mx); }
  cf_losses[n] = log(s) - (cf_logits[row + cf_targets[n]] - mx);
}

// ---- logprob_backward_rows (also cross-entropy backward with sign = -1, temp = 1) -------------------
@group(0) @binding(1) var<storage, read_write> lb_dlogits: array<f32>;  // (N, V) gradient, accumulated
@group(0) @binding(2) var<storage, read> lb_logits: array<f32>;         // (N, V) logits
@group(0) @binding(3) var<storage, read> lb_targets: array<u32>;        // (N) target ids < V
@group(0) @binding(4) var<storage, read> lb_weights: array<f32>;        // (N) dLoss/dlogp (or dlosses)

@compute @workgroup_size(WG)
fn logprob_backward_rows(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let n = flat_index(gid, nwg, WG);
  if (n >= params.n) { return; }
  let V = params.v;
  let row = n * V;
  var mx = -3.0e38;
  for (var i = 0u; i < V; i++) { mx = max(mx, lb_logits[row + i] / params.temp); }
  var s = 0.0;
  for (var i = 0u; i < V; i++) { s += exp(lb_logits[row + i] / params.temp - mx); }
  let inv_s = 1.0 / s;
  let w = params.sign * lb_weights[n] / params.temp;
  let tgt = lb_targets[n];
  for (var i = 0u; i < V; i++) {
    let p = exp(lb_logits[row + i] / params.temp - mx) * inv_s;
    let onehot = select(0.0, 1.0, i == tgt);
    lb_dlogits[row + i] += w * (onehot - p);
  }
}
