// Kernel choice by measurement in the bench page (issue 13): load the per-adapter cache the CLI passed
// (ignored when it is another adapter's or an older kernel version's), apply forced variants, run the
// benchmark's shapes once (every matmul shape, each agent's supervised step, one Co-RL step at the
// default batch) so the backend meets them, then measure every variant of each shape it met without a
// cached choice. The report lists each choice with every variant's time and the rule's variant.
import type { WebGpuBackend } from '../engine/webgpu/webgpuBackend';
import { type ChoiceCache, type MeasuredChoice, type TunedOp, parseForced } from '../engine/webgpu/choices';
import { tune } from '../engine/webgpu/tune';
import { GPT } from '../model/gpt';
import { sftStep } from '../model/sft';
import { DEFAULT_TRAIN } from '../rl/config';
import { leanRun } from '../rl/leanFigures';
import type { BenchPlan } from './benchSuite';
import { SFT_HP, benchSftBatch } from './runBench';

/** What the bench is told about kernel choice (from --kernel and the cache file). */
export interface BenchKernelOpts {
  /** `op=variant,...` forced for the whole run ('' = measure). */
  force: string;
  /** The cache file's records by adapter name (null: no file). */
  cache: Record<string, unknown> | null;
}

export interface KernelChoiceReport {
  adapter: string;
  forced: Partial<Record<TunedOp, string>>;
  /** Choices taken from the cache, and why a cache record was ignored (null: not ignored or none). */
  fromCache: number;
  cacheIgnored: string | null;
  /** Shapes measured in this run, the wall time it took, and shapes left to their rule. */
  measuredNow: number;
  tuneMs: number;
  left: number;
  timing: string;
  /** Every choice in effect: variant, the rule's variant, each variant's ms. */
  choices: MeasuredChoice[];
  /** Choices where the measured variant differs from the rule's (it was faster here). */
  differFromRule: number;
  /** The cache record to store for this adapter. */
  cache: ChoiceCache;
}

/** One pass over the benchmark's shapes, so every (op, shape) the timed parts run is met once. */
async function meetShapes(be: WebGpuBackend, plan: BenchPlan): Promise<void> {
  for (const s of plan.shapes) {
    const [inp, w, o] = [be.alloc([s.N, s.C]), be.alloc([s.OC, s.C]), be.alloc([s.N, s.OC])];
    be.matmulForward({ out: o, inp, weight: w, bias: null, N: s.N, C: s.C, OC: s.OC });
    for (const t of [inp, w, o]) be.free(t);
  }
  for (const m of plan.models.filter((x) => plan.sftAgents.includes(x.agent))) {
    const model = new GPT(be, m.cfg);
    await sftStep(model, benchSftBatch(m), { ...SFT_HP, step: 1 }, 0);
    model.free();
  }
  if (plan.leanSteps > 0)
    await leanRun(be, {
      batchPrompts: DEFAULT_TRAIN.batchPrompts,
      samples: DEFAULT_TRAIN.samples,
      steps: 1,
      preset: plan.preset,
    });
  await be.sync();
}

/** Choose every kernel variant for this run (see the file comment); throws on a bad forced variant. */
export async function chooseKernels(
  be: WebGpuBackend,
  plan: BenchPlan,
  opts: BenchKernelOpts,
  log: (s: string) => void,
): Promise<KernelChoiceReport> {
  const adapter = be.info.adapter;
  const forced = parseForced(opts.force);
  be.kernels.force(forced);
  const file = opts.cache ?? {};
  const others = Object.keys(file).filter((a) => a !== adapter);
  const loaded =
    file[adapter] !== undefined
      ? be.kernels.load(file[adapter], adapter)
      : {
          taken: 0,
          ignored: others.length
            ? `no record for ${JSON.stringify(adapter)} (the file holds ${others.map((a) => JSON.stringify(a)).join(', ')})`
            : null,
        };
  if (loaded.ignored) log(`kernel cache ignored: ${loaded.ignored}; measuring again`);
  else if (loaded.taken) log(`kernel cache: ${loaded.taken} choices for ${adapter}`);
  await meetShapes(be, plan);
  const r = Object.keys(forced).length
    ? { measured: [], left: be.kernels.misses.size, ms: 0, timing: 'forced' }
    : await tune(be);
  const choices = be.kernels.all();
  for (const c of choices) {
    const times = Object.entries(c.ms)
      .map(
        ([v, ms]) =>
          `${v} ${ms !== null ? `${ms.toFixed(3)} ms` : c.pruned?.[v] ? `not run (${c.pruned[v]})` : 'cannot run'}`,
      )
      .join(', ');
    log(
      `kernel ${c.op} ${c.dims.join('x')}: ${times} -> ${c.variant}${c.variant === c.rule ? '' : ` (rule: ${c.rule})`}`,
    );
  }
  log(
    `kernel choice: ${r.measured.length} shapes measured in ${r.ms.toFixed(0)} ms (${r.timing}), ${loaded.taken} from the cache, ${r.left} left to the rules`,
  );
  return {
    adapter,
    forced,
    fromCache: loaded.taken,
    cacheIgnored: loaded.ignored,
    measuredNow: r.measured.length,
    tuneMs: r.ms,
    left: r.left,
    timing: r.timing,
    choices,
    differFromRule: choices.filter((c) => c.variant !== c.rule).length,
    cache: be.kernels.toCache(adapter),
  };
}
