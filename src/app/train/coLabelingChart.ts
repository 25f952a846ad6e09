// Chart data of the co-labeling diagnostics (docs/method.md ("Extensions from the public code"), the public Co-RL code's `co_labeling/*`): one
// series per label-based method × agent for the per-agent figures, one per method for the unanimous rate.
import type { CoLabelingAgentRecord } from '../../rl/coLabelingDiagnostics';
import type { RewardMethod } from '../../rl/rewards';
import type { RunMetrics } from '../../formats/runMetrics';
import {
  dashOf,
  MAX_ROWS,
  METHOD_COLOUR,
  METHOD_LABEL,
  type ChartData,
  type Row,
  type SeriesDef,
} from './chartData';

/** The diagnostics a user can pick, with their chart titles and one-line readings. */
export const DIAGNOSTICS = {
  supervisionFraction: {
    title: 'Supervision fraction',
    caption: 'share of prompts with a usable label from the teacher (co-rl: the peers; ttrl: its own vote)',
  },
  peerTieRate: {
    title: 'Peer tie rate',
    caption: 'among prompts every peer labels: share where the peers’ votes have no strict majority',
  },
  unanimousRate: {
    title: 'Unanimous rate',
    caption: 'among prompts every agent labels: share where all agents vote the same',
  },
  supervisionContainsTruth: {
    title: 'Supervision contains truth',
    caption:
      'share of supervised prompts whose label (or union candidate) is the true answer: diagnostic only, never seen by the rewards',
  },
  ownVoteAccuracy: {
    title: 'Own vote’s oracle accuracy',
    caption:
      'share of an agent’s labelled prompts where its own vote is right (the code’s oracle_accuracy_me)',
  },
} as const;
export type Diagnostic = keyof typeof DIAGNOSTICS;

const key = (m: RewardMethod, what: string) => `${m}:${what}`;

/** One diagnostic over the run's steps. Methods without co-labeling records (intuitor, rent, random) draw nothing. */
export function coLabelingChart(m: RunMetrics, which: Diagnostic): ChartData {
  const methods = m.methods.filter((meth) => (m.steps[meth] ?? []).some((r) => r.coLabeling));
  const first = methods.map((meth) => m.steps[meth]?.find((r) => r.coLabeling)?.coLabeling).find(Boolean);
  const ids = first ? first.agents.map((a) => a.agent) : [];
  const defs: SeriesDef[] = methods.flatMap((meth) =>
    which === 'unanimousRate'
      ? [
          {
            key: key(meth, 'all'),
            label: METHOD_LABEL[meth],
            method: meth,
            colour: METHOD_COLOUR[meth],
            dash: '',
            width: 2,
            opacity: 1,
          },
        ]
      : ids.map((id, i) => ({
          key: key(meth, id),
          label: `${METHOD_LABEL[meth]} ${id}`,
          method: meth,
          colour: METHOD_COLOUR[meth],
          dash: dashOf(i),
          width: 2,
          opacity: 1,
        })),
  );
  const byStep = new Map<number, Row>();
  for (const meth of methods)
    for (const r of m.steps[meth] ?? []) {
      if (!r.coLabeling) continue;
      let row = byStep.get(r.step);
      if (!row)
        byStep.set(
          r.step,
          (row = Object.fromEntries([['step', r.step], ...defs.map((d) => [d.key, null])]) as Row),
        );
      if (which === 'unanimousRate') row[key(meth, 'all')] = r.coLabeling.unanimousRate;
      else
        for (const a of r.coLabeling.agents)
          row[key(meth, a.agent)] = a[which as keyof Omit<CoLabelingAgentRecord, 'agent'>];
    }
  const rows = [...byStep.values()].sort((a, b) => a.step! - b.step!);
  const stride = Math.ceil(rows.length / MAX_ROWS);
  const thin = stride > 1 ? rows.filter((_, i) => i % stride === 0 || i === rows.length - 1) : rows;
  return { rows: thin, series: defs, points: rows.length };
}
