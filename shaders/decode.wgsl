// Fused decode-step kernels (issue 13): one decoded position per row, one invocation per row, every
// sum in registers, no workgroup memory or barriers. Each entry point is a whole sub-block of a GPT-2
// block in llm.c's order: decode_qkv (embedding for block 0, layer norm, QKV, rope, KV-cache write),
// decode_attn (cached attention, projection, residual), decode_mlp (layer norm, fc, GELU, projection,
// residual), decode_head (final layer norm, tied LM head, sampling). CPU twins: src/engine/cpu/decode.ts.
// Weights are read from one binding (the model's flat parameters) at element offsets o_*.
// Needs common.wgsl (flat_index), trig.wgsl (cos_sin) and sample_row.wgsl (the head's row scans).

struct Params {
  R: u32,           // rows (B*K), one decoded position each
  C: u32,           // model width (<= MAXC)
  NH: u32,          // heads
  hs: u32,          // head size C/NH
  H: u32,           // decode_mlp: hidden width
  v: u32,           // decode_head: vocabulary size (row length of logits)
  pos: u32,         // absolute position decoded
  Tmax: u32,        // cache positions per row
  tok_stride: u32,  // decode_qkv: token row length; decode_head: out index = row * tok_stride + out_offset
  flags: u32,       // decode_qkv: bit 0 embed from tokens, bit 1 add wpe, bit 2 rope
  theta: f32,       // rope: 10000^(-2/hs) rounded to f32
  scale: f32,       // decode_attn: 1/sqrt(hs)
  greedy: u32,      // decode_head: 1 argmax, 0 sample
  inv_temp: f32,    // decode_head: f32(1/temperature), 1 when greedy
  seed: u32,        // decode_head: random stream seed ...
  counter: u32,     // ... and counter (row is the third coordinate)
  out_offset: u32,  // decode_head: token column written
  logp_offset: u32, // decode_head: logp index = logp_offset + row
  has_logp: u32,    // decode_head: 1 to write the log-prob
  o_lnw: u32,       // weight offsets (elements) into the weights binding: layer norm gain ...
  o_lnb: u32,       // ... and shift
  o_w: u32,         // first matrix (qkv, attproj, fc or wte), rows of its input width
  o_b: u32,         // its bias
  o_w2: u32,        // decode_mlp: projection (C, H)
  o_b2: u32,        // decode_mlp: projection bias (C)
  o_wte: u32,       // decode_qkv: token embedding (V, C)
  o_wpe: u32,       // decode_qkv: position embedding (maxT, C)
}

const WG: u32 = 32u;          // invocations per workgroup
const MAXC: u32 = 256u;       // widest row the private arrays hold (DECODE_MAX_C)
const SCORES: u32 = 64u;      // decode_attn: scores kept per head (more keys are scored twice)
const EPS: f32 = 1e-5;
const NEG_BIG: f32 = -3.4e38;
const GELU_SCALE: f32 = 0.7978845608028654; // sqrt(2/pi)

// Entry points bind different tensors at the same binding numbers (each uses only its own).
@group(0) @binding(0) var<uniform> params: Params;                // sizes, settings, weight offsets
@group(0) @binding(1) var<storage, read> wt: array<f32>;          // the model's weights, read at the o_* offsets

// decode_qkv
@group(0) @binding(2) var<storage, read_write> q_q: array<f32>;   // (R, C) rotated queries
@group(0) @binding(3) var<storage, read_write> q_kc: array<f32>;  // (R, Tmax, C) key cache, row pos written
@group(0) @binding(4) var<storage, read_write> q_vc: array<f32>;  // (R, Tmax, C) value cache, row pos written
@group(0) @binding(5) var<storage, read_write> q_x: array<f32>;   // (R, C) residual stream: written when embedding, else read
@group(0) @binding(6) var<storage, read> q_tok: array<u32>;       // (R, tok_stride) token rows (read when embedding)

// decode_attn
@group(0) @binding(2) var<storage, read_write> a_out: array<f32>; // (R, C) x + attention projection
@group(0) @binding(3) var<storage, read> a_q: array<f32>;         // (R, C) queries
@group(0) @binding(4) var<storage, read> a_kc: array<f32>;        // (R, Tmax, C) key cache
@group(0) @binding(5) var<storage, read> a_vc: array<f32>;        // (R, Tmax, C) value cache
@group(0) @binding(6) var<storage, read> a_x: array<f32>;         // (R, C) residual input

// decode_mlp
@group(0) @binding(2) var<storage, read_write> m_out: array<f32>; // (R, C) x + MLP(ln(x))
@group(0) @binding(3) var<storage, read> m_x: array<f32>;         // (R, C) residual input

// decode_head
@group(0) @binding(2) var<storage, read_write> h_tok: array<u32>; // token rows: row * tok_stride + out_offset written
@group(0) @binding(3) var<storage, read_write> h_logp: array<f32>; // log-probs at logp_offset + row (when has_logp)
@group(0) @binding(4) var<storage, read_write> logits: array<f32>; // (R, V) logits, written then scanned
@group(0) @binding(5) var<storage, read> h_x: array<f32>;          // (R, C) residual stream

// ln = layernorm(row) * wt[o_lnw..] + wt[o_lnb..] in place over the first C entries (ln holds the row).
fn layernorm_row(ln: ptr<function, array<f32, MAXC>>, C: u32) {
  var s = 0.0;
  for (var c = 0u; c < C; c++) { s += (*ln)[c]; }
  let m = s / f32(C);
  var v = 0.0;
  for (var c = 0u; c < C; c++) { let d = (*ln)[c] - m; v += d * d; }
  let rstd = 1.0 / sqrt(v / f32(C) + EPS);
  for (var c = 0u; c < C; c++) { (*ln)[c] = ((*ln)[c] - m) * rstd * wt[params.o_lnw + c] + wt[params.o_lnb + c]; }
}

// (b[j..j+3] +) sum_c row[c] * wt[base + (j+k)*C + c] for k < 4: four outputs per pass over the row, so each
// row value is loaded once per four weights. Outputs past n (n not a multiple of 4) repeat row n-1 and
// are not stored by the callers.
fn dot4(row: ptr<function, array<f32, MAXC>>, base: u32, j: u32, n: u32, C: u32, init: vec4<f32>) -> vec4<f32> {
  let r0 = base + j * C;
  let r1 = base + min(j + 1u, n - 1u) * C;
  let r2 = base + min(j + 2u, n - 1u) * C;
  let r3 = base + min(j + 3u, n - 1u) * C;
  var s = init;
  for (var c = 0u; c < C; c++) {
    s += (*row)[c] * vec4<f32>(wt[r0 + c], wt[r1 + c], wt[r2 + c], wt[r3 + c]);
  }
  return s;
}

// wt[base + j .. base + j + 3], repeating element n-1 past n.
fn wt4(base: u32, j: u32, n: u32) -> vec4<f32> {
  return vec4<f32>(wt[base + j], wt[base + min(j + 1u, n - 1u)], wt[base + min(j + 2u, n - 1u)], wt[base + min(j + 3u, n - 1u)]);
}

fn gelu(x: f32) -> f32 {
  let u = GELU_SCALE * (x + 0.044715 * x * x * x);
  return 0.5 * x * (1.0 + tanh(clamp(u, -10.0, 10.0)));
}

// q/k/v column j of row r, rotated pairs written by decode_qkv.
fn qkv_store(r: u32, j: u32, y: f32) {
  let C = params.C;
  if (j < C) { q_q[r * C + j] = y; return; }
  let cache = (r * params.Tmax + params.pos) * C;
  if (j < 2u * C) { q_kc[cache + j - C] = y; return; }
  q_vc[cache + j - 2u * C] = y;
}

@compute @workgroup_size(WG)
fn decode_qkv(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let r = flat_index(gid, nwg, WG);
  if (r >= params.R) { return; }
  let C = params.C;
  let xo = r * C;
  if ((params.flags & 1u) != 0u) {
    let e = params.o_wte + q_tok[r * params.tok_stride + params.pos] * C;
    let add = (params.flags & 2u) != 0u;
    for (var c = 0u; c < C; c++) {
      var val = wt[e + c];
      if (add) { val += wt[params.o_wpe + params.pos * C + c]; }
      q_x[xo + c] = val;
    }
  }
  var ln: array<f32, MAXC>;
  for (var c = 0u; c < C; c++) { ln[c] = q_x[xo + c]; }
  layernorm_row(&ln, C);
  let rope = (params.flags & 4u) != 0u;
  let n = 3u * C;
  for (var j = 0u; j < n; j += 4u) {
    var y = dot4(&ln, params.o_w, j, n, C, wt4(params.o_b, j, n));
    // rotary positions on the pairs (j, j+1) and (j+2, j+3) that lie in q or k (pairs start at even columns)
    for (var k = 0u; k < 4u; k += 2u) {
      let jj = j + k;
      if (!rope || jj >= 2u * C) { continue; }
      var freq = 1.0;
      for (var i = 0u; i < (jj % params.hs) / 2u; i++) { freq = freq * params.theta; }
      let cs = cos_sin(f32(params.pos) * freq);
      let y0 = y[k];
      let y1 = y[k + 1u];
      y[k] = y0 * cs.x - y1 * cs.y;
      y[k + 1u] = y0 * cs.y + y1 * cs.x;
    }
    for (var k = 0u; k < 4u; k++) {
      if (j + k < n) { qkv_store(r, j + k, y[k]); }
    }
  }
}

// scale * q·k over one head's hs channels at cache position t.
fn score(qo: u32, kb: u32, t: u32) -> f32 {
  var dot = 0.0;
  for (var i = 0u; i < params.hs; i++) { dot += a_q[qo + i] * a_kc[kb + t * params.C + i]; }
  return dot * params.scale;
}

@compute @workgroup_size(WG)
fn decode_attn(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let r = flat_index(gid, nwg, WG);
  if (r >= params.R) { return; }
  let C = params.C;
  let hs = params.hs;
  var y: array<f32, MAXC>;
  var sc: array<f32, SCORES>;
  for (var h = 0u; h < params.NH; h++) {
    let qo = r * C + h * hs;
    let kb = r * params.Tmax * C + h * hs;
    var mx = NEG_BIG;
    for (var t = 0u; t <= params.pos; t++) {
      let s = score(qo, kb, t);
      if (t < SCORES) { sc[t] = s; } // kept for the second pass (recomputed past SCORES keys)
      mx = max(mx, s);
    }
    var sum = 0.0;
    for (var i = 0u; i < hs; i++) { y[h * hs + i] = 0.0; }
    for (var t = 0u; t <= params.pos; t++) {
      var s: f32;
      if (t < SCORES) { s = sc[t]; } else { s = score(qo, kb, t); }
      let e = exp(s - mx);
      sum += e;
      for (var i = 0u; i < hs; i++) { y[h * hs + i] += e * a_vc[kb + t * C + i]; }
    }
    for (var i = 0u; i < hs; i++) { y[h * hs + i] = y[h * hs + i] / sum; }
  }
  for (var o = 0u; o < C; o += 4u) {
    let p = dot4(&y, params.o_w, o, C, C, wt4(params.o_b, o, C));
    for (var k = 0u; k < 4u; k++) {
      if (o + k < C) { a_out[r * C + o + k] = a_x[r * C + o + k] + p[k]; }
    }
  }
}

@compute @workgroup_size(WG)
fn decode_mlp(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let r = flat_index(gid, nwg, WG);
  if (r >= params.R) { return; }
  let C = params.C;
  let H = params.H;
  let xo = r * C;
  var ln: array<f32, MAXC>;
  for (var c = 0u; c < C; c++) { ln[c] = m_x[xo + c]; }
  layernorm_row(&ln, C);
  var acc: array<f32, MAXC>;
  for (var c = 0u; c < C; c++) { acc[c] = wt[params.o_b2 + c]; }
  for (var j = 0u; j < H; j += 4u) {
    let h = dot4(&ln, params.o_w, j, H, C, wt4(params.o_b, j, H));
    // hidden units past H (H not a multiple of 4) add nothing
    let live = vec4<f32>(1.0, select(0.0, 1.0, j + 1u < H), select(0.0, 1.0, j + 2u < H), select(0.0, 1.0, j + 3u < H));
    let g = vec4<f32>(gelu(h.x), gelu(h.y), gelu(h.z), gelu(h.w)) * live;
    for (var c = 0u; c < C; c++) { acc[c] += dot(g, wt4(params.o_w2 + c * H, j, H)); }
  }
  for (var c = 0u; c < C; c++) { m_out[xo + c] = m_x[xo + c] + acc[c]; }
}

@compute @workgroup_size(WG)
fn decode_head(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let r = flat_index(gid, nwg, WG);
  if (r >= params.R) { return; }
  let C = params.C;
  let V = params.v;
  let xo = r * C;
  var ln: array<f32, MAXC>;
  for (var c = 0u; c < C; c++) { ln[c] = h_x[xo + c]; }
  layernorm_row(&ln, C);
  let row = r * V;
  for (var k = 0u; k < V; k += 4u) {
    let z = dot4(&ln, params.o_w, k, V, C, vec4<f32>(0.0));
    for (var i = 0u; i < 4u; i++) {
      if (k + i < V) { logits[row + k + i] = z[i]; }
    }
  }
  var tok: u32;
  if (params.greedy == 1u) { tok = argmax_row(row); } else { tok = sample_row(row, r); }
  h_tok[r * params.tok_stride + params.out_offset] = tok;
  if (params.has_logp == 1u) { h_logp[params.logp_offset + r] = token_logp(row, tok); }
}
