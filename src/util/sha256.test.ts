// The plain-TS SHA-256 (sha256.ts) against node:crypto's digests: empty, short, block-boundary lengths,
// non-ASCII text and a long input, plus the FIPS 180-4 example digest.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sha16, sha256Hex } from './sha256';

const node = (s: string): string => createHash('sha256').update(s).digest('hex');

describe('sha256Hex', () => {
  it('gives the FIPS 180-4 digest of "abc"', () => {
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
  it('matches node:crypto on awkward lengths and non-ASCII text', () => {
    const inputs = ['', 'a', 'κ = 0.4 · Co-RL ✓ 漢字 🙂', '{"config":{"seed":1},"backend":"wasm"}'];
    for (const n of [55, 56, 57, 63, 64, 65, 119, 120, 127, 128, 1000]) inputs.push('x'.repeat(n));
    let r = 7;
    const rand = Array.from({ length: 5000 }, () =>
      String.fromCharCode(32 + ((r = (r * 1103515245 + 12345) % 2 ** 31) % 2000)),
    );
    inputs.push(rand.join(''), 'é'.repeat(70_000));
    for (const s of inputs) expect(sha256Hex(s), `length ${s.length}`).toBe(node(s));
    expect(new Set(inputs.map(sha256Hex)).size).toBe(inputs.length);
  });
  it('sha16 is the first 16 hex digits', () => {
    expect(sha16('sweep')).toBe(node('sweep').slice(0, 16));
  });
});
