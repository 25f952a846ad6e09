// Interval estimates of the regime check (docs/method.md, "The regime"): Wilson intervals for shares,
// normal intervals for means of per-problem values, a seeded percentile bootstrap over problems for
// statistics with no closed form (Cohen's kappa, AUROC), and the AUROC itself (Mann-Whitney, ties as 1/2).
import { makeRng } from '../../util/rng';

/** A figure with its 95% interval and the number of problems it rests on. */
export interface Estimate {
  value: number;
  lo: number;
  hi: number;
  n: number;
}

const Z95 = 1.959963984540054;

/** Wilson score interval (95%) of k successes in n trials; n = 0 gives NaN. */
export function wilson(k: number, n: number): Estimate {
  if (n === 0) return { value: NaN, lo: NaN, hi: NaN, n };
  const p = k / n;
  const z2 = Z95 * Z95;
  const den = 1 + z2 / n;
  const mid = (p + z2 / (2 * n)) / den;
  const half = (Z95 * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / den;
  return { value: p, lo: Math.max(0, mid - half), hi: Math.min(1, mid + half), n };
}

/** Mean of per-problem values with a normal 95% interval (unbiased sd / sqrt(n)); n = 0 gives NaN. */
export function meanInterval(xs: readonly number[]): Estimate {
  const n = xs.length;
  if (n === 0) return { value: NaN, lo: NaN, hi: NaN, n };
  const m = xs.reduce((a, b) => a + b, 0) / n;
  if (n === 1) return { value: m, lo: NaN, hi: NaN, n };
  const v = xs.reduce((a, x) => a + (x - m) * (x - m), 0) / (n - 1);
  const half = Z95 * Math.sqrt(v / n);
  return { value: m, lo: m - half, hi: m + half, n };
}

/**
 * Area under the ROC curve of `scores` for separating positives from negatives (the probability that a
 * random positive scores above a random negative, ties counted 1/2). NaN when either class is empty.
 */
export function auroc(scores: readonly number[], positive: readonly boolean[]): number {
  if (scores.length !== positive.length)
    throw new Error(`auroc: ${scores.length} scores but ${positive.length} labels`);
  const idx = scores.map((_, i) => i).sort((a, b) => scores[a] - scores[b]);
  let nPos = 0;
  let rankSum = 0;
  for (let i = 0; i < idx.length; ) {
    let j = i;
    while (j < idx.length && scores[idx[j]] === scores[idx[i]]) j++;
    const rank = (i + 1 + j) / 2; // mid-rank of the tie block, 1-based
    for (let t = i; t < j; t++) {
      if (!positive[idx[t]]) continue;
      nPos++;
      rankSum += rank;
    }
    i = j;
  }
  const nNeg = idx.length - nPos;
  if (nPos === 0 || nNeg === 0) return NaN;
  return (rankSum - (nPos * (nPos + 1)) / 2) / (nPos * nNeg);
}

/**
 * Percentile bootstrap (95%) of a statistic over n problems: `stat` receives resampled problem indices.
 * Seeded, so the same inputs give the same interval. Resamples whose statistic is NaN are dropped.
 */
export function bootstrap(
  n: number,
  stat: (idx: readonly number[]) => number,
  seed: number,
  resamples = 1000,
): Estimate {
  const all = Array.from({ length: n }, (_, i) => i);
  const value = n ? stat(all) : NaN;
  if (n < 2) return { value, lo: NaN, hi: NaN, n };
  const rng = makeRng(seed);
  const vals: number[] = [];
  const idx = new Array<number>(n);
  for (let r = 0; r < resamples; r++) {
    for (let i = 0; i < n; i++) idx[i] = Math.floor(rng.float() * n);
    const v = stat(idx);
    if (!Number.isNaN(v)) vals.push(v);
  }
  if (vals.length < resamples / 2) return { value, lo: NaN, hi: NaN, n };
  vals.sort((a, b) => a - b);
  const q = (p: number): number => vals[Math.min(vals.length - 1, Math.max(0, Math.floor(p * vals.length)))];
  return { value, lo: q(0.025), hi: q(0.975), n };
}
