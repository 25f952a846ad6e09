// Tensor shapes: the element count of a shape, shared by every backend (CPU, wasm, WebGPU).

/** Product of a shape's dimensions, with a clear error on bad dimensions. */
export function shapeSize(shape: readonly number[]): number {
  let n = 1;
  for (const d of shape) {
    if (!Number.isInteger(d) || d < 0) throw new Error(`invalid tensor shape [${shape.join(', ')}]`);
    n *= d;
  }
  return n;
}
