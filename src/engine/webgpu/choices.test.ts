// Tests of the kernel choice table (./choices.ts, ./variantNames.ts) in Node, no GPU: forced variants
// are checked (unknown names and shapes a variant cannot run are refused naming the valid ones), a
// measured choice wins over the rule, unmeasured shapes are remembered, and a cached record from another
// adapter or kernel version is ignored with the reason.
import { describe, expect, it } from 'vitest';
import { KERNEL_VERSION, KernelChoices, TUNABLE, type MeasuredChoice } from './choices';
import { parseForced } from './variantNames';
import { splitDeviceArgs } from '../../bench/devicePlan';

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

describe('bench device and kernel flags', () => {
  it('splits --device, --kernel and the scaling caps off the rest', () => {
    const { rest, args } = splitDeviceArgs(
      ['--device', '--gpu-only', '--scaling-max-bk', '128', '--kernel', 'matmul=tiled'],
      new Date('2026-12-01T10:00:00Z'),
    );
    expect(rest).toEqual(['--gpu-only']);
    expect(args.device).toBe(true);
    expect(args.kernel).toBe('matmul=tiled');
    expect(args.scaling).toMatchObject({ maxBk: 128, maxParams: 2e6, budgetMs: 240_000 });
    expect(args.out).toBe('runs/bench-device-2026-12-01T10-00-00-000Z.json');
    expect(args.nodeScaling).toMatchObject({ budgetMs: 120_000 });
    expect(splitDeviceArgs([]).args.scaling).toBeNull();
    expect(splitDeviceArgs([]).args.nodeScaling).toBeNull();
    expect(() => splitDeviceArgs(['--scaling-max-bk', '16'])).toThrow(
      /^--scaling-max-bk only applies with --device/,
    );
    expect(() => splitDeviceArgs(['--out', 'x.json', '--scaling-budget-s', '9'])).toThrow(
      /^--scaling-budget-s, --out only apply with --device/,
    );
    expect(() => splitDeviceArgs(['--device', '--scaling-max-bk', 'x'])).toThrow(/must be a positive number/);
    expect(() => splitDeviceArgs(['--kernel', 'matmul=fast'])).toThrow(/valid: blocked, tiled/);
  });
});
