// Figures of a lean Co-RL step (issue 6, "a lean step"): GPU-to-CPU readbacks per step, dispatches per
// generated token at B x K = 16 and B x K = 256, buffer allocations after the first step, the engine's
// memory after step 10 and step N, and the step time, for agents shaped like a cohort preset (default
// paper-demo). The agents are freshly initialised (no checkpoint, no pretraining): every count depends
// on the shapes only, never on the weights. Runs on either backend, in a page or in Node.
import type { Agent } from '../cohort/agent';
import { familyGPTConfig, getFamily } from '../cohort/families';
import { getPreset, presetAgentSpecs } from '../cohort/presets';
import { agentLayout, familyTokenizer } from '../cohort/pretrain';
import type { Backend } from '../engine/backend';
import { makeGPTConfig, type GPTConfig } from '../model/config';
import { GPT } from '../model/gpt';
import { releaseDecoders } from '../model/generate';
import { makeTask, type Task } from '../tasks';
import { deriveRng, deriveSeed } from '../util/rng';
import { DEFAULT_EVAL, DEFAULT_TRAIN, type TrainConfig } from './config';
import { rolloutCohort } from './rollout';
import { CohortTrainer, completionSlots } from './trainer';

/** What {@link leanStepFigures} reports. */
export interface LeanStepFigures {
  /** Most readbacks of any Co-RL step (the first included; evaluation excluded), over every run. */
  readbacksPerStep: number;
  /** Dispatches per generated token position (all agents, all B x K rows) at B x K = 16. */
  dispatchesPerToken16: number;
  /** The same at B x K = 256. */
  dispatchesPerToken256: number;
  /** Buffer allocations in steps 2..N, over every run. */
  allocationsAfterFirst: number;
  /** Bytes held by the engine after step 10 and after step N of the long run. */
  bytesHeldStep10: number;
  bytesHeldStepN: number;
  /** N, the long run's steps. */
  stepsN: number;
  /** Median wall time of a step of the default config (B, K of DEFAULT_TRAIN), after one warm-up step. */
  stepMs: number;
}

/** Counter deltas and wall time of one step. */
export interface StepCounts {
  dispatches: number;
  readbacks: number;
  allocations: number;
  /** bytesHeld after the step. */
  bytesHeld: number;
  ms: number;
  /** The step record's phase times (ms): rollouts, policy forwards, updates. */
  phases: { rollout: number; forward: number; update: number };
}

/**
 * Fresh agents with the architectures, views and tokenizers of a preset's agents (paper-demo by default);
 * `arch` overrides every agent's architecture (the bench's scaling table, src/bench/scaling.ts).
 */
export function presetShapedAgents(
  backend: Backend,
  preset = 'paper-demo',
  arch: Partial<Pick<GPTConfig, 'nLayer' | 'nEmbd' | 'nHead'>> = {},
): { agents: Agent[]; task: Task } {
  const p = getPreset(preset);
  const task = makeTask(p.task);
  const probe = task.evalSet(Math.min(400, task.sizes.eval));
  const agents = presetAgentSpecs(preset).map((spec): Agent => {
    const family = getFamily(spec.family);
    const tok = familyTokenizer(family, p.task, spec.view);
    const layout = agentLayout(task, spec.view, probe);
    const base = familyGPTConfig(
      family,
      spec.size,
      tok.vocabSize,
      layout.blockSize,
      deriveSeed(spec.seed, 'init', family.name, spec.size),
    );
    const cfg = Object.keys(arch).length ? makeGPTConfig({ ...base, ...arch }) : base;
    return { spec: { ...spec }, model: new GPT(backend, cfg), tokenizer: tok };
  });
  return { agents, task };
}

/** Free what a run's agents and trainer hold. */
function dispose(tr: CohortTrainer): void {
  tr.dispose();
  for (const a of tr.agents) {
    releaseDecoders(a.model);
    a.model.free();
  }
}

/** `steps` Co-RL steps of fresh preset-shaped agents; counter deltas per step. `maxNewTokens` null = automatic slots. */
export async function leanRun(
  backend: Backend,
  o: {
    batchPrompts: number;
    samples: number;
    steps: number;
    maxNewTokens?: number | null;
    preset?: string;
    seed?: number;
  },
): Promise<{ slots: number[]; steps: StepCounts[] }> {
  const { agents, task } = presetShapedAgents(backend, o.preset);
  const train: TrainConfig = {
    ...DEFAULT_TRAIN,
    batchPrompts: o.batchPrompts,
    samples: o.samples,
    maxNewTokens: o.maxNewTokens ?? null,
  };
  const tr = new CohortTrainer(backend, agents, {
    method: 'co-rl',
    seed: o.seed ?? 3,
    task,
    train,
    eval: { ...DEFAULT_EVAL, problems: 8 },
  });
  const c = backend.counters;
  const steps: StepCounts[] = [];
  try {
    for (let s = 0; s < o.steps; s++) {
      const before = { ...c };
      const t0 = performance.now();
      const rec = await tr.step();
      const ms = performance.now() - t0;
      const t = rec.timing;
      steps.push({
        dispatches: c.dispatches - before.dispatches,
        readbacks: c.readbacks - before.readbacks,
        allocations: c.allocations - before.allocations,
        bytesHeld: c.bytesHeld,
        ms,
        phases: { rollout: t.rollout * 1000, forward: t.forward * 1000, update: t.update * 1000 },
      });
    }
    return { slots: [...tr.maxNewTokens], steps };
  } finally {
    dispose(tr);
  }
}

/**
 * Dispatches per generated token at B x K = batchPrompts x samples: the cohort's rollouts (the trainer's
 * rolloutCohort: every agent decoded, one readback) with one more completion slot than automatic, minus
 * those with the automatic slots. Each decoded position adds the same dispatches (a cached forward and
 * one sampling pass per agent), whatever the number of rows.
 */
export async function dispatchesPerToken(
  backend: Backend,
  batchPrompts: number,
  samples: number,
  preset?: string,
): Promise<{ perToken: number; slots: number; dispatches: [number, number] }> {
  const { agents, task } = presetShapedAgents(backend, preset);
  try {
    const slotsPer = agents.map((a) => completionSlots(a, task, null));
    const slots = Math.max(...slotsPer);
    const problems = task.sampleTrain(deriveRng(1, 'lean-figures'), batchPrompts);
    const count = async (M: number): Promise<number> => {
      const before = backend.counters.dispatches;
      await rolloutCohort(
        agents,
        problems,
        agents.map((a) => ({
          samples,
          temperature: 1,
          maxNewTokens: M,
          seed: deriveSeed(1, 'lean', a.spec.id),
        })),
      );
      return backend.counters.dispatches - before;
    };
    const at = await count(slots);
    const more = await count(slots + 1);
    return { perToken: more - at, slots, dispatches: [at, more] };
  } finally {
    for (const a of agents) {
      releaseDecoders(a.model);
      a.model.free();
    }
  }
}

/** Median of a list. */
const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/**
 * The lean-step figures of the benchmark report, on `backend`: dispatches per generated token at
 * B x K = 16 (B=2, K=8) and 256 (B=32, K=8); readbacks and allocations over 3 Co-RL steps at each of
 * those, `stepsN` (default 500, at least 11) steps at B=2, K=2 (memory after step 10 and step N), and
 * 1 + `timedSteps` (default 5) steps of the default config (B=16, K=8; the first is a warm-up).
 * On SwiftShader a B=2, K=2 step takes about a second: pass a smaller stepsN there.
 */
export async function leanStepFigures(
  backend: Backend,
  o: { stepsN?: number; timedSteps?: number; preset?: string } = {},
): Promise<LeanStepFigures> {
  const stepsN = o.stepsN ?? 500;
  if (!(Number.isInteger(stepsN) && stepsN >= 11))
    throw new Error(
      `stepsN must be a whole number >= 11 (memory is compared after step 10 and step N), got ${stepsN}`,
    );
  const timedSteps = o.timedSteps ?? 5;
  if (!(Number.isInteger(timedSteps) && timedSteps >= 1))
    throw new Error(`timedSteps must be a whole number >= 1, got ${timedSteps}`);
  const d16 = await dispatchesPerToken(backend, 2, 8, o.preset);
  const d256 = await dispatchesPerToken(backend, 32, 8, o.preset);
  const r16 = await leanRun(backend, { batchPrompts: 2, samples: 8, steps: 3, preset: o.preset });
  const r256 = await leanRun(backend, { batchPrompts: 32, samples: 8, steps: 3, preset: o.preset });
  const long = await leanRun(backend, { batchPrompts: 2, samples: 2, steps: stepsN, preset: o.preset });
  const timed = await leanRun(backend, {
    batchPrompts: DEFAULT_TRAIN.batchPrompts,
    samples: DEFAULT_TRAIN.samples,
    steps: 1 + timedSteps,
    preset: o.preset,
  });
  const runs = [r16.steps, r256.steps, long.steps, timed.steps];
  return {
    readbacksPerStep: Math.max(...runs.flat().map((s) => s.readbacks)),
    dispatchesPerToken16: d16.perToken,
    dispatchesPerToken256: d256.perToken,
    allocationsAfterFirst: runs.reduce((n, r) => n + r.slice(1).reduce((m, s) => m + s.allocations, 0), 0),
    bytesHeldStep10: long.steps[9].bytesHeld,
    bytesHeldStepN: long.steps[stepsN - 1].bytesHeld,
    stepsN,
    stepMs: median(timed.steps.slice(1).map((s) => s.ms)),
  };
}
