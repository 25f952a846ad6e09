// Student's t quantiles against published values (R's qt) and the closed forms for 1 and 2 degrees of
// freedom; the CDF against its known symmetry and large-df limit.
import { describe, expect, it } from 'vitest';
import { lnGamma, tCdf, tQuantile } from './tdist';

describe('tQuantile', () => {
  it('gives the 97.5% quantiles of the t table', () => {
    expect(tQuantile(0.975, 1)).toBeCloseTo(12.7062047, 6);
    expect(tQuantile(0.975, 2)).toBeCloseTo(4.30265273, 7);
    expect(tQuantile(0.975, 3)).toBeCloseTo(3.18244631, 7);
    expect(tQuantile(0.975, 4)).toBeCloseTo(2.77644511, 7);
    expect(tQuantile(0.975, 7)).toBeCloseTo(2.36462425, 7);
    expect(tQuantile(0.975, 30)).toBeCloseTo(2.04227246, 7);
    expect(tQuantile(0.975, 1000)).toBeCloseTo(1.96233908, 7);
  });

  it('matches the closed forms for df 1 and 2 at other levels, and is odd about 0.5', () => {
    for (const p of [0.6, 0.9, 0.95, 0.995]) {
      expect(tQuantile(p, 1)).toBeCloseTo(Math.tan(Math.PI * (p - 0.5)), 7);
      expect(tQuantile(p, 2)).toBeCloseTo((2 * p - 1) / Math.sqrt(2 * p * (1 - p)), 7);
      expect(tQuantile(1 - p, 5)).toBeCloseTo(-tQuantile(p, 5), 10);
    }
    expect(tQuantile(0.5, 3)).toBe(0);
    expect(tQuantile(0.95, 10)).toBeCloseTo(1.81246112, 7);
  });

  it('refuses levels and degrees of freedom outside the domain', () => {
    expect(() => tQuantile(1, 3)).toThrow(/p must be in \(0, 1\)/);
    expect(() => tQuantile(0.975, 0)).toThrow(/df must be > 0/);
  });
});

describe('tCdf and lnGamma', () => {
  it('is the inverse of the quantile and tends to the normal', () => {
    expect(tCdf(0, 4)).toBeCloseTo(0.5, 14);
    expect(tCdf(2.36462425, 7)).toBeCloseTo(0.975, 8);
    expect(tCdf(-2.36462425, 7)).toBeCloseTo(0.025, 8);
    expect(tCdf(1.959964, 1e6)).toBeCloseTo(0.975, 5);
  });

  it('gives ln Gamma at integers and at 1/2', () => {
    expect(lnGamma(1)).toBeCloseTo(0, 12);
    expect(lnGamma(5)).toBeCloseTo(Math.log(24), 12);
    expect(lnGamma(0.5)).toBeCloseTo(0.5 * Math.log(Math.PI), 12);
  });
});
