// Causal multi-head self-attention and KV cache (llm.c attention_forward/backward).
// CPU twin: src/engine/cpu/attention.ts. Needs common.wgsl prepended (flat_index).
// qkv (B,T,3C) = [q | k | v], heads of size hs = C/NH, att (B,NH,T,T) = softmax probabilities with
// zeros above the diagonal. Row kernels run one workgroup of WG threads per (b, h, t) query row;
// every sum has a fixed order and every output element has one writer: deterministic, no atomics.

struct Params {
  B: u32,      // batch
  T: u32,      // query positions
  C: u32,      // channels (NH * hs)
  NH: u32,     // heads
  hs: u32,     // head size C / NH
  pos0: u32,   // attention_cached_forward, kv_cache_write_forward: absolute position of query t = 0
  Tmax: u32,   // attention_cached_forward, kv_cache_write_forward: cache positions per batch row
  scale: f32,  // 1 / sqrt(hs)
}

const WG: u32 = 64u;              // threads per query row (power of two)
const MAXL: u32 = 1024u;          // attention_cached_forward: most keys one query row may attend over
const NEG_BIG: f32 = -3.4e38;     // below any finite score (start of a max)

// Entry points bind different tensors at the same binding numbers (each uses only its own).
@group(0) @binding(0) var<uniform> params: Params;                 // sizes (all entry points)

// attention_forward: softmax rows
@group(0) @binding(1) var<storage, read_write> f_att: array<f32>;    // (B,NH,T,T) probabilities
@group(0) @binding(2) var<storage, read> f_qkv: array<f32>;          // (B,T,3C) input

// attention_forward_out: out = att @ v
@group(0) @binding(1) var<storage, read_write> o_out: array<f32>;    // (B,T,C) output
@group(0) @binding(2) var<storage, read> o_att: array<f32>;          // (B,NH,T,T) probabilities
@group(0) @binding(3) var<storage, read> o_qkv: array<f32>;          // (B,T,3C) input (v part read)

// attention_backward: dpreatt rows
@group(0) @binding(1) var<storage, read_write> d_dpre: array<f32>;   // (B,NH,T,T) scratch: scale * dL/dpreatt
@group(0) @binding(2) var<storage, read> d_dout: array<f32>;         // (B,T,C) output gradient
@group(0) @binding(3) var<storage, read> d_qkv: array<f32>;          // (B,T,3C) forward input (v part read)
@group(0) @binding(4) var<storage, read> d_att: array<f32>;          // (B,NH,T,T) saved probabilities

// attention_backward_dqkv
@group(0) @binding(1) var<storage, read_write> g_dqkv: array<f32>;   // (B,T,3C) input gradient, accumulated
@group(0) @binding(2) var<storage, read> g_dout: array<f32>;         // (B,T,C) output gradient
@group(0) @binding(3) var<storage, read> g_qkv: array<f32>;          // (B,T,3C) forward input
@group(0) @binding(4) var<storage, read> g_att: array<f32>;          // (B,NH,T,T) saved probabilities
@group(0) @binding(5) var<storage, read> g_dpre: array<f32>;         // (B,NH,T,T) from attention_backward

// kv_cache_write_forward
@group(0) @binding(1) var<storage, read_write> w_kcache: array<f32>; // (B,Tmax,C) key cache
@group(0) @binding(2) var<storage, read_write> w_vcache: array<f32>; // (B,Tmax,C) value cache
@group(0) @binding(3) var<storage, read> w_qkv: array<f32>;          // (B,T,3C) new positions

// attention_cached_forward
@group(0) @binding(1) var<storage, read_write> c_out: array<f32>;    // (B,T,C) output
@group(0) @binding(2) var<storage, read> c_qkv: array<f32>;          // (B,T,3C) new queries (q part read)
@group(0) @binding(3) var<storage, read> c_kcache: array<f32>;       // (B,Tmax,C) key cache
@group(0) @binding(4) var<storage, read> c_vcache: array<f32>;       // (B,Tmax,C) value cache

var<workgroup> red: array<f32, WG>;      // reduction scratch
var<workgroup> prob: array<f32, MAXL>;   // attention_cached_forward: one row of probabilities

// Tree reductions of red[0..WG) into red[0] (fixed order); all threads see the result on return.
fn reduce_max(lid: u32) {
  for (var s = WG / 2u; s > 0u; s = s / 2u) {
    workgroupBarrier();
    if (lid < s) { red[lid] = max(red[lid], red[lid + s]); }
  }
  workgroupBarrier();
}
fn reduce_sum(lid: u32) {
  for (var s = WG / 2u; s > 0u; s = s / 2u) {
    workgroupBarrier();
    if (lid < s) { red[lid] += red[lid + s]; }
  }
  workgroupBarrier();
}

// One query row (b, h, t) per workgroup: att[b,h,t,:] = softmax(scale * q·k) causally, else 0.
// Each thread owns keys t2 = lid, lid+WG, ... and keeps its scores in att itself between passes.
@compute @workgroup_size(WG)
fn attention_forward(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                     @builtin(local_invocation_index) lid: u32) {
  let T = params.T;
  let r = wid.x + wid.y * nwg.x; // row of att (uniform within the workgroup)
  if (r >= params.B * params.NH * T) { return; }
  let t = r % T;
  let h = (r / T) % params.NH;
  let b = r / (T * params.NH);
  let C3 = 3u * params.C;
  let q = (b * T + t) * C3 + h * params.hs;
  let kb = b * T * C3 + params.C + h * params.hs;
  let a = r * T;
  var lmax = NEG_BIG;
  for (var t2 = lid; t2 <= t; t2 += WG) {
    var dot = 0.0;
    for (var i = 0u; i < params.hs; i++) { dot += f_qkv[q + i] * f_qkv[kb + t2 * C3 + i]; }
    let s = dot * params.scale;
    f_att[a + t2] = s;
    lmax = max(lmax, s);
  }
  red[lid] = lmax;
  reduce_max(lid);
  let m = red[0];
  workgroupBarrier();
  var lsum = 0.0;
  for (var t2 = lid; t2 <= t; t2 += WG) {
    let e = exp(f_att[a + t2] - m);
    f_att[a + t2] = e;
    lsum += e;
  }
  red[lid] = lsum;
  reduce_sum(lid);
  let inv = 1.0 / red[0];
  for (var t2 = lid; t2 < T; t2 += WG) {
    if (t2 <= t) { f_att[a + t2] = f_att[a + t2] * inv; } else { f_att[a + t2] = 0.0; }
  }
}

// out[b,t,c] = sum_{t2 <= t} att[b,h,t,t2] * v[b,t2,c], one thread per output element.
@compute @workgroup_size(256)
fn attention_forward_out(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let idx = flat_index(gid, nwg, 256u);
  let C = params.C;
  let T = params.T;
  if (idx >= params.B * T * C) { return; }
  let c = idx % C;
  let t = (idx / C) % T;
  let b = idx / (C * T);
  let C3 = 3u * C;
  let a = ((b * params.NH + c / params.hs) * T + t) * T;
  let vb = b * T * C3 + 2u * C + c;
  var acc = 0.0;
  for (var t2 = 0u; t2 <= t; t2++) { acc += o_att[a + t2] * o_qkv[vb + t2 * C3]; }
  o_out[idx] = acc;
}

// One query row (b, h, t) per workgroup: datt[t2] = dout·v[t2] and
// dpre[b,h,t,t2] = scale * att[t2] * (datt[t2] - sum_t3 att[t3] datt[t3]) for t2 <= t, else 0.
@compute @workgroup_size(WG)
fn attention_backward(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                      @builtin(local_invocation_index) lid: u32) {
  let T = params.T;
  let r = wid.x + wid.y * nwg.x;
  if (r >= params.B * params.NH * T) { return; }
  let t = r % T;
  let h = (r / T) % params.NH;
  let b = r / (T * params.NH);
  let C3 = 3u * params.C;
  let d = (b * T + t) * params.C + h * params.hs;
  let vb = b * T * C3 + 2u * params.C + h * params.hs;
  let a = r * T;
  var ldot = 0.0;
  for (var t2 = lid; t2 <= t; t2 += WG) {
    var s = 0.0;
    for (var i = 0u; i < params.hs; i++) { s += d_dout[d + i] * d_qkv[vb + t2 * C3 + i]; }
    d_dpre[a + t2] = s;
    ldot += d_att[a + t2] * s;
  }
  red[lid] = ldot;
  reduce_sum(lid);
  let dot = red[0];
  for (var t2 = lid; t2 < T; t2 += WG) {
    if (t2 <= t) {
      d_dpre[a + t2] = d_att[a + t2] * (d_dpre[a + t2] - dot) * params.scale;
    } else {
      d_dpre[a + t2] = 0.0;
    }
  }
}

// One thread per (b, p, c), h = c / hs, writing dq, dk and dv of position p (one writer each):
// dq[p] += sum_{t2 <= p} dpre[t=p, t2] k[t2]; dk[p] += sum_{t >= p} dpre[t, p] q[t];
// dv[p] += sum_{t >= p} att[t, p] dout[t].
@compute @workgroup_size(256)
fn attention_backward_dqkv(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let idx = flat_index(gid, nwg, 256u);
  let C = params.C;
  let T = params.T;
  if (idx >= params.B * T * C) { return; }
  let c = idx % C;
  let p = (idx / C) % T;
  let b = idx / (C * T);
  let C3 = 3u * C;
  let bh = (b * params.NH + c / params.hs) * T; // first att row of head (b, h)
  var dq = 0.0;
  for (var t2 = 0u; t2 <= p; t2++) { dq += g_dpre[(bh + p) * T + t2] * g_qkv[(b * T + t2) * C3 + C + c]; }
  var dk = 0.0;
  var dv = 0.0;
  for (var t = p; t < T; t++) {
    let a = (bh + t) * T + p;
    dk += g_dpre[a] * g_qkv[(b * T + t) * C3 + c];
    dv += g_att[a] * g_dout[(b * T + t) * C + c];
  }
  let o = (b * T + p) * C3 + c;
  g_dqkv[o] += dq;
  g_dqkv[o + C] += dk;
  g_dqkv[o + 2u * C] += dv;
}

// kcache[b, pos0+t, c] = k[b,t,c]; vcache likewise. One thread per (b, t, c).
@compute @workgroup_size(256)
fn kv_cache_write_forward(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let idx = flat_index(gid, nwg, 256u);
  let C = params.C;
  let T = params.T;
  if (idx >= params.B * T * C) { return; }
  let c = idx % C;
  let t = (idx / C) % T;
  let b = idx / (C * T);
  let src = (b * T + t) * 3u * C + C + c;
  let dst = (b * params.Tmax + params.pos0 + t) * C + c;
  w_kcache[dst] = w_qkv[src];
  w_vcache[dst] = w_qkv[src + C];
}

// One query row (b, h, t) per workgroup, at absolute position pos0+t over cache positions
// 0..pos0+t: probabilities in workgroup memory, then out = prob @ v with the WG threads split
// into W lanes (channels) x nsl slices (keys), slices added in order.
@compute @workgroup_size(WG)
fn attention_cached_forward(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                    @builtin(local_invocation_index) lid: u32) {
  let T = params.T;
  let C = params.C;
  let hs = params.hs;
  let r = wid.x + wid.y * nwg.x;
  if (r >= params.B * params.NH * T) { return; }
  let t = r % T;
  let h = (r / T) % params.NH;
  let b = r / (T * params.NH);
  let L = params.pos0 + t + 1u; // keys attended
  let q = (b * T + t) * 3u * C + h * hs;
  let kb = b * params.Tmax * C + h * hs; // cache[b, 0, h, 0]
  var lmax = NEG_BIG;
  for (var t2 = lid; t2 < L; t2 += WG) {
    var dot = 0.0;
    for (var i = 0u; i < hs; i++) { dot += c_qkv[q + i] * c_kcache[kb + t2 * C + i]; }
    let s = dot * params.scale;
    prob[t2] = s;
    lmax = max(lmax, s);
  }
  red[lid] = lmax;
  reduce_max(lid);
  let m = red[0];
  workgroupBarrier();
  var lsum = 0.0;
  for (var t2 = lid; t2 < L; t2 += WG) {
    let e = exp(prob[t2] - m);
    prob[t2] = e;
    lsum += e;
  }
  red[lid] = lsum;
  reduce_sum(lid);
  let inv = 1.0 / red[0];
  for (var t2 = lid; t2 < L; t2 += WG) { prob[t2] = prob[t2] * inv; }
  workgroupBarrier(); // prob complete; everyone has read red[0]
  let W = min(hs, WG);
  let nsl = WG / W;
  let lane = lid % W;
  let sl = lid / W;
  for (var i0 = 0u; i0 < hs; i0 += W) {
    let i = i0 + lane;
    var acc = 0.0;
    if (sl < nsl && i < hs) {
      for (var t2 = sl; t2 < L; t2 += nsl) { acc += prob[t2] * c_vcache[kb + t2 * C + i]; }
    }
    red[lid] = acc;
    workgroupBarrier();
    if (lid < W && i < hs) {
      var s = 0.0;
      for (var k = 0u; k < nsl; k++) { s += red[k * W + lid]; }
      c_out[(b * T + t) * C + h * hs + i] = s;
    }
    workgroupBarrier();
  }
}
