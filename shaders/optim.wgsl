// Optimizer kernels: sum of squares (global gradient norm) by a deterministic two-pass tree
// reduction, and AdamW with decoupled weight decay and optional global-norm clipping whose scale
// is computed here from the norm, without a readback. Twin: src/engine/cpu/optim.ts. Needs common.wgsl.
// Each entry point declares its own bindings (prefixes sp_/sf_/ap_); binding numbers repeat across entry
// points, which WGSL allows since no entry point uses two variables at one binding.

const WG: u32 = 256u;

// Workgroup scratch for the tree reductions.
var<workgroup> red: array<f32, WG>;

// Sum red[0..WG) into red[0] by a fixed pairwise tree; every invocation must call it.
fn reduce_red(lid: u32) {
  workgroupBarrier();
  for (var s = WG / 2u; s > 0u; s = s >> 1u) {
    if (lid < s) { red[lid] += red[lid + s]; }
    workgroupBarrier();
  }
}

// ---- sumsquares_partial: partials[g] = sum of inp[i]^2 over the elements group g covers ---------
struct SumParams {
  n: u32,       // elements N
  groups: u32,  // number of partial sums G (= workgroups of the first pass)
}
@group(0) @binding(0) var<uniform> sp: SumParams;                      // sizes
@group(0) @binding(1) var<storage, read_write> sp_partials: array<f32>;  // (G) partial sums
@group(0) @binding(2) var<storage, read> sp_inp: array<f32>;             // (N) input

@compute @workgroup_size(WG)
fn sumsquares_partial(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  // invocation (g, lid) takes elements g*WG + lid + k*G*WG, k = 0, 1, ... (a fixed assignment)
  var acc = 0.0;
  for (var i = wid.x * WG + lid; i < sp.n; i += sp.groups * WG) {
    let x = sp_inp[i];
    acc += x * x;
  }
  red[lid] = acc;
  reduce_red(lid);
  if (lid == 0u) { sp_partials[wid.x] = red[0]; }
}

// ---- sumsquares_final: out[0] = sum of the G partial sums (one workgroup) ------------------------
@group(0) @binding(1) var<storage, read_write> sf_out: array<f32>;    // (1) sum of squares
@group(0) @binding(2) var<storage, read> sf_partials: array<f32>;     // (G) partial sums

@compute @workgroup_size(WG)
fn sumsquares_final(@builtin(local_invocation_index) lid: u32) {
  var acc = 0.0;
  for (var g = lid; g < sp.groups; g += WG) { acc += sf_partials[g]; }
  red[lid] = acc;
  reduce_red(lid);
  if (lid == 0u) { sf_out[0] = red[0]; }
}

// ---- adamw_update: one AdamW step per element ----------------------------------------------------
struct AdamParams {
  n: u32,              // elements N
  clip: u32,           // 1: scale gradients by min(1, max_norm / (sqrt(norm_sq[0]) + 1e-6))
  max_norm: f32,       // clipping threshold on the global gradient norm
  lr: f32,             // learning rate
  beta1: f32,          // first-moment decay
  beta2: f32,          // second-moment decay
  one_m_beta1: f32,    // 1 - beta1 (computed on the host in double: 1 - f32(0.999) loses 5 digits)
  one_m_beta2: f32,    // 1 - beta2
  eps: f32,            // denominator epsilon
  weight_decay: f32,   // decoupled weight decay
  bc1: f32,            // bias correction 1 - beta1^step
  bc2: f32,            // bias correction 1 - beta2^step
}
@group(0) @binding(0) var<uniform> ap: AdamParams;                   // hyperparameters
@group(0) @binding(1) var<storage, read_write> ap_param: array<f32>;  // (N) parameters, updated
@group(0) @binding(2) var<storage, read> ap_grad: array<f32>;        // (N) gradients
@group(0) @binding(3) var<storage, read_write> ap_m: array<f32>;     // (N) first moment, updated
@group(0) @binding(4) var<storage, read_write> ap_v: array<f32>;     // (N) second moment, updated
@group(0) @binding(5) var<storage, read> ap_norm_sq: array<f32>;     // (1) global squared grad norm (read if clip)

@compute @workgroup_size(WG)
fn adamw_update(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = flat_index(gid, nwg, WG);
  if (i >= ap.n) { return; }
  var scale = 1.0;
  if (ap.clip == 1u) { scale = min(1.0, ap.max_norm / (sqrt(ap_norm_sq[0]) + 1e-6)); }
  let g = ap_grad[i] * scale;
  let m = ap.beta1 * ap_m[i] + ap.one_m_beta1 * g;
  let v = ap.beta2 * ap_v[i] + ap.one_m_beta2 * g * g;
  ap_m[i] = m;
  ap_v[i] = v;
  let mhat = m / ap.bc1;
  let vhat = v / ap.bc2;
  let p = ap_param[i];
  ap_param[i] = p - ap.lr * (mhat / (sqrt(vhat) + ap.eps) + ap.weight_decay * p);
}
