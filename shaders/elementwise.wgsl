// Elementwise kernels, twins of src/engine/cpu/elementwise.ts (llm.c gelu_forward/backward,
// residual_forward/backward): GELU with the tanh approximation (GPT-2) and the residual add.
// One thread per element; 1-D grid of 256-wide groups (split in 2-D past 65535 groups).
// Needs common.wgsl (flat_index).

struct Params {
  n: u32, // number of elements
}

@group(0) @binding(0) var<uniform> params: Params; // element count

const GELU_SCALE: f32 = 0.7978845608028654; // sqrt(2/pi)

// tanh(u), clamped so that no implementation overflows exp internally (tanh(10) is 1 in f32).
fn tanh_safe(u: f32) -> f32 {
  return tanh(clamp(u, -10.0, 10.0));
}

// ---- GELU forward: out = 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))) -----------------------

@group(0) @binding(1) var<storage, read_write> out: array<f32>; // (n) GELU output
@group(0) @binding(2) var<storage, read> inp: array<f32>;       // (n) input

@compute @workgroup_size(256)
fn gelu_forward(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = flat_index(gid, nwg, 256u);
  if (i >= params.n) { return; }
  let x = inp[i];
  let u = GELU_SCALE * (x + 0.044715 * x * x * x);
  out[i] = 0.5 * x * (1.0 + tanh_safe(u));
}

// ---- GELU backward: dinp += gelu'(inp) * dout --------------------------------------------------

@group(0) @binding(1) var<storage, read_write> dinp: array<f32>; // (n) input gradient, accumulated
@group(0) @binding(2) var<storage, read> inp_b: array<f32>;      // (n) forward input
@group(0) @binding(3) var<storage, read> dout: array<f32>;       // (n) output gradient

@compute @workgroup_size(256)
fn gelu_backward(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = flat_index(gid, nwg, 256u);
  if (i >= params.n) { return; }
  // Past |x| = 10 the derivative is exactly 1 (x > 0) or 0 (x < 0) in f32; clamping keeps x^2
  // finite there (x * sech2 * x^2 would be 0 * inf = NaN for |x| > ~1e19).
  let x = clamp(inp_b[i], -10.0, 10.0);
  let u = GELU_SCALE * (x + 0.044715 * x * x * x);
  let th = tanh_safe(u);
  let sech2 = 1.0 - th * th;
  let grad = 0.5 * (1.0 + th) + 0.5 * x * sech2 * GELU_SCALE * (1.0 + 3.0 * 0.044715 * x * x);
  dinp[i] += grad * dout[i];
}

// ---- residual forward: out = a + b -------------------------------------------------------------

@group(0) @binding(1) var<storage, read_write> sum: array<f32>; // (n) a + b
@group(0) @binding(2) var<storage, read> a: array<f32>;         // (n) first summand
@group(0) @binding(3) var<storage, read> b: array<f32>;         // (n) second summand

@compute @workgroup_size(256)
fn residual_forward(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = flat_index(gid, nwg, 256u);
  if (i >= params.n) { return; }
  sum[i] = a[i] + b[i];
}

// ---- residual backward: da += dout; db += dout -------------------------------------------------

@group(0) @binding(1) var<storage, read_write> da: array<f32>;  // (n) gradient of a, accumulated
@group(0) @binding(2) var<storage, read_write> db: array<f32>;  // (n) gradient of b, accumulated
@group(0) @binding(3) var<storage, read> dout_r: array<f32>;    // (n) output gradient

@compute @workgroup_size(256)
fn residual_backward(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = flat_index(gid, nwg, 256u);
  if (i >= params.n) { return; }
  let d = dout_r[i];
  da[i] += d;
  db[i] += d;
}
