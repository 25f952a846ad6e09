// The shapes of the page's natural presets and regime candidates (src/cohort/naturalPresets.ts,
// src/cohort/regimePresets.ts): what a config file lists of each agent, and what the page says of a preset.
import type { TaskConfig } from '../tasks';
import type { AgentSpec } from './agent';

/** One agent of a natural preset as the config files list it (only what differs from the family). */
export interface NaturalPresetAgent {
  id: string;
  family: string;
  size: string;
  seed: number;
  view?: AgentSpec['view'];
  /** Axis overrides of a regime candidate (a plentiful corpus, a step budget, working paths). */
  corpus?: AgentSpec['corpus'];
  recipe?: AgentSpec['recipe'];
  /** An architecture override (e.g. a narrowed width), as the config files give it. */
  arch?: AgentSpec['arch'];
}

export interface NaturalPreset {
  /** The config file's `name`, e.g. "natural-addw-seed-only". */
  name: string;
  /** The level, e.g. "seed-only". */
  level: string;
  /** What differs between the agents, in one line. */
  differs: string;
  task: TaskConfig;
  agents: NaturalPresetAgent[];
  /**
   * Set for the regime candidates (experiments/regime/candidates/*.json): the nearest cohorts and the presets
   * in the regime, with the rollout temperature their gates were measured at, which choosing the preset
   * sets, and the registered test's outcome on the test split (each test's report.json under
   * experiments/regime/; docs/results.md). Absent for the memorising presets.
   */
  candidate?: RegimeCandidate;
}

/** What the page says of a regime candidate (src/cohort/regimePresets.ts). */
export interface RegimeCandidate {
  temperature: number;
  gates: string;
  verdict?: string;
  inRegime?: boolean;
  /** In the regime: the rule that built the pair and its yield over unseen base seeds, and where it is written. */
  rule?: string;
  doc?: string;
  /** In the regime with no verdict yet: the pre-registration its test runs under. */
  prereg?: string;
}
