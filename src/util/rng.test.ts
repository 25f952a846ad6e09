// Tests for the seeded PRNG and seed derivation.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deriveRng, deriveSeed, hashString, makeRng, splitmix32 } from './rng';

describe('makeRng', () => {
  it('is deterministic per seed and differs across seeds', () => {
    const a = makeRng(42);
    const b = makeRng(42);
    const c = makeRng(43);
    const xs = Array.from({ length: 20 }, () => a.uint32());
    expect(Array.from({ length: 20 }, () => b.uint32())).toEqual(xs);
    expect(Array.from({ length: 20 }, () => c.uint32())).not.toEqual(xs);
  });

  it('produces floats in [0,1) with mean ~0.5 and ints covering their range uniformly', () => {
    const r = makeRng(7);
    let sum = 0;
    let lo = 1;
    let hi = 0;
    const counts = new Array<number>(10).fill(0);
    for (let i = 0; i < 50_000; i++) {
      const f = r.float();
      lo = Math.min(lo, f);
      hi = Math.max(hi, f);
      sum += f;
      counts[r.int(10)]++;
    }
    expect(lo).toBeGreaterThanOrEqual(0);
    expect(hi).toBeLessThan(1);
    expect(sum / 50_000).toBeCloseTo(0.5, 2);
    for (const k of counts) expect(Math.abs(k - 5000)).toBeLessThan(300);
  });

  it('range is inclusive, shuffle is a permutation, state restores the stream', () => {
    const r = makeRng(1);
    const seen = new Set<number>();
    for (let i = 0; i < 500; i++) seen.add(r.range(-2, 2));
    expect([...seen].sort()).toEqual([-1, -2, 0, 1, 2]);
    const arr = r.shuffle([0, 1, 2, 3, 4, 5, 6, 7]);
    expect([...arr].sort()).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    const s = r.getState();
    const next = [r.uint32(), r.uint32()];
    r.setState(s);
    expect([r.uint32(), r.uint32()]).toEqual(next);
    expect(() => r.int(0)).toThrow(/integer/);
    expect(() => r.pick([])).toThrow(/empty/);
  });

  it('normal draws have mean ~0 and variance ~1', () => {
    const r = makeRng(3);
    const xs = Array.from({ length: 20_000 }, () => r.normal());
    const m = xs.reduce((a, b) => a + b, 0) / xs.length;
    const v = xs.reduce((a, b) => a + (b - m) ** 2, 0) / xs.length;
    expect(Math.abs(m)).toBeLessThan(0.03);
    expect(Math.abs(v - 1)).toBeLessThan(0.05);
  });
});

describe('deriveSeed', () => {
  it('is a pure function of seed and ordered labels', () => {
    expect(deriveSeed(5, 'agent', 0)).toBe(deriveSeed(5, 'agent', 0));
    const seeds = new Set([
      deriveSeed(5),
      deriveSeed(5, 'agent', 0),
      deriveSeed(5, 'agent', 1),
      deriveSeed(6, 'agent', 0),
      deriveSeed(5, 0, 'agent'),
      deriveSeed(5, 'agent', '0'),
      deriveSeed(5, 'agent0'),
    ]);
    expect(seeds.size).toBe(7);
  });

  it('derived streams are uncorrelated', () => {
    const a = deriveRng(9, 'agent', 0);
    const b = deriveRng(9, 'agent', 1);
    const n = 10_000;
    let sab = 0;
    for (let i = 0; i < n; i++) sab += (a.float() - 0.5) * (b.float() - 0.5);
    // correlation of two independent U(0,1): sd of the mean product ~ (1/12)/sqrt(n)
    expect(Math.abs(sab / n / (1 / 12))).toBeLessThan(0.05);
  });

  it('hash helpers return u32 and avalanche', () => {
    expect(hashString('a')).not.toBe(hashString('b'));
    expect(splitmix32(0)).toBeGreaterThanOrEqual(0);
    expect(splitmix32(1)).toBeLessThan(2 ** 32);
    expect(() => deriveSeed(NaN)).toThrow(/finite/);
  });
});

describe('deriveSeed number labels', () => {
  // the digit-by-digit hash of a number label must equal the hash of its string form, or every seed changes
  it('hashes a number label exactly as the string "#" + String(n)', () => {
    const stringTag = (n: number): number => {
      let h = 0x811c9dc5;
      for (const ch of `#${n}`) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0;
      return splitmix32(h);
    };
    const mix = (seed: number, n: number): number =>
      splitmix32((splitmix32(seed >>> 0) ^ stringTag(n)) >>> 0);
    const cases = [
      0,
      -0,
      1,
      9,
      10,
      99,
      100,
      255,
      256,
      1000,
      -1,
      -256,
      123456789,
      2 ** 31,
      2 ** 32 + 5,
      Number.MAX_SAFE_INTEGER,
      -Number.MAX_SAFE_INTEGER,
      1.5,
      -2.25,
      1e21,
      2 ** 53,
      NaN,
      Infinity,
    ];
    for (const n of cases) expect(deriveSeed(7, n), String(n)).toBe(mix(7, n));
    fc.assert(
      fc.property(
        fc.integer({ min: -(2 ** 53) + 1, max: 2 ** 53 - 1 }),
        fc.double({ noNaN: false }),
        (i, d) => {
          expect(deriveSeed(3, i)).toBe(mix(3, i));
          expect(deriveSeed(3, d)).toBe(mix(3, d));
        },
      ),
      { numRuns: 2000 },
    );
    expect(deriveSeed(1, '5')).not.toBe(deriveSeed(1, 5)); // "$5" and "#5" stay distinct
  });
});
