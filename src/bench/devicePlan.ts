// The bench's options for kernel choice and for a GPU machine (issue 13): `--kernel op=variant,...`
// forces variants, `--kernel-cache PATH` is the per-adapter choice file (default runs/kernel-choices.json),
// `--device` runs the whole report plus the WebGPU scaling rows and writes one JSON file (`--out PATH`),
// sized by `--scaling-max-params`, `--scaling-max-bk` and `--scaling-budget-s`. These are split off the
// command line before the rest goes to planFromArgs. Bad input throws naming what is accepted.
import { parseForced } from '../engine/webgpu/variantNames';
import type { ScalingOpts } from './scalingGpu';

export const DEVICE_USAGE =
  '  --kernel OP=VARIANT,...: force kernel variants (ops: matmul, layernorm, attention, attentionCached, logprob, sumSquares)\n' +
  '  --kernel-cache PATH: per-adapter kernel choices (default runs/kernel-choices.json)\n' +
  '  --device: the whole report plus the WebGPU scaling rows, written to one JSON file (--out PATH)\n' +
  '  --scaling-max-params N, --scaling-max-bk N, --scaling-budget-s S: caps of the scaling rows (default 2e6, 512, 240)';

export interface DeviceArgs {
  /** Forced variants, `op=variant,...` ('' = measure). */
  kernel: string;
  kernelCache: string;
  /** The scaling rows to run (null: none, without --device). */
  scaling: ScalingOpts | null;
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
  if (!device && (scalingFlags.length || v['--out']))
    throw new Error(
      `${[...scalingFlags, ...(v['--out'] ? ['--out'] : [])].join(', ')} only apply with --device\n${DEVICE_USAGE}`,
    );
  const scaling: ScalingOpts | null = device
    ? {
        maxParams: num('--scaling-max-params', v['--scaling-max-params'], 2e6),
        maxBk: num('--scaling-max-bk', v['--scaling-max-bk'], 512),
        budgetMs: 1000 * num('--scaling-budget-s', v['--scaling-budget-s'], 240),
        steps: 2,
      }
    : null;
  const stamp = now.toISOString().replace(/[:.]/g, '-');
  return {
    rest,
    args: {
      kernel,
      kernelCache: v['--kernel-cache'] ?? 'runs/kernel-choices.json',
      scaling,
      out: device ? (v['--out'] ?? `runs/bench-device-${stamp}.json`) : null,
      device,
    },
  };
}
