// Small numeric helpers (mean, unbiased std) shared by the RL functions; follows docs/method.md ("One training step", step 6).

/** Arithmetic mean; 0 for an empty input. */
export function mean(xs: ArrayLike<number>): number {
  const n = xs.length;
  if (n === 0) return 0;
  let s = 0;
  for (let i = 0; i < n; i++) s += xs[i];
  return s / n;
}

/**
 * Unbiased (Bessel, n-1) sample standard deviation, like `torch.std` default.
 * Returns 0 when fewer than two values are given, and exactly 0 when all values are equal.
 */
export function unbiasedStd(xs: ArrayLike<number>): number {
  const n = xs.length;
  if (n < 2) return 0;
  if (allEqual(xs)) return 0;
  const m = mean(xs);
  let ss = 0;
  for (let i = 0; i < n; i++) {
    const d = xs[i] - m;
    ss += d * d;
  }
  return Math.sqrt(ss / (n - 1));
}

/** True when every value equals the first one (vacuously true for length 0 or 1). */
export function allEqual(xs: ArrayLike<number>): boolean {
  for (let i = 1; i < xs.length; i++) if (xs[i] !== xs[0]) return false;
  return true;
}

/** Throws unless `x` is an integer >= `min`. */
export function assertInt(name: string, x: number, min: number): void {
  if (!Number.isInteger(x) || x < min) throw new Error(`${name} must be an integer >= ${min}, got ${x}`);
}
