// Barrier-free causal self-attention for short contexts (llm.c attention_forward/backward).
// CPU twin: src/engine/cpu/attention.ts. Needs common.wgsl prepended (flat_index).
// One invocation per query row (b, h, t): scores, softmax and (forward) the weighted sum of values
// in registers and a private array of at most MAXT keys, with no workgroup memory or barriers (each
// costs a fiber switch per invocation on CPU implementations of WebGPU such as SwiftShader).
// Layouts and Params as in attention.wgsl; every sum has a fixed order: deterministic, no atomics.

struct Params {
  B: u32,      // batch
  T: u32,      // query positions
  C: u32,      // channels (NH * hs)
  NH: u32,     // heads
  hs: u32,     // head size C / NH
  pos0: u32,   // attention_cached_rows: absolute position of query t = 0
  Tmax: u32,   // attention_cached_rows: cache positions per batch row
  scale: f32,  // 1 / sqrt(hs)
}

const WG: u32 = 32u;              // invocations per workgroup
const MAXT: u32 = 64u;            // most keys one query row attends over (private score array)
const NEG_BIG: f32 = -3.4e38;     // below any finite score (start of a max)

// Entry points bind different tensors at the same binding numbers (each uses only its own).
@group(0) @binding(0) var<uniform> params: Params;                 // sizes (all entry points)

// attention_forward_rows: att and out in one pass
@group(0) @binding(1) var<storage, read_write> f_out: array<f32>;    // (B,T,C) output
@group(0) @binding(2) var<storage, read_write> f_att: array<f32>;    // (B,NH,T,T) probabilities
@group(0) @binding(3) var<storage, read> f_qkv: array<f32>;          // (B,T,3C) input

// attention_backward_rows: dpreatt rows (attention.wgsl's attention_backward_dqkv does the rest)
@group(0) @binding(1) var<storage, read_write> d_dpre: array<f32>;   // (B,NH,T,T) scratch: scale * dL/dpreatt
@group(0) @binding(2) var<storage, read> d_dout: array<f32>;         // (B,T,C) output gradient
@group(0) @binding(3) var<storage, read> d_qkv: array<f32>;          // (B,T,3C) forward input (v part read)
@group(0) @binding(4) var<storage, read> d_att: array<f32>;          // (B,NH,T,T) saved probabilities

// attention_cached_rows
@group(0) @binding(1) var<storage, read_write> c_out: array<f32>;    // (B,T,C) output
@group(0) @binding(2) var<storage, read> c_qkv: array<f32>;          // (B,T,3C) new queries (q part read)
@group(0) @binding(3) var<storage, read> c_kcache: array<f32>;       // (B,Tmax,C) key cache
@group(0) @binding(4) var<storage, read> c_vcache: array<f32>;       // (B,Tmax,C) value cache

// Query row r = (b, h, t) of att: att[b,h,t,:] = softmax(scale * q·k) over t2 <= t, 0 above;
// out[b,t,h*hs + i] = sum_{t2 <= t} att[t2] * v[b,t2,h*hs + i]. Needs T <= MAXT.
@compute @workgroup_size(WG)
fn attention_forward_rows(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let T = params.T;
  let r = flat_index(gid, nwg, WG);
  if (r >= params.B * params.NH * T) { return; }
  let t = r % T;
  let h = (r / T) % params.NH;
  let b = r / (T * params.NH);
  let C = params.C;
  let C3 = 3u * C;
  let hs = params.hs;
  let q = (b * T + t) * C3 + h * hs;
  let kb = b * T * C3 + C + h * hs;
  let a = r * T;
  var p: array<f32, MAXT>;
  var mx = NEG_BIG;
  for (var t2 = 0u; t2 <= t; t2++) {
    var dot = 0.0;
    for (var i = 0u; i < hs; i++) { dot += f_qkv[q + i] * f_qkv[kb + t2 * C3 + i]; }
    let s = dot * params.scale;
    p[t2] = s;
    mx = max(mx, s);
  }
  var sum = 0.0;
  for (var t2 = 0u; t2 <= t; t2++) {
    let e = exp(p[t2] - mx);
    p[t2] = e;
    sum += e;
  }
  let inv = 1.0 / sum;
  for (var t2 = 0u; t2 < T; t2++) {
    if (t2 <= t) {
      p[t2] = p[t2] * inv;
      f_att[a + t2] = p[t2];
    } else {
      f_att[a + t2] = 0.0;
    }
  }
  let vb = kb + C; // v[b, 0, h*hs]
  let o = (b * T + t) * C + h * hs;
  for (var i = 0u; i < hs; i++) {
    var acc = 0.0;
    for (var t2 = 0u; t2 <= t; t2++) { acc += p[t2] * f_qkv[vb + t2 * C3 + i]; }
    f_out[o + i] = acc;
  }
}

// Query row r = (b, h, t): datt[t2] = dout·v[t2] and
// dpre[b,h,t,t2] = scale * att[t2] * (datt[t2] - sum_t3 att[t3] datt[t3]) for t2 <= t, else 0.
@compute @workgroup_size(WG)
fn attention_backward_rows(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let T = params.T;
  let r = flat_index(gid, nwg, WG);
  if (r >= params.B * params.NH * T) { return; }
  let t = r % T;
  let h = (r / T) % params.NH;
  let b = r / (T * params.NH);
  let C3 = 3u * params.C;
  let hs = params.hs;
  let d = (b * T + t) * params.C + h * hs;
  let vb = b * T * C3 + 2u * params.C + h * hs;
  let a = r * T;
  var datt: array<f32, MAXT>;
  var dot = 0.0;
  for (var t2 = 0u; t2 <= t; t2++) {
    var s = 0.0;
    for (var i = 0u; i < hs; i++) { s += d_dout[d + i] * d_qkv[vb + t2 * C3 + i]; }
    datt[t2] = s;
    dot += d_att[a + t2] * s;
  }
  for (var t2 = 0u; t2 < T; t2++) {
    if (t2 <= t) {
      d_dpre[a + t2] = d_att[a + t2] * (datt[t2] - dot) * params.scale;
    } else {
      d_dpre[a + t2] = 0.0;
    }
  }
}

// Query row (b, h, t) at absolute position pos0+t over cache positions 0..pos0+t (at most MAXT):
// out[b,t,h*hs + i] = sum_t2 softmax(scale * q·k)[t2] * v[t2, i].
@compute @workgroup_size(WG)
fn attention_cached_rows(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let T = params.T;
  let C = params.C;
  let hs = params.hs;
  let r = flat_index(gid, nwg, WG);
  if (r >= params.B * params.NH * T) { return; }
  let t = r % T;
  let h = (r / T) % params.NH;
  let b = r / (T * params.NH);
  let L = params.pos0 + t + 1u; // keys attended
  let q = (b * T + t) * 3u * C + h * hs;
  let kb = b * params.Tmax * C + h * hs; // cache[b, 0, h, 0]
  var p: array<f32, MAXT>;
  var mx = NEG_BIG;
  for (var t2 = 0u; t2 < L; t2++) {
    var dot = 0.0;
    for (var i = 0u; i < hs; i++) { dot += c_qkv[q + i] * c_kcache[kb + t2 * C + i]; }
    let s = dot * params.scale;
    p[t2] = s;
    mx = max(mx, s);
  }
  var sum = 0.0;
  for (var t2 = 0u; t2 < L; t2++) {
    let e = exp(p[t2] - mx);
    p[t2] = e;
    sum += e;
  }
  let inv = 1.0 / sum;
  for (var t2 = 0u; t2 < L; t2++) { p[t2] = p[t2] * inv; }
  let o = (b * T + t) * C + h * hs;
  for (var i = 0u; i < hs; i++) {
    var acc = 0.0;
    for (var t2 = 0u; t2 < L; t2++) { acc += p[t2] * c_vcache[kb + t2 * C + i]; }
    c_out[o + i] = acc;
  }
}
