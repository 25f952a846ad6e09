// A short paper-demo run for the pool's tests (nodePool.test.ts, nodePool.relaxed.test.ts): the config, its
// validated cohort, and the canonical metric JSON of a run on an engine, with or without a pool.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { nodeReader } from '../../cohort/nodeFiles';
import { makeNodeBackend, type NodeBackendName } from '../../engine/wasm/nodeBackend';
import { canonicalMetricsJson } from '../canonical';
import { CohortLoader, validateExperiment } from '../cohortEnv';
import type { ExperimentConfig } from '../config';
import { runExperiment } from '../experiment';
import type { ModelsFactory } from '../trainer';

const read = nodeReader();
const raw = JSON.parse(readFileSync(join(__dirname, '../../../experiments/paper-demo.json'), 'utf8')) as {
  eval: Record<string, unknown>;
  train: Record<string, unknown>;
};
/** paper-demo, 3 steps of co-rl, ttrl and co-rl-frozen (its frozen copies decode too), evaluations at 0, 2, 3. */
const config = {
  ...raw,
  steps: 3,
  methods: ['co-rl', 'ttrl', 'co-rl-frozen'],
  train: { ...raw.train, batchPrompts: 8 },
  eval: { ...raw.eval, every: 2, problems: 24 },
};

/** The run's validated config and a loader of its cohort. */
export async function setup(): Promise<{ cfg: ExperimentConfig; loader: CohortLoader }> {
  const v = await validateExperiment(config, read);
  if (!v.ok) throw new Error(v.errors.join('; '));
  return { cfg: v.config, loader: new CohortLoader(read, v.specs) };
}

/** The canonical metric JSON of the run on `engine`, its models on `models` (a pool) or on the run's backend. */
export async function metrics(models?: ModelsFactory, engine: NodeBackendName = 'wasm'): Promise<string> {
  const { cfg, loader } = await setup();
  const be = await makeNodeBackend(engine);
  const r = await runExperiment(be, cfg, () => loader.load(be), { models });
  expect(r.error).toBeNull();
  expect(r.steps).toHaveLength(9);
  return canonicalMetricsJson(r.steps, r.evals);
}
