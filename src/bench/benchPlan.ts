// The plan of a `npm run bench` run from its command line: the preset's models, the selected shapes
// and agents, repetitions. Bad input throws a message naming what is wrong and what is accepted.
import { parseArgs } from '../util/args';
import { DEVICE_USAGE } from './devicePlan';
import { DEFAULT_BENCH_PRESET, presetBenchModels } from './benchModels';
import { type BenchPlan, UnknownBenchNameError, modelMatmulShapes, selectShapes } from './benchSuite';

const USAGE =
  'usage: npm run -s bench -- [--preset NAME] [--shape NAMES] [--sft AGENTS|all|none] [--reps N] [--samples N] ' +
  '[--lean-steps N] [--cpu-only] [--gpu-only] [--wall-clock]\n' +
  '  --lean-steps: steps of the Co-RL step run (readbacks, dispatches per token, allocations, memory after step 10 and step N; default 500, 0 = skip)\n' +
  '  --shape: comma-separated shape names (e.g. A.sft.qkv), prefixes (A.sft) or ops (qkv); default all\n' +
  '  --sft: agents whose supervised step is timed (default all)\n' +
  '  --wall-clock: no GPU timestamp queries even where the adapter has them\n' +
  DEVICE_USAGE;
const FLAGS = ['--cpu-only', '--gpu-only', '--wall-clock'];

function positiveInt(name: string, v: string | undefined, dflt: number): number {
  if (v === undefined) return dflt;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1 || n > 10_000)
    throw new Error(`--${name} must be an integer in [1, 10000], got ${JSON.stringify(v)}`);
  return n;
}

/** Steps of the Co-RL step run: 0 skips it (the default when only some shapes are asked for), else >= 11. */
function leanSteps(v: string | undefined, subset: boolean): number {
  if (v === undefined) return subset ? 0 : 500;
  const n = Number(v);
  if (!(Number.isInteger(n) && (n === 0 || (n >= 11 && n <= 100_000))))
    throw new Error(
      `--lean-steps must be 0 (skip) or an integer in [11, 100000] (memory is compared after step 10 and step N), got ${JSON.stringify(v)}`,
    );
  return n;
}

/** The plan of a run from the command line; throws (listing valid names) on bad input. */
export function planFromArgs(argv: readonly string[]): { plan: BenchPlan; cpu: boolean; gpu: boolean } {
  const flags = argv.filter((a) => FLAGS.includes(a));
  const o = parseArgs(
    argv.filter((a) => !FLAGS.includes(a)),
    ['preset', 'shape', 'sft', 'reps', 'samples', 'lean-steps'],
    USAGE,
  );
  const preset = o.preset ?? DEFAULT_BENCH_PRESET;
  const models = presetBenchModels(preset);
  const shapes = selectShapes(models.flatMap(modelMatmulShapes), o.shape ?? null);
  const agents = models.map((m) => m.agent);
  let sftAgents = agents;
  if (o.sft === 'none') sftAgents = [];
  else if (o.sft !== undefined && o.sft !== 'all') {
    sftAgents = o.sft.split(',').map((s) => s.trim());
    const bad = sftAgents.filter((a) => !agents.includes(a));
    if (bad.length) throw new UnknownBenchNameError('agent', bad, [...agents, 'all', 'none']);
  } else if (o.sft === undefined && o.shape !== undefined) sftAgents = []; // a shape subset times matmuls only
  const cpuOnly = flags.includes('--cpu-only');
  const gpuOnly = flags.includes('--gpu-only');
  if (cpuOnly && gpuOnly) throw new Error(`--cpu-only and --gpu-only exclude each other\n${USAGE}`);
  const plan: BenchPlan = {
    preset,
    models,
    shapes,
    sftAgents,
    matmulReps: positiveInt('reps', o.reps, 20),
    samples: positiveInt('samples', o.samples, 7),
    warmup: 2,
    sftReps: 1,
    wallClock: flags.includes('--wall-clock'),
    leanSteps: leanSteps(o['lean-steps'], o.shape !== undefined),
  };
  return { plan, cpu: !gpuOnly, gpu: !cpuOnly };
}
