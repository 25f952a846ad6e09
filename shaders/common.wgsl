// Shared WGSL helpers, prepended to kernels that need them. Twin of src/engine/random.ts.

// PCG-RXS-M-XS hash of a u32 (Jarzynski & Olano 2020). Twin: pcgHash.
fn pcg_hash(x: u32) -> u32 {
  let state = x * 747796405u + 2891336453u;
  let word = ((state >> ((state >> 28u) + 4u)) ^ state) * 277803737u;
  return (word >> 22u) ^ word;
}

// Uniform in [0,1) with 24 random bits, a pure function of (seed, counter, row). Twin: uniform01.
fn uniform01(seed: u32, counter: u32, row: u32) -> f32 {
  let h = pcg_hash(seed ^ pcg_hash(counter ^ pcg_hash(row)));
  return f32(h >> 8u) * (1.0 / 16777216.0);
}

// Flat invocation index for 1-D work launched on a 2-D grid (grids wider than 65535 groups).
fn flat_index(gid: vec3<u32>, nwg: vec3<u32>, wg_size: u32) -> u32 {
  return gid.x + gid.y * nwg.x * wg_size;
}
