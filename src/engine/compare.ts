// Array comparison the llm.c way: pass when |got - ref| <= atol + rtol*|ref| for every element;
// any NaN or infinity in `got` (or a length mismatch) fails. Reports the worst and first misses.

export interface CompareResult {
  name: string;
  ok: boolean;
  n: number;
  maxAbsDiff: number;
  maxRelDiff: number;
  nonFinite: number;
  /** Up to 5 failing elements: index, got, expected. */
  mismatches: { index: number; got: number; ref: number }[];
  atol: number;
  rtol: number;
}

/** Compare `got` against the reference `ref` elementwise with tolerance atol + rtol*|ref|. */
export function compareArrays(
  name: string,
  got: ArrayLike<number>,
  ref: ArrayLike<number>,
  atol = 1e-4,
  rtol = 1e-4,
): CompareResult {
  const res: CompareResult = {
    name,
    ok: true,
    n: ref.length,
    maxAbsDiff: 0,
    maxRelDiff: 0,
    nonFinite: 0,
    mismatches: [],
    atol,
    rtol,
  };
  if (got.length !== ref.length) {
    res.ok = false;
    res.mismatches.push({ index: -1, got: got.length, ref: ref.length });
    return res;
  }
  for (let i = 0; i < ref.length; i++) {
    const g = got[i];
    const r = ref[i];
    const d = Math.abs(g - r);
    const bad = !Number.isFinite(g) || !(d <= atol + rtol * Math.abs(r));
    if (!Number.isFinite(g)) res.nonFinite++;
    if (Number.isFinite(d)) {
      res.maxAbsDiff = Math.max(res.maxAbsDiff, d);
      if (r !== 0) res.maxRelDiff = Math.max(res.maxRelDiff, d / Math.abs(r));
    }
    if (bad) {
      res.ok = false;
      if (res.mismatches.length < 5) res.mismatches.push({ index: i, got: g, ref: r });
    }
  }
  return res;
}

/** A one-line human summary of a comparison. */
export function describeCompare(r: CompareResult): string {
  const head = `${r.ok ? 'ok  ' : 'FAIL'} ${r.name}: n=${r.n} maxAbs=${r.maxAbsDiff.toExponential(2)} maxRel=${r.maxRelDiff.toExponential(2)}`;
  if (r.ok) return head;
  const miss = r.mismatches.map((m) => `[${m.index}] got ${m.got} want ${m.ref}`).join('; ');
  return `${head} nonFinite=${r.nonFinite} (tol ${r.atol}+${r.rtol}*|ref|) ${miss}`;
}
