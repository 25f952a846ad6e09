// Browser-side lean-step check (run by e2e/lean.spec.ts through e2e/harness.ts): Co-RL steps of agents
// shaped like the paper-demo preset on WebGPU, counted by the backend's counters (src/rl/leanFigures.ts):
// dispatches per generated token of the cohort's rollouts at B x K = 16 and 256, readbacks and buffer
// allocations of Co-RL steps at B x K = 16, and the engine's memory after step 10 and after the last step
// of a longer tiny run. Sized for SwiftShader (a B x K = 256 step takes over 20 s there): full steps at
// B x K = 256 and the 500-step memory figure come from `leanStepFigures` (npm run bench).
import type { WebGpuBackend } from '../engine/webgpu/webgpuBackend';
import { dispatchesPerToken, leanRun, type StepCounts } from './leanFigures';

interface CheckReport {
  ok: boolean;
  lines: string[];
  figures: Record<string, number>;
}

/** Steps of the memory run at B=2, K=2 with 3 completion slots. */
const MEMORY_STEPS = 50;

const row = (s: StepCounts, i: number): string =>
  `step ${i + 1}: ${s.dispatches} dispatches, ${s.readbacks} readbacks, ${s.allocations} allocations, ${s.bytesHeld} bytes held, ` +
  `${s.ms.toFixed(0)} ms (rollout ${s.phases.rollout.toFixed(0)}, forward ${s.phases.forward.toFixed(0)}, update ${s.phases.update.toFixed(0)})`;

const allocationsAfterFirst = (steps: StepCounts[]): number =>
  steps.slice(1).reduce((m, s) => m + s.allocations, 0);

async function leanCounts(gpu: WebGpuBackend): Promise<CheckReport> {
  const lines: string[] = [];
  const t16 = await dispatchesPerToken(gpu, 2, 8);
  const t256 = await dispatchesPerToken(gpu, 32, 8);
  for (const [rows, t] of [
    [16, t16],
    [256, t256],
  ] as const) {
    lines.push(
      `rollouts at B x K = ${rows}: ${t.dispatches[0]} dispatches with ${t.slots} slots, ${t.dispatches[1]} with ${t.slots + 1}: ${t.perToken} per generated token`,
    );
  }
  const r16 = await leanRun(gpu, { batchPrompts: 2, samples: 8, steps: 3 });
  lines.push(`Co-RL steps at B x K = 16 (slots ${r16.slots}):`, ...r16.steps.map((s, i) => `  ${row(s, i)}`));
  const readbacks = Math.max(...r16.steps.map((s) => s.readbacks));
  const allocs = allocationsAfterFirst(r16.steps);
  const ok = readbacks <= 3 && t16.perToken > 0 && t16.perToken === t256.perToken && allocs === 0;
  return {
    ok,
    lines,
    figures: {
      readbacksPerStep: readbacks,
      dispatchesPerToken16: t16.perToken,
      dispatchesPerToken256: t256.perToken,
      allocationsAfterFirst: allocs,
      stepMs16: r16.steps[2].ms,
    },
  };
}

async function leanMemory(gpu: WebGpuBackend): Promise<CheckReport> {
  const r = await leanRun(gpu, { batchPrompts: 2, samples: 2, steps: MEMORY_STEPS, maxNewTokens: 3 });
  const s10 = r.steps[9];
  const last = r.steps[MEMORY_STEPS - 1];
  const allocs = allocationsAfterFirst(r.steps);
  const readbacks = Math.max(...r.steps.map((s) => s.readbacks));
  const msAvg = r.steps.slice(1).reduce((m, s) => m + s.ms, 0) / (MEMORY_STEPS - 1);
  const lines = [
    `B=2 K=2, ${MEMORY_STEPS} steps with 3 completion slots, ${msAvg.toFixed(0)} ms/step after the first`,
    row(r.steps[0], 0),
    row(s10, 9),
    row(last, MEMORY_STEPS - 1),
    `allocations in steps 2..${MEMORY_STEPS}: ${allocs}; most readbacks in a step: ${readbacks}`,
  ];
  const ok = s10.bytesHeld > 0 && s10.bytesHeld === last.bytesHeld && allocs === 0 && readbacks <= 3;
  return {
    ok,
    lines,
    figures: {
      steps: MEMORY_STEPS,
      bytesHeldStep10: s10.bytesHeld,
      bytesHeldStepN: last.bytesHeld,
      allocationsAfterFirst: allocs,
      readbacksPerStep: readbacks,
      stepMs: msAvg,
    },
  };
}

export const checks: Record<string, (g: WebGpuBackend) => Promise<CheckReport>> = {
  'lean:counts': leanCounts,
  'lean:memory': leanMemory,
};
