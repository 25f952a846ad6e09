// The bench's device flags: --device, --kernel and the scaling caps split off the rest, with errors
// that name the flag.
import { describe, expect, it } from 'vitest';
import { splitDeviceArgs } from './devicePlan';

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
