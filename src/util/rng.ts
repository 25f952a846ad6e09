// Seeded PRNG (mulberry32 over a splitmix32-mixed seed) and string-label seed derivation for independent streams.

/** A seeded, reproducible stream of random numbers. Never share one stream between agents. */
export interface Rng {
  /** Next 32-bit unsigned integer. */
  uint32(): number;
  /** Uniform float in [0, 1) with 32 random bits. */
  float(): number;
  /** Uniform integer in [0, n) for an integer 1 <= n <= 2^32 (float-scaled: bias below 2^-32 * n, negligible). */
  int(n: number): number;
  /** Uniform integer in [lo, hi] inclusive. */
  range(lo: number, hi: number): number;
  /** True with probability p. */
  bernoulli(p: number): boolean;
  /** Standard normal draw (Box-Muller). */
  normal(): number;
  /** Shuffle `arr` in place (Fisher-Yates) and return it. */
  shuffle<T>(arr: T[]): T[];
  /** A uniformly chosen element of a non-empty array. */
  pick<T>(arr: readonly T[]): T;
  /** Internal 32-bit state; `setState(getState())` resumes the stream exactly. */
  getState(): number;
  /** Restore a state previously returned by `getState`. */
  setState(state: number): void;
}

const TWO_POW_32 = 4294967296;

/** splitmix32 finaliser: a bijective avalanche mix of a 32-bit integer (returns a u32). */
export function splitmix32(x: number): number {
  let z = (x + 0x9e3779b9) >>> 0;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
  return (z ^ (z >>> 16)) >>> 0;
}

const FNV_OFFSET = 0x811c9dc5;
/** One FNV-1a round: mix one UTF-16 code unit into the running 32-bit hash. */
const fnv = (h: number, code: number): number => Math.imul(h ^ code, 0x01000193) >>> 0;

/** 32-bit FNV-1a hash of a string's UTF-16 code units, finished with splitmix32 (returns a u32). */
export function hashString(s: string): number {
  let h = FNV_OFFSET;
  for (let i = 0; i < s.length; i++) h = fnv(h, s.charCodeAt(i));
  return splitmix32(h);
}

/**
 * hashString(`#${n}`) for a safe integer n, computed from its decimal digits without building the string.
 * deriveSeed runs every step with the step number as a label; converting numbers to strings there made
 * V8 grow its number-to-string cache once the step passed 255 (a 64 kB jump in the soak's heap figure)
 * and allocated a string per call. Any other number goes through the string (same result by definition).
 */
function hashNumberTag(n: number): number {
  if (!Number.isSafeInteger(n)) return hashString(`#${n}`);
  let h = fnv(FNV_OFFSET, 0x23); // '#'
  if (n < 0) h = fnv(h, 0x2d); // '-'
  let a = Math.abs(n);
  let k = 0;
  do {
    const d = a % 10;
    DIGITS[k++] = d;
    a = (a - d) / 10; // exact: a - d is a multiple of 10
  } while (a > 0);
  while (k > 0) h = fnv(h, 0x30 + DIGITS[--k]);
  return splitmix32(h);
}
/** Scratch for hashNumberTag: a safe integer has at most 16 decimal digits. */
const DIGITS = new Uint8Array(16);

/**
 * Derive an independent 32-bit seed from a run seed and any number of labels, e.g.
 * `deriveSeed(runSeed, 'agent', 2, 'rollout')`. Different label lists give unrelated streams;
 * the same inputs always give the same seed. Labels are order-sensitive.
 */
export function deriveSeed(seed: number, ...labels: (string | number)[]): number {
  if (!Number.isFinite(seed)) throw new Error(`deriveSeed: seed must be a finite number, got ${seed}`);
  let h = splitmix32(((seed >>> 0) ^ (Math.floor(seed / TWO_POW_32) >>> 0)) >>> 0);
  for (const label of labels) {
    const tag = typeof label === 'number' ? hashNumberTag(label) : hashString(`$${label}`);
    h = splitmix32((h ^ tag) >>> 0);
  }
  return h;
}

/**
 * Create a mulberry32 stream. The seed is mixed with splitmix32 first, so nearby seeds (0, 1, 2...)
 * give unrelated streams.
 */
export function makeRng(seed: number): Rng {
  let state = splitmix32(seed >>> 0);
  const uint32 = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
  const float = (): number => uint32() / TWO_POW_32;
  const int = (n: number): number => {
    if (!Number.isInteger(n) || n < 1 || n > TWO_POW_32)
      throw new Error(`Rng.int: n must be an integer in [1, 2^32], got ${n}`);
    return Math.floor(float() * n);
  };
  const rng: Rng = {
    uint32,
    float,
    int,
    range(lo, hi) {
      if (!Number.isInteger(lo) || !Number.isInteger(hi) || hi < lo) {
        throw new Error(`Rng.range: need integers lo <= hi, got ${lo}, ${hi}`);
      }
      return lo + int(hi - lo + 1);
    },
    bernoulli(p) {
      return float() < p;
    },
    normal() {
      const u1 = Math.max(float(), 1e-12);
      return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * float());
    },
    shuffle<T>(arr: T[]): T[] {
      for (let i = arr.length - 1; i > 0; i--) {
        const j = int(i + 1);
        const tmp = arr[i];
        arr[i] = arr[j];
        arr[j] = tmp;
      }
      return arr;
    },
    pick<T>(arr: readonly T[]): T {
      if (arr.length === 0) throw new Error('Rng.pick: empty array');
      return arr[int(arr.length)];
    },
    getState: () => state,
    setState(s) {
      state = s >>> 0;
    },
  };
  return rng;
}

/** Shorthand: `makeRng(deriveSeed(seed, ...labels))`. */
export function deriveRng(seed: number, ...labels: (string | number)[]): Rng {
  return makeRng(deriveSeed(seed, ...labels));
}
