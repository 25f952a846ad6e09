// The latest run's problems for the Theory view's portrait: the live portrait's series of the first
// method with portrait counts (Co-RL when it ran) and the cohort's first pair of agents.
import type { RunMetrics } from '../../formats/runMetrics';
import { agentPairs, portraitAgents, portraitSeries, type PortraitSeries } from './portraitData';

/** The series to overlay, with its method, or null when the run has no portrait counts yet. */
export function latestRunSeries(m: RunMetrics): { method: string; series: PortraitSeries } | null {
  const order = [...m.methods].sort((a, b) => Number(b === 'co-rl') - Number(a === 'co-rl'));
  for (const method of order) {
    const evals = m.evals[method] ?? [];
    const pair = agentPairs(portraitAgents(evals))[0];
    const series = pair ? portraitSeries(evals, pair.a, pair.b) : null;
    if (series) return { method, series };
  }
  return null;
}
