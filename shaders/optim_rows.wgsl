// Barrier-free sum of squares (global gradient norm) for the optimizer, in two passes without
// workgroup memory or barriers (each costs a fiber switch per invocation on CPU implementations of
// WebGPU such as SwiftShader). Twin: src/engine/cpu/optim.ts. Needs common.wgsl prepended.
// Every sum has a fixed order (deterministic): 16 lanes (four vec4 accumulators) take consecutive
// elements in turn, then the lanes are added by a depth-4 pairwise tree.

const WG: u32 = 32u;      // invocations per workgroup
const CHUNK: u32 = 256u;  // elements per chunk of sumsquares_partial_rows

struct SumParams {
  n: u32,       // elements N
  groups: u32,  // number of partial sums G (= invocations of the first pass)
}
@group(0) @binding(0) var<uniform> sp: SumParams;                        // sizes

// sumsquares_partial_rows
@group(0) @binding(1) var<storage, read_write> pr_partials: array<f32>;  // (G) partial sums
@group(0) @binding(2) var<storage, read> pr_inp: array<f32>;             // (N) input

// sumsquares_final_rows
@group(0) @binding(1) var<storage, read_write> fr_out: array<f32>;       // (1) sum of squares
@group(0) @binding(2) var<storage, read> fr_partials: array<f32>;        // (G) partial sums

fn lanes_sum(a0: vec4<f32>, a1: vec4<f32>, a2: vec4<f32>, a3: vec4<f32>) -> f32 {
  let s = (a0 + a1) + (a2 + a3);
  return (s.x + s.y) + (s.z + s.w);
}

fn sq(i: u32, end: u32) -> f32 {
  let x = pr_inp[min(i, end - 1u)];
  return select(0.0, x * x, i < end);
}

fn sq4(i: u32, end: u32) -> vec4<f32> {
  return vec4<f32>(sq(i, end), sq(i + 1u, end), sq(i + 2u, end), sq(i + 3u, end));
}

// partials[g] = sum of inp[i]^2 over the chunks g, g + G, g + 2G, ... of CHUNK elements.
@compute @workgroup_size(WG)
fn sumsquares_partial_rows(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let g = flat_index(gid, nwg, WG);
  if (g >= sp.groups) { return; }
  var a0 = vec4<f32>(0.0);
  var a1 = vec4<f32>(0.0);
  var a2 = vec4<f32>(0.0);
  var a3 = vec4<f32>(0.0);
  for (var base = g * CHUNK; base < sp.n; base += sp.groups * CHUNK) {
    let end = min(base + CHUNK, sp.n);
    for (var i = base; i < end; i += 16u) {
      a0 += sq4(i, end);
      a1 += sq4(i + 4u, end);
      a2 += sq4(i + 8u, end);
      a3 += sq4(i + 12u, end);
    }
  }
  pr_partials[g] = lanes_sum(a0, a1, a2, a3);
}

fn part(i: u32) -> f32 {
  return select(0.0, fr_partials[min(i, sp.groups - 1u)], i < sp.groups);
}

fn part4(i: u32) -> vec4<f32> {
  return vec4<f32>(part(i), part(i + 1u), part(i + 2u), part(i + 3u));
}

// out[0] = sum of the G partial sums (one invocation).
@compute @workgroup_size(1)
fn sumsquares_final_rows() {
  var a0 = vec4<f32>(0.0);
  var a1 = vec4<f32>(0.0);
  var a2 = vec4<f32>(0.0);
  var a3 = vec4<f32>(0.0);
  for (var i = 0u; i < sp.groups; i += 16u) {
    a0 += part4(i);
    a1 += part4(i + 4u);
    a2 += part4(i + 8u);
    a3 += part4(i + 12u);
  }
  fr_out[0] = lanes_sum(a0, a1, a2, a3);
}
