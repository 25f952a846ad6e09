// Token choice per row of logits: greedy argmax (ties to the lowest id) or temperature sampling by
// inverse CDF with u = uniform01(seed, counter, row). One invocation per row scans the row in index
// order in f32, the same operations as the CPU twin (src/engine/cpu/sample.ts), so both backends
// pick the same token unless u falls within rounding of a CDF step. Needs common.wgsl and
// sample_row.wgsl (the row scans, shared with decode.wgsl's fused head).

const WG: u32 = 64u;

struct Params {
  rows: u32,        // number of rows
  v: u32,           // vocabulary size V (row length)
  greedy: u32,      // 1: argmax (temperature <= 0), 0: sample
  inv_temp: f32,    // f32(1 / temperature) (unused when greedy)
  seed: u32,        // random stream: seed ...
  counter: u32,     // ... and counter (row is the third coordinate)
  out_stride: u32,  // out index = row * out_stride + out_offset
  out_offset: u32,
  logp_offset: u32, // sample_logp: logp index = logp_offset + row
}
@group(0) @binding(0) var<uniform> params: Params;         // sizes and sampling settings
@group(0) @binding(1) var<storage, read_write> out: array<u32>;  // chosen ids, at row * out_stride + out_offset
@group(0) @binding(2) var<storage, read> logits: array<f32>;     // (rows, V) logits
@group(0) @binding(3) var<storage, read_write> logp: array<f32>; // sample_logp only: chosen ids' log-probs

@compute @workgroup_size(WG)
fn sample_forward(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let r = flat_index(gid, nwg, WG);
  if (r >= params.rows) { return; }
  let row = r * params.v;
  var tok: u32;
  if (params.greedy == 1u) { tok = argmax_row(row); } else { tok = sample_row(row, r); }
  out[r * params.out_stride + params.out_offset] = tok;
}

// sample_forward plus the chosen token's log-prob: logp[logp_offset + r] (one pass: decoding needs no
// separate logprob dispatch and no second sampling into a contiguous target buffer).
@compute @workgroup_size(WG)
fn sample_logp(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let r = flat_index(gid, nwg, WG);
  if (r >= params.rows) { return; }
  let row = r * params.v;
  var tok: u32;
  if (params.greedy == 1u) { tok = argmax_row(row); } else { tok = sample_row(row, r); }
  out[r * params.out_stride + params.out_offset] = tok;
  logp[params.logp_offset + r] = token_logp(row, tok);
}
