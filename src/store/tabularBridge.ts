// Runs the tabular-agent simulation (src/analysis/tabular.ts) in small chunks and appends its curve to the store.
import { createTabularSim, tabularStepToOdeTime } from '../analysis/tabular';
import { runInChunks } from './chunkRunner';
import { useStore } from './store';
import type { TabularPoint, TabularSettings, TheoryPoint } from './theorySlice';

/** Most tabular steps one run may take (keeps a run to about a second of CPU). */
export const MAX_TABULAR_STEPS = 5000;
/** Most points a run records (the chart needs no more). */
const MAX_POINTS = 300;

let current: { cancel(): void } | null = null;

/** Tabular steps needed to cover `horizon` units of ODE time (eta = 1 ODE), capped. */
export function tabularSteps(horizon: number, K: number, eta: number): number {
  return Math.min(MAX_TABULAR_STEPS, Math.max(1, Math.ceil(horizon / tabularStepToOdeTime(K, eta))));
}

/**
 * Start a tabular run for two agents from `start` (every prompt starts at the same p) with K samples per
 * prompt, until ODE time `horizon`. Cancels a run in progress. Returns the run id.
 */
export function startTabularRun(
  start: TheoryPoint,
  K: number,
  settings: TabularSettings,
  horizon: number,
): number {
  current?.cancel();
  const s = useStore.getState();
  const steps = tabularSteps(horizon, K, settings.eta);
  const params = { ...settings, start, K, horizon, steps };
  const first: TabularPoint = { t: 0, a: start.pA, b: start.pB };
  const id = s.beginTabularRun(params, first);
  let sim: ReturnType<typeof createTabularSim>;
  try {
    sim = createTabularSim({
      method: settings.method,
      initialP: [start.pA, start.pB],
      prompts: settings.prompts,
      K,
      eta: settings.eta,
      seed: settings.seed,
    });
  } catch (err) {
    s.finishTabularRun(id, 'error', err instanceof Error ? err.message : String(err));
    return id;
  }
  const dtOde = tabularStepToOdeTime(K, settings.eta);
  const every = Math.max(1, Math.ceil(steps / MAX_POINTS));
  let pending: TabularPoint[] = [];
  current = runInChunks({
    total: steps,
    step: () => {
      const r = sim.step();
      if (r.step % every === 0 || r.step === steps)
        pending.push({ t: r.step * dtOde, a: r.meanP[0], b: r.meanP[1] });
    },
    onChunk: (done) => {
      useStore.getState().appendTabularPoints(id, pending, done);
      pending = [];
    },
    onDone: () => useStore.getState().finishTabularRun(id, 'done'),
    onError: (err) =>
      useStore.getState().finishTabularRun(id, 'error', err instanceof Error ? err.message : String(err)),
  });
  return id;
}

/** Stop the tabular run in progress (its curve so far stays). */
export function stopTabularRun(): void {
  current?.cancel();
  current = null;
  const run = useStore.getState().tabularRun;
  if (run.status === 'running') useStore.getState().finishTabularRun(run.id, 'done', 'stopped');
}
