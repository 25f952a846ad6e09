// Token + position embedding kernels, twins of src/engine/cpu/encoder.ts (llm.c encoder_forward/
// backward). Tokens are read at tokens[b*tokStride + pos0 + t]. The backward needs no atomics:
// each thread owns one gradient element and walks every (b, t) in order, so sums are deterministic
// and add up in the same order as the CPU twin.
// Needs common.wgsl (flat_index).

struct Params {
  B: u32,          // batch size
  T: u32,          // positions per row in this call
  C: u32,          // channels
  tok_stride: u32, // row stride of tokens
  pos0: u32,       // first absolute position
  V: u32,          // vocabulary rows of dwte (backward only; 0 in forward)
}

@group(0) @binding(0) var<uniform> params: Params; // sizes

// ---- forward: out[b,t,c] = wte[tok, c] (+ wpe[pos0+t, c]) -------------------------------------

@group(0) @binding(1) var<storage, read_write> out: array<f32>; // (B, T, C) embeddings
@group(0) @binding(2) var<storage, read> wte: array<f32>;       // (V, C) token embedding table
@group(0) @binding(3) var<storage, read> tokens: array<u32>;    // (B, tok_stride) token ids
@group(0) @binding(4) var<storage, read> wpe: array<f32>;       // (maxT, C) position table (encoder_forward only)

// Token row of flat output element i = (b*T + t)*C + c, with its t and c.
fn token_part(i: u32) -> f32 {
  let c = i % params.C;
  let bt = i / params.C;
  let b = bt / params.T;
  let t = bt % params.T;
  let tok = tokens[b * params.tok_stride + params.pos0 + t];
  return wte[tok * params.C + c];
}

// One thread per output element; 1-D grid of 256-wide groups (split in 2-D past 65535 groups).
@compute @workgroup_size(256)
fn encoder_forward(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = flat_index(gid, nwg, 256u);
  if (i >= params.B * params.T * params.C) { return; }
  let c = i % params.C;
  let t = (i / params.C) % params.T;
  out[i] = token_part(i) + wpe[(params.pos0 + t) * params.C + c];
}

// As encoder_forward without position embeddings (wpe is not declared by this entry point).
@compute @workgroup_size(256)
fn encoder_forward_nowpe(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = flat_index(gid, nwg, 256u);
  if (i >= params.B * params.T * params.C) { return; }
  out[i] = token_part(i);
}

// ---- backward dwte: dwte[v, c] += sum over (b, t) with tok == v of dout[b, t, c] ---------------
// One thread per (v, c); the workgroup stages 256 token ids at a time in workgroup memory.

@group(0) @binding(1) var<storage, read_write> dwte: array<f32>; // (V, C) token table gradient, accumulated
@group(0) @binding(2) var<storage, read> dout: array<f32>;       // (B, T, C) output gradient
@group(0) @binding(3) var<storage, read> tokens_b: array<u32>;   // (B, tok_stride) token ids

var<workgroup> tok_tile: array<u32, 256>; // token ids of 256 consecutive (b, t)

@compute @workgroup_size(256)
fn encoder_backward_dwte(
  @builtin(local_invocation_index) lid: u32,
  @builtin(global_invocation_id) gid: vec3<u32>,
  @builtin(num_workgroups) nwg: vec3<u32>,
) {
  let i = flat_index(gid, nwg, 256u); // v*C + c
  let live = i < params.V * params.C;
  let v = i / params.C;
  let c = i % params.C;
  let BT = params.B * params.T;
  var acc = 0.0;
  if (live) { acc = dwte[i]; }
  for (var s = 0u; s < BT; s += 256u) {
    let j = s + lid;
    var tok = 0xffffffffu;
    if (j < BT) { tok = tokens_b[(j / params.T) * params.tok_stride + params.pos0 + j % params.T]; }
    tok_tile[lid] = tok;
    workgroupBarrier();
    let n = min(256u, BT - s);
    for (var k = 0u; k < n; k++) {
      if (live && tok_tile[k] == v) { acc += dout[(s + k) * params.C + c]; }
    }
    workgroupBarrier();
  }
  if (live) { dwte[i] = acc; }
}

// ---- backward dwpe: dwpe[pos0+t, c] += sum_b dout[b, t, c] -------------------------------------

@group(0) @binding(1) var<storage, read_write> dwpe: array<f32>; // (maxT, C) position table gradient, accumulated
@group(0) @binding(2) var<storage, read> dout_p: array<f32>;     // (B, T, C) output gradient

// One thread per (t, c), summing over b in order.
@compute @workgroup_size(256)
fn encoder_backward_dwpe(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = flat_index(gid, nwg, 256u); // t*C + c
  if (i >= params.T * params.C) { return; }
  let TC = params.T * params.C;
  let p = params.pos0 * params.C + i;
  var acc = dwpe[p];
  for (var b = 0u; b < params.B; b++) { acc += dout_p[b * TC + i]; }
  dwpe[p] = acc;
}
