// The largest elementwise difference of two arrays, for checks that compare an engine, a kernel or a code
// path against its reference. A NaN or a length mismatch is the worst difference there is, never a pass.

/** Largest |a[i] - b[i]| (Infinity when the lengths differ or a difference is not a number). */
export function maxAbsDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) return Infinity;
  let m = 0;
  for (let i = 0; i < a.length; i++) {
    const d = Math.abs(a[i] - b[i]);
    if (!(d <= m)) m = Number.isNaN(d) ? Infinity : d;
  }
  return m;
}
