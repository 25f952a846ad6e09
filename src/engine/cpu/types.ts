// Array types of the CPU reference ops. Float arguments accept Float64Array too, so gradient
// checks can run the very same code in double precision.

/** A float buffer: float32 in normal use, float64 in finite-difference checks. */
export type Floats = Float32Array | Float64Array;
