// Live throughput of a run from its step records: milliseconds per lock step (every method's step, one after
// the other as one worker runs them, or side by side in a pool of model workers, src/rl/pool), rollouts per
// second and generated tokens per second, over the latest lock steps. Compute time only (StepTiming.total):
// evaluations and pauses between steps are not in it.
import type { RunMetrics } from '../../formats/runMetrics';

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
  /** Model workers the lock steps ran in. */
  workers: number;
}

/**
 * Throughput of the last `window` lock steps that every method has finished; null before the first.
 * @param rolloutsPerAgent B × K of the run's config
 */
export function throughput(
  m: RunMetrics,
  rolloutsPerAgent: number,
  window = 5,
  workers = 1,
): Throughput | null {
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
    // one worker runs the methods one after another; a pool side by side, from the same start
    seconds += workers > 1 ? Math.max(...recs.map((r) => r!.timing.total)) : 0;
    for (const r of recs) {
      if (workers <= 1) seconds += r!.timing.total;
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
    workers,
  };
}

/** "412 ms/step · 93 rollouts/s · 520 tokens/s" (and "· 2 model workers" with a pool). */
export function throughputText(t: Throughput): string {
  const r = (x: number) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));
  const pool = t.workers > 1 ? ` · ${t.workers} model workers` : '';
  return `${r(t.msPerStep)} ms/step · ${r(t.rolloutsPerSecond)} rollouts/s · ${r(t.tokensPerSecond)} tokens/s${pool}`;
}
