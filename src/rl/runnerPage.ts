// The page behind `npm run experiment -- --backend webgpu`: exposes window.runExperiment(config, specs),
// which trains on WebGPU with checkpoints fetched from the dev server, reporting progress through
// window.reportProgress (a Playwright-exposed function) and resolving to the plain-data result.
import { fetchReader } from '../cohort/fetchReader';
import type { AgentSpec } from '../cohort/agent';
import { WebGpuBackend } from '../engine/webgpu/webgpuBackend';
import { CohortLoader } from './cohortEnv';
import type { ExperimentConfig } from './config';
import { runExperiment, type ExperimentResult } from './experiment';

type RunnerWindow = {
  runExperiment(config: ExperimentConfig, specs: AgentSpec[]): Promise<ExperimentResult>;
  reportProgress?: (done: number, total: number, note: string) => Promise<void>;
};
const w = window as unknown as RunnerWindow;

w.runExperiment = async (config, specs) => {
  const be = await WebGpuBackend.create();
  const loader = new CohortLoader(fetchReader(), specs);
  try {
    return await runExperiment(be, config, () => loader.load(be), {
      onProgress: (done, total, note) => void w.reportProgress?.(done, total, note),
    });
  } finally {
    be.destroy();
  }
};
document.title = 'runner ready';
