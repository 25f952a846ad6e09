// Tests of the kernel choice table (./choices.ts, ./variantNames.ts) in Node, no GPU: forced variants
// are checked (unknown names and shapes a variant cannot run are refused naming the valid ones), a
// measured choice wins over the rule, unmeasured shapes are remembered, and a cached record from another
// adapter or kernel version is ignored with the reason.
import { describe, expect, it } from 'vitest';
import { KERNEL_VERSION, KernelChoices, TUNABLE, type MeasuredChoice } from './choices';
import { parseForced } from './variantNames';

const measured = (over: Partial<MeasuredChoice> = {}): MeasuredChoice => ({
  op: 'matmul',
  dims: [320, 24, 72],
  variant: 'tiled',
  rule: 'blocked',
  ms: { blocked: 2, tiled: 1 },
  ...over,
});

describe('kernel choices', () => {
  it('uses the rule until a shape is measured, and remembers the shapes it met', () => {
    const k = new KernelChoices();
    expect(k.pick('matmul', [320, 24, 72])).toBe('blocked');
    expect(k.pick('matmul', [320, 30, 72])).toBe('tiled'); // C % 4 != 0: the rule's only option
    expect(k.pick('attention', [2, 100, 32, 4])).toBe('workgroup');
    expect([...k.misses.keys()]).toEqual(['matmul:320x24x72', 'matmul:320x30x72', 'attention:2x100x32x4']);
    k.set(measured());
    expect(k.pick('matmul', [320, 24, 72])).toBe('tiled');
    expect(k.misses.has('matmul:320x24x72')).toBe(false);
  });

  it('refuses forced variants that do not exist or cannot run the shape, naming the valid ones', () => {
    expect(() => parseForced('matmul=fast')).toThrow(/unknown matmul variant "fast"; valid: blocked, tiled/);
    expect(() => parseForced('softmax=rows')).toThrow(
      /unknown kernel op "softmax"; valid ops: matmul, layernorm, attention/,
    );
    expect(parseForced('matmul=tiled, layernorm=workgroup')).toEqual({
      matmul: 'tiled',
      layernorm: 'workgroup',
    });
    const k = new KernelChoices();
    expect(() => k.force({ logprob: 'blocked' })).toThrow(/valid: rows, workgroup/);
    k.force({ matmul: 'blocked', attention: 'rows' });
    k.set(measured());
    expect(k.pick('matmul', [320, 24, 72])).toBe('blocked'); // forced beats measured
    expect(() => k.pick('matmul', [320, 30, 72])).toThrow(
      /forced matmul variant 'blocked' cannot run matmul at N, C, OC = 320, 30, 72 \(needs C % 4 == 0, got C=30\); valid here: tiled/,
    );
    expect(() => k.pick('attention', [2, 65, 32, 4])).toThrow(
      /takes at most 64 keys, got 65\); valid here: workgroup/,
    );
    k.force({});
    expect(k.pick('matmul', [320, 24, 72])).toBe('tiled');
  });

  it('round-trips through a cache record and ignores another adapter, an older version and junk', () => {
    const a = new KernelChoices();
    a.set(measured());
    a.set(
      measured({
        op: 'layernorm',
        dims: [320, 24],
        variant: 'rows',
        rule: 'rows',
        ms: { rows: 0.5, workgroup: 50 },
      }),
    );
    const rec = JSON.parse(JSON.stringify(a.toCache('google swiftshader')));
    expect(rec.kernelVersion).toBe(KERNEL_VERSION);
    const b = new KernelChoices();
    expect(b.load(rec, 'nvidia hopper')).toEqual({
      taken: 0,
      ignored: 'cached for adapter "google swiftshader", this is "nvidia hopper"',
    });
    expect(b.load({ ...rec, kernelVersion: KERNEL_VERSION - 1 }, 'google swiftshader').ignored).toMatch(
      /kernel version 0, this is 1/,
    );
    expect(b.load('junk', 'google swiftshader').ignored).toBe('malformed cache record');
    expect(b.all()).toEqual([]);
    expect(b.load(rec, 'google swiftshader')).toEqual({ taken: 2, ignored: null });
    expect(b.pick('matmul', [320, 24, 72])).toBe('tiled');
    // a cached choice the shape cannot run (a corrupted or hand-edited file) is dropped
    const bad = { ...rec, choices: { x: measured({ dims: [320, 30, 72], variant: 'blocked' }) } };
    expect(new KernelChoices().load(bad, 'google swiftshader').taken).toBe(0);
  });

  it('has a rule and a reason check for every op and variant', () => {
    for (const [op, s] of Object.entries(TUNABLE)) {
      expect(s.variants.length, op).toBeGreaterThan(1);
      expect(s.variants as readonly string[]).toContain(s.rule([64, 32, 32, 4, 4]));
    }
  });
});
