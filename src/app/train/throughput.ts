// Live throughput of a run from its step records: milliseconds per lock step (every method's step, one after
// the other, as the worker runs them), rollouts per second and generated tokens per second, over the
// latest lock steps. Compute time only (StepTiming.total): evaluations and pauses between steps are not in it.
import type { RunMetrics } from '../../store/metricsSlice';

/** Throughput over the latest `window` lock steps. */
export interface Throughput {
  /** Lock steps measured. */
  steps: number;
  /** Mean wall time of one lock step (all methods), ms. */
  msPerStep: number;
  /** Completions sampled per second (methods × agents × B × K per lock step). */
  rolloutsPerSecond: number;
  /** Completion tokens generated per second (EOS included). */
  tokensPerSecond: number;
}

/**
 * Throughput of the last `window` lock steps that every method has finished; null before the first.
 * @param rolloutsPerAgent B × K of the run's config
 */
export function throughput(m: RunMetrics, rolloutsPerAgent: number, window = 5): Throughput | null {
  const lists = m.methods.map((meth) => m.steps[meth] ?? []);
  if (lists.length === 0 || lists.some((l) => l.length === 0)) return null;
  const done = Math.min(...lists.map((l) => l[l.length - 1].step));
  let seconds = 0,
    rollouts = 0,
    tokens = 0,
    steps = 0;
  for (let s = done; s > done - window && s >= 1; s--) {
    const recs = lists.map((l) => l.find((r) => r.step === s));
    if (recs.some((r) => !r)) break;
    steps++;
    for (const r of recs) {
      seconds += r!.timing.total;
      rollouts += r!.agents.length * rolloutsPerAgent;
      tokens += r!.agents.reduce((t, a) => t + a.meanLength * rolloutsPerAgent, 0);
    }
  }
  if (steps === 0 || !(seconds > 0)) return null;
  return {
    steps,
    msPerStep: (seconds * 1000) / steps,
    rolloutsPerSecond: rollouts / seconds,
    tokensPerSecond: tokens / seconds,
  };
}

/** "412 ms/step · 93 rollouts/s · 520 tokens/s". */
export function throughputText(t: Throughput): string {
  const r = (x: number) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));
  return `${r(t.msPerStep)} ms/step · ${r(t.rolloutsPerSecond)} rollouts/s · ${r(t.tokensPerSecond)} tokens/s`;
}
