// Utility kernels: fill a buffer with a constant.

struct Params {
  n: u32,       // number of elements
  value: f32,   // fill value (f32 view)
  bits: u32,    // fill value (raw bits, used for u32 tensors)
  as_bits: u32, // 1: write `bits`, 0: write `value`
}
@group(0) @binding(0) var<uniform> params: Params;  // sizes and value
@group(0) @binding(1) var<storage, read_write> out: array<u32>;  // (n) output, any 32-bit type

@compute @workgroup_size(256)
fn fill_forward(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = flat_index(gid, nwg, 256u);
  if (i >= params.n) { return; }
  out[i] = select(bitcast<u32>(params.value), params.bits, params.as_bits == 1u);
}
