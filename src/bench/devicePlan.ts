// The bench's options for kernel choice and for a GPU machine (issue 13): `--kernel op=variant,...`
// forces variants, `--kernel-cache PATH` is the per-adapter choice file (default runs/kernel-choices.json),
// `--device` runs the whole report plus the WebGPU scaling rows and writes one JSON file (`--out PATH`),
// the WebGPU rows sized by `--scaling-max-params`, `--scaling-max-bk` and `--scaling-budget-s`, the cpu
// and wasm rows by a time budget each (src/bench/scaling.ts has the cells). These are split off the
// command line before the rest goes to planFromArgs. Bad input throws naming what is accepted.
import { parseForced } from '../engine/webgpu/variantNames';
import type { ScalingCaps } from './scaling';

/**
 * The cpu and wasm rows of a --device run start no row after this many seconds per engine. Here (2 shared
 * cores) every cpu cell takes about 100 s, the 1M cell about 52 s of it (starting at about 35 s); a 16-core
 * GPU machine runs one Node thread no slower, so the whole table fits and the 8 minutes keep a margin.
 */
export const NODE_SCALING_BUDGET_S = 120;

export const DEVICE_USAGE =
  '  --kernel OP=VARIANT,...: force kernel variants (ops: matmul, layernorm, attention, attentionCached, logprob, sumSquares)\n' +
  '  --kernel-cache PATH: per-adapter kernel choices (default runs/kernel-choices.json)\n' +
  '  --device: the whole report plus the scaling table on cpu, wasm and WebGPU, written to one JSON file (--out PATH)\n' +
  '  --scaling-max-params N, --scaling-max-bk N, --scaling-budget-s S: caps of the WebGPU scaling rows (default 2e6, 512, 240;\n' +
  `    with --device the cpu and wasm rows start no row after ${NODE_SCALING_BUDGET_S} s per engine)`;

export interface DeviceArgs {
  /** Forced variants, `op=variant,...` ('' = measure). */
  kernel: string;
  kernelCache: string;
  /** Caps of the WebGPU scaling rows (null: none, without --device). */
  scaling: ScalingCaps | null;
  /** Caps of the cpu and wasm scaling rows (null: every cell, without --device). */
  nodeScaling: ScalingCaps | null;
  /** Where --device writes its JSON (null: stdout only). */
  out: string | null;
  device: boolean;
}

const VALUED = [
  '--kernel',
  '--kernel-cache',
  '--out',
  '--scaling-max-params',
  '--scaling-max-bk',
  '--scaling-budget-s',
];

function num(name: string, v: string | undefined, dflt: number): number {
  if (v === undefined) return dflt;
  const n = Number(v);
  if (!(Number.isFinite(n) && n > 0))
    throw new Error(`${name} must be a positive number, got ${JSON.stringify(v)}\n${DEVICE_USAGE}`);
  return n;
}

/** Split the device and kernel options off `argv`; the rest is for planFromArgs. */
export function splitDeviceArgs(
  argv: readonly string[],
  now = new Date(),
): { rest: string[]; args: DeviceArgs } {
  const rest: string[] = [];
  const v: Record<string, string> = {};
  let device = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--device') device = true;
    else if (VALUED.includes(a)) {
      if (argv[i + 1] === undefined) throw new Error(`${a} needs a value\n${DEVICE_USAGE}`);
      v[a] = argv[++i];
    } else rest.push(a);
  }
  const kernel = v['--kernel'] ?? '';
  parseForced(kernel); // refuses an unknown op or variant, naming the valid ones
  const scalingFlags = ['--scaling-max-params', '--scaling-max-bk', '--scaling-budget-s'].filter(
    (k) => k in v,
  );
  const deviceOnly = [...scalingFlags, ...(v['--out'] ? ['--out'] : [])];
  if (!device && deviceOnly.length)
    throw new Error(
      `${deviceOnly.join(', ')} only appl${deviceOnly.length > 1 ? 'y' : 'ies'} with --device\n${DEVICE_USAGE}`,
    );
  const scaling: ScalingCaps | null = device
    ? {
        maxParams: num('--scaling-max-params', v['--scaling-max-params'], 2e6),
        maxBk: num('--scaling-max-bk', v['--scaling-max-bk'], 512),
        budgetMs: 1000 * num('--scaling-budget-s', v['--scaling-budget-s'], 240),
      }
    : null;
  const nodeScaling = device
    ? { maxParams: Infinity, maxBk: Infinity, budgetMs: 1000 * NODE_SCALING_BUDGET_S }
    : null;
  const stamp = now.toISOString().replace(/[:.]/g, '-');
  return {
    rest,
    args: {
      kernel,
      kernelCache: v['--kernel-cache'] ?? 'runs/kernel-choices.json',
      scaling,
      nodeScaling,
      out: device ? (v['--out'] ?? `runs/bench-device-${stamp}.json`) : null,
      device,
    },
  };
}
