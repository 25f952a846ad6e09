// Runs as the compare view holds them (issue 15): a name, where it came from, its settings and config,
// and its records — from a run file (src/formats/runFile.ts) or from the store's current run.
import type { ExperimentConfig } from '../rl/config';
import type { RunMetrics } from './runMetrics';
import { toExperimentConfig, type RunSettings } from './runSettings';
import type { RunFile } from './runFile';

/** Where a kept run came from. */
export type LabSource = 'current' | 'imported' | 'kept' | 'saved';

export interface LabRun {
  /** Unique in the list ('current' for the live run). */
  id: string;
  name: string;
  source: LabSource;
  settings: RunSettings;
  config: ExperimentConfig;
  metrics: Omit<RunMetrics, 'runId'>;
  /** Lock steps completed. */
  step: number;
}

/** A run file as a kept run. */
export function labRunFromFile(run: RunFile, id: string, source: LabSource): LabRun {
  return {
    id,
    name: run.name,
    source,
    settings: run.settings,
    config: run.config,
    metrics: run.metrics,
    step: run.step,
  };
}

/** What the current run is built from (the store's fields). */
export interface CurrentRunSource {
  runSettings: RunSettings;
  runStatus: { step: number; config: ExperimentConfig | null };
  metrics: RunMetrics;
}

/** The store's current run as a kept run (id 'current'). */
export function currentLabRun(s: CurrentRunSource, name = 'current run'): LabRun {
  const { methods, steps, evals } = s.metrics;
  return {
    id: 'current',
    name,
    source: 'current',
    settings: s.runSettings,
    config: s.runStatus.config ?? toExperimentConfig(s.runSettings),
    metrics: { methods, steps, evals },
    step: s.runStatus.step,
  };
}
