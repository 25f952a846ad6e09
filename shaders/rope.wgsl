// Rotary position embedding kernels, twins of src/engine/cpu/rope.ts (Su et al. 2021): on qkv
// (B, T, 3C) = [q | k | v], pair (2i, 2i+1) of each head of q and k turns by angle
// pos * theta^i (theta = 10000^(-2/hs), computed on the host as f32); v is copied. theta^i and
// pos * theta^i are rounded in f32 exactly as the CPU twin rounds them; cos/sin are evaluated
// to ~1 ulp by cos_sin below.
// Needs common.wgsl (flat_index) and trig.wgsl (cos_sin).

struct Params {
  B: u32,     // batch size
  T: u32,     // positions in this call
  C: u32,     // channels of each of q, k, v
  hs: u32,    // head size C/NH (even)
  pos0: u32,  // absolute position of t = 0
  theta: f32, // 10000^(-2/hs), rounded to f32
}

@group(0) @binding(0) var<uniform> params: Params; // sizes and theta

// cos and sin of the angle of pair i at position t: (cos, sin).
fn rope_cs(t: u32, i: u32) -> vec2<f32> {
  var freq = 1.0;
  for (var j = 0u; j < i; j++) { freq = freq * params.theta; }
  return cos_sin(f32(params.pos0 + t) * freq);
}

// Decompose pair index p of the flat (B, T, 3C/2) pairs: element e = 2p, its position t, whether it
// lies in q or k (rotated) or v (copied), and its pair index i within the head.
struct Pair {
  e: u32,
  t: u32,
  rotate: bool,
  i: u32,
}
fn pair_of(p: u32) -> Pair {
  let e = 2u * p;
  let col = e % (3u * params.C);
  let t = (e / (3u * params.C)) % params.T;
  return Pair(e, t, col < 2u * params.C, (col % params.hs) / 2u);
}

// ---- forward: out = rope(inp) ------------------------------------------------------------------

@group(0) @binding(1) var<storage, read_write> out: array<f32>; // (B, T, 3C) rotated qkv
@group(0) @binding(2) var<storage, read> inp: array<f32>;       // (B, T, 3C) qkv

// One thread per channel pair; 1-D grid of 256-wide groups (split in 2-D past 65535 groups).
@compute @workgroup_size(256)
fn rope_forward(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let p = flat_index(gid, nwg, 256u);
  if (p >= params.B * params.T * 3u * params.C / 2u) { return; }
  let q = pair_of(p);
  let x0 = inp[q.e];
  let x1 = inp[q.e + 1u];
  if (!q.rotate) {
    out[q.e] = x0;
    out[q.e + 1u] = x1;
    return;
  }
  let cs = rope_cs(q.t, q.i);
  out[q.e] = x0 * cs.x - x1 * cs.y;
  out[q.e + 1u] = x0 * cs.y + x1 * cs.x;
}

// ---- backward: dinp += rope^T(dout), the inverse rotation --------------------------------------

@group(0) @binding(1) var<storage, read_write> dinp: array<f32>; // (B, T, 3C) qkv gradient, accumulated
@group(0) @binding(2) var<storage, read> dout: array<f32>;       // (B, T, 3C) gradient of the rotated qkv

@compute @workgroup_size(256)
fn rope_backward(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let p = flat_index(gid, nwg, 256u);
  if (p >= params.B * params.T * 3u * params.C / 2u) { return; }
  let q = pair_of(p);
  let d0 = dout[q.e];
  let d1 = dout[q.e + 1u];
  if (!q.rotate) {
    dinp[q.e] += d0;
    dinp[q.e + 1u] += d1;
    return;
  }
  let cs = rope_cs(q.t, q.i);
  dinp[q.e] += d0 * cs.x + d1 * cs.y;
  dinp[q.e + 1u] += -d0 * cs.y + d1 * cs.x;
}
