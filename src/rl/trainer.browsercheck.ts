// Browser-side trainer checks (run by e2e/trainer.spec.ts through e2e/harness.ts): the same few GRPO
// steps of a cohort on WebGPU and on the CPU reference give the same answers, votes and rewards (the
// sampling kernel draws the same uniforms on both backends), the same gradients (within 1e-4 of the
// largest), and parameters within Adam's tolerance (see paramsClose); KL to the base is exactly 0 at
// step 1 on the GPU too.
import { compareArrays, describeCompare } from '../engine/compare';
import { CpuBackend } from '../engine/cpu/cpuBackend';
import type { Backend } from '../engine/backend';
import type { WebGpuBackend } from '../engine/webgpu/webgpuBackend';
import { releaseDecoders } from '../model/generate';
import { makeTask } from '../tasks';
import { DEFAULT_EVAL, DEFAULT_TRAIN, type TrainConfig } from './config';
import type { RewardMethod } from './rewards';
import type { StepRecord } from './records';
import { canonicalMetricsJson } from './canonical';
import { pretrainToy, toyAgent, TOY_TASK } from './toyAgents';
import { CohortTrainer, type StepDetail } from './trainer';

export interface CheckReport {
  ok: boolean;
  lines: string[];
  figures: Record<string, number>;
}

type Toy = Awaited<ReturnType<typeof pretrainToy>>;
let toysP: Promise<Toy[]> | null = null;
const toys = (): Promise<Toy[]> =>
  (toysP ??= (async () => [
    await pretrainToy({ id: 'A', view: 'plain', seed: 1, steps: 100 }),
    await pretrainToy({ id: 'B', view: 'reversed', seed: 2, steps: 100 }),
  ])());

interface Run {
  details: StepDetail[];
  records: StepRecord[];
  params: Float32Array[][];
  /** Gradients of the step's (last) optimizer pass, before clipping. */
  grads: Float32Array[][];
  seconds: number;
}

async function run(be: Backend, method: RewardMethod, train: TrainConfig, steps: number): Promise<Run> {
  const agents = (await toys()).map((t) => toyAgent(be, t));
  const details: StepDetail[] = [];
  const tr = new CohortTrainer(be, agents, {
    method,
    seed: 17,
    task: makeTask(TOY_TASK),
    train,
    eval: { ...DEFAULT_EVAL, problems: 10 },
    inspect: (d) => details.push(d),
  });
  const out: Run = { details, records: [], params: [], grads: [], seconds: 0 };
  const t0 = performance.now();
  for (let s = 0; s < steps; s++) {
    out.records.push(await tr.step());
    out.params.push(await Promise.all(agents.map((a) => a.model.readParams())));
    out.grads.push(
      await Promise.all(agents.map(async (a) => (await be.read(a.model.grads)) as Float32Array)),
    );
  }
  out.seconds = (performance.now() - t0) / 1000;
  tr.dispose();
  for (const a of agents) {
    releaseDecoders(a.model);
    a.model.free();
  }
  return out;
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/**
 * Parameters after AdamW steps on two backends. Adam divides by sqrt(v), so an element whose gradient is
 * ~0 (within float rounding of zero) can move by up to ~lr per step in either direction: a tight
 * elementwise tolerance cannot hold for every element. Pass when at most 0.5% of the elements differ by
 * more than 2e-5 + 1e-3|ref|, and no element differs by more than `bound` (lr x optimizer steps).
 */
function paramsClose(
  got: Float32Array,
  ref: Float32Array,
  bound: number,
): { ok: boolean; maxAbs: number; line: string } {
  let loose = 0;
  let maxAbs = 0;
  let nonFinite = 0;
  for (let i = 0; i < ref.length; i++) {
    const d = Math.abs(got[i] - ref[i]);
    if (!Number.isFinite(got[i])) nonFinite++;
    maxAbs = Math.max(maxAbs, d);
    if (!(d <= 2e-5 + 1e-3 * Math.abs(ref[i]))) loose++;
  }
  const ok = nonFinite === 0 && loose <= ref.length * 5e-3 && maxAbs <= bound + 1e-5;
  return {
    ok,
    maxAbs,
    line: `n=${ref.length}, beyond 2e-5+1e-3|ref|: ${loose} (${((100 * loose) / ref.length).toFixed(3)}%, allowed 0.5%), maxAbs ${maxAbs.toExponential(2)} (bound lr x steps = ${bound.toExponential(2)}), nonFinite ${nonFinite}`,
  };
}

/** The same steps on both backends: identical answers, votes, rewards; parameters within tolerance. */
async function stepParity(
  gpu: Backend,
  method: RewardMethod,
  o: Partial<TrainConfig>,
  steps: number,
): Promise<CheckReport> {
  const train: TrainConfig = { ...DEFAULT_TRAIN, batchPrompts: 8, samples: 4, lr: 1e-3, ...o };
  const g = await run(gpu, method, train, steps);
  const c = await run(new CpuBackend(), method, train, steps);
  const lines: string[] = [
    `${method} ${JSON.stringify(o)}: ${steps} steps, webgpu ${(g.seconds / steps).toFixed(2)} s/step, cpu ${(c.seconds / steps).toFixed(2)} s/step`,
  ];
  let ok = true;
  const figures: Record<string, number> = { gpuSecondsPerStep: g.seconds / steps };
  let answersSame = 0;
  let answersAll = 0;
  let worst = 0;
  for (let s = 0; s < steps; s++) {
    const dg = g.details[s];
    const dc = c.details[s];
    dg.answers.forEach((row, n) =>
      row.forEach((a, i) => {
        answersAll++;
        if (a === dc.answers[n][i]) answersSame++;
      }),
    );
    const sv = same(dg.votes, dc.votes);
    // binary rewards must be identical; continuous ones (intuitor, rent) come from float logits: close
    const sr =
      method === 'intuitor' || method === 'rent'
        ? dg.rewards.every((r, n) => compareArrays('rewards', r, dc.rewards[n], 1e-4, 1e-4).ok)
        : same(dg.rewards, dc.rewards);
    const sa = same(dg.answers, dc.answers);
    ok &&= sv && sr && sa;
    lines.push(
      `step ${s + 1}: answers ${sa ? 'identical' : 'DIFFER'}, votes ${sv ? 'identical' : 'DIFFER'}, rewards ${sr ? 'identical' : 'DIFFER'}; KL gpu [${g.records[s].agents.map((a) => a.kl?.toExponential(2))}] cpu [${c.records[s].agents.map((a) => a.kl?.toExponential(2))}]`,
    );
    for (let n = 0; n < g.params[s].length; n++) {
      const gmax = c.grads[s][n].reduce((m, x) => Math.max(m, Math.abs(x)), 0);
      const gr = compareArrays(
        `step ${s + 1} agent ${n} gradients (|g|max ${gmax.toExponential(2)})`,
        g.grads[s][n],
        c.grads[s][n],
        1e-4 * gmax,
        1e-3,
      );
      ok &&= gr.ok;
      lines.push(describeCompare(gr));
      const r = paramsClose(g.params[s][n], c.params[s][n], train.lr * (s + 1) * train.innerEpochs);
      ok &&= r.ok;
      worst = Math.max(worst, r.maxAbs);
      lines.push(`${r.ok ? 'ok  ' : 'FAIL'} step ${s + 1} agent ${n} params: ${r.line}`);
    }
  }
  const kl0 = g.records[0].agents.every((a) => a.kl === 0);
  ok &&= kl0;
  lines.push(`KL at step 1 on webgpu: ${kl0 ? 'exactly 0 for every agent' : 'NOT 0'}`);
  figures.answerAgreement = answersSame / answersAll;
  figures.maxAbsParamDiff = worst;
  return { ok, lines, figures };
}

/**
 * Determinism on WebGPU (issue 7): the same config and seed twice on the same device (fresh agents and
 * trainers) give identical answers, votes and rewards at every step; whether the float metrics are
 * bit-identical too is reported as a figure.
 */
async function gpuDeterminism(gpu: Backend, method: RewardMethod, steps: number): Promise<CheckReport> {
  const train: TrainConfig = { ...DEFAULT_TRAIN, batchPrompts: 8, samples: 4, lr: 1e-3 };
  const a = await run(gpu, method, train, steps);
  const b = await run(gpu, method, train, steps);
  const lines: string[] = [`${method}: ${steps} steps twice on webgpu with seed 17`];
  let ok = a.details.length === steps && b.details.length === steps;
  for (let s = 0; s < steps; s++) {
    const sa = same(a.details[s].answers, b.details[s].answers);
    const sv = same(a.details[s].votes, b.details[s].votes);
    const sr = same(a.details[s].rewards, b.details[s].rewards);
    ok &&= sa && sv && sr;
    lines.push(
      `step ${s + 1}: answers ${sa ? 'identical' : 'DIFFER'}, votes ${sv ? 'identical' : 'DIFFER'}, rewards ${sr ? 'identical' : 'DIFFER'}`,
    );
  }
  const strip = (r: Run) => canonicalMetricsJson(r.records, []);
  const metricsSame = strip(a) === strip(b);
  lines.push(
    `metric JSON (timings excluded): ${metricsSame ? 'byte-identical' : 'differs in float figures'}`,
  );
  return { ok, lines, figures: { metricsIdentical: metricsSame ? 1 : 0 } };
}

export const checks: Record<string, (g: WebGpuBackend) => Promise<CheckReport>> = {
  'trainer:determinism-webgpu': (g) => gpuDeterminism(g, 'co-rl', 2),
  'trainer:parity-co-rl': (g) => stepParity(g, 'co-rl', {}, 3),
  'trainer:parity-gt-epochs-kl': (g) =>
    stepParity(g, 'gt', { innerEpochs: 2, beta: 0.05, lossType: 'bnpo', scaleRewards: 'batch' }, 2),
  'trainer:parity-intuitor': (g) => stepParity(g, 'intuitor', { lossType: 'dr_grpo' }, 2),
};
