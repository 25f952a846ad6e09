// The page behind `npm run soak` (issue 7): a long Co-RL run of a preset's shipped base agents on WebGPU,
// stepped on request so the Node side can measure between steps (GPU bytes held by the engine, JS heap
// through the DevTools protocol). window.soakStart(opts) loads; window.soakTo(step) trains up to `step`.
import { fetchReader } from '../cohort/fetchReader';
import { getPreset, presetAgentSpecs } from '../cohort/presets';
import { WebGpuBackend } from '../engine/webgpu/webgpuBackend';
import { CohortLoader } from '../rl/cohortEnv';
import { DEFAULT_EVAL, DEFAULT_TRAIN } from '../rl/config';
import type { RewardMethod } from '../rl/rewards';
import { CohortTrainer } from '../rl/trainer';
import { makeTask } from '../tasks';

export interface SoakOptions {
  preset: string;
  method: RewardMethod;
  batchPrompts: number;
  samples: number;
  seed: number;
}

export interface SoakPoint {
  step: number;
  bytesHeld: number;
  allocations: number;
  dispatches: number;
  readbacks: number;
  /** Mean wall-clock ms per step since the previous point. */
  msPerStep: number;
  /** Mean sampled accuracy of the agents at this step (a sanity figure). */
  sampleAccuracy: number;
}

type SoakWindow = { soakStart(o: SoakOptions): Promise<string>; soakTo(step: number): Promise<SoakPoint> };
const w = window as unknown as SoakWindow;
let trainer: CohortTrainer | null = null;
let be: WebGpuBackend | null = null;
let last: { acc: number } = { acc: 0 };

w.soakStart = async (o) => {
  be = await WebGpuBackend.create();
  const preset = getPreset(o.preset);
  const specs = presetAgentSpecs(o.preset);
  const agents = await new CohortLoader(fetchReader(), specs).load(be);
  trainer = new CohortTrainer(be, agents, {
    method: o.method,
    seed: o.seed,
    task: makeTask(preset.task),
    train: { ...DEFAULT_TRAIN, batchPrompts: o.batchPrompts, samples: o.samples },
    eval: { ...DEFAULT_EVAL, problems: 8 },
  });
  return `${be.info.adapter}; ${specs.map((s) => `${s.id}=${s.family}`).join(', ')}`;
};

w.soakTo = async (step) => {
  if (!trainer || !be) throw new Error('call soakStart first');
  const t0 = performance.now();
  const from = trainer.stepCount;
  while (trainer.stepCount < step) {
    const r = await trainer.step();
    last = { acc: r.agents.reduce((a, x) => a + x.sampleAccuracy, 0) / r.agents.length };
  }
  const c = be.counters;
  return {
    step: trainer.stepCount,
    bytesHeld: c.bytesHeld,
    allocations: c.allocations,
    dispatches: c.dispatches,
    readbacks: c.readbacks,
    msPerStep: (performance.now() - t0) / Math.max(1, trainer.stepCount - from),
    sampleAccuracy: last.acc,
  };
};
document.title = 'soak ready';
