// The shapes backend 'auto' times for a run (src/engine/autoSelect.ts): the lock step's decoding rows
// (B × K) and the widest agent's width and MLP width, from the run's config. A cohort that cannot be
// resolved here (it will be refused later with its own message) is timed at the default preset's shapes.
import { familyArch, getFamily } from '../cohort';
import { DEFAULT_AUTO_SHAPE, type AutoShape } from '../engine/autoSelect';
import { resolveCohortRef } from '../rl/cohortEnv';
import type { ExperimentConfig } from '../rl/config';

export function autoShapeOf(config: ExperimentConfig): AutoShape {
  const rows = config.train.batchPrompts * config.train.samples;
  try {
    const r = resolveCohortRef(config.cohort);
    if ('errors' in r || r.specs.length === 0) return { ...DEFAULT_AUTO_SHAPE, rows };
    const archs = r.specs.map((s) => familyArch(getFamily(s.family), s.size));
    const widest = archs.reduce((a, b) => (b.nEmbd > a.nEmbd ? b : a));
    return { rows, C: widest.nEmbd, H: widest.nEmbd * widest.mlpRatio };
  } catch {
    return { ...DEFAULT_AUTO_SHAPE, rows };
  }
}
