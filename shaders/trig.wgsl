// Accurate f32 cos and sin for rotary positions (Cephes sinf/cosf reduction and polynomials), prepended
// to the kernels that rotate: rope.wgsl and decode.wgsl. The CPU twins use Math.cos/Math.sin in double.

// pi/2 split in three (Cephes sinf/cosf): k * PIO2_HI is exact for k < 2^16, so the reduction
// a - k*pi/2 keeps ~f32 precision for every angle a RoPE produces.
const TWO_OVER_PI: f32 = 0.6366197723675814;
const PIO2_HI: f32 = 1.5703125;
const PIO2_MID: f32 = 4.837512969970703125e-4;
const PIO2_LO: f32 = 7.54978995489188216e-8;

// (cos a, sin a) for a >= 0 to ~1 ulp. WGSL's built-in cos/sin only promise 2^-11 absolute
// error on [-pi, pi] (SwiftShader really is that coarse), too loose for the 1e-4 parity bound,
// so reduce to [-pi/4, pi/4] and use the Cephes minimax polynomials (plain mul/add).
fn cos_sin(a: f32) -> vec2<f32> {
  let k = round(a * TWO_OVER_PI);
  let r = ((a - k * PIO2_HI) - k * PIO2_MID) - k * PIO2_LO;
  let z = r * r;
  let s = ((-1.9515295891e-4 * z + 8.3321608736e-3) * z - 1.6666654611e-1) * z * r + r;
  let c = ((2.443315711809948e-5 * z - 1.388731625493765e-3) * z + 4.166664568298827e-2) * z * z - 0.5 * z + 1.0;
  switch (u32(k) & 3u) {
    case 0u: { return vec2<f32>(c, s); }
    case 1u: { return vec2<f32>(-s, c); }
    case 2u: { return vec2<f32>(-c, -s); }
    default: { return vec2<f32>(s, -c); }
  }
}
