// Hand-made sweep cohorts (GroupEntry, src/formats/sweep/report.ts) for the tests of the claims checklist
// (src/formats/sweep/claims.ts): mean gains, finals, ensembles, reward stds and per-agent gains set directly.
import { stats, type GroupEntry } from './groups';

export interface GroupSpec {
  families: string[];
  kappa?: number;
  /** Mean gain per method (one seed each unless given as a list). */
  gains: Record<string, number | number[]>;
  final?: Record<string, number>;
  ens?: { base: number; ttrl: number; 'co-rl': number };
  std?: { ttrl: number; 'co-rl': number };
  /** Co-RL's gain per agent id (A, B, C, ...); absent agents have no entry. */
  agentGain?: Record<string, number>;
}

/** A cohort with the given figures; agents are named A, B, C, ... with the given families. */
export function group(index: number, label: string, o: GroupSpec): GroupEntry {
  const st = (x: number | number[]) => stats(Array.isArray(x) ? x : [x]);
  const methods: GroupEntry['methods'] = {};
  for (const [m, g] of Object.entries(o.gains)) {
    methods[m] = {
      gain: st(g),
      final: st(o.final?.[m] ?? 0.5),
      trainedLabelEnd: null,
      rewardStdEnd: o.std && m in o.std ? st(o.std[m as 'ttrl']) : null,
      agentGain:
        m === 'co-rl' && o.agentGain
          ? Object.fromEntries(Object.entries(o.agentGain).map(([a, x]) => [a, st(x)]))
          : {},
    };
  }
  return {
    index,
    label,
    agents: o.families.map((f, i) => ({ id: 'ABCDEFGH'[i], family: f, size: 's', seed: 1 })),
    sameFamily: new Set(o.families).size === 1,
    seeds: [1],
    cells: [index],
    overlap: o.kappa === undefined ? null : { kappa: o.kappa, c: 0, u: 0, w: 0, pairs: [] },
    methods,
    ensembles: {
      base: o.ens ? st(o.ens.base) : null,
      ttrl: o.ens ? st(o.ens.ttrl) : null,
      'co-rl': o.ens ? st(o.ens['co-rl']) : null,
    },
  };
}
