// One cell of a sweep, run in this process (what `--cell I` does, for the local pool, a Slurm array task,
// a Kubernetes Indexed Job pod or a Ray task alike): check its checkpoints, run the experiment on the
// sweep's engine (wasm by default, or the CPU reference; src/rl/experiment.ts), and write its record atomically into DIR/cells/<id>.json.
import { cacheReader, DEFAULT_CACHE_DIR } from '../cohort/cache';
import { nodeReader } from '../cohort/nodeFiles';
import { makeNodeBackend } from '../engine/wasm/nodeBackend';
import { CohortLoader, validateExperiment } from '../rl/cohortEnv';
import { runExperiment, type ExperimentResult } from '../rl/experiment';
import { withNodePool, workersArg } from '../rl/pool/nodePool';
import type { Cell, SweepPlan } from './grid';
import type { PreregStamp } from '../formats/sweep/registration';
import { cellRecord, markRunning, SweepInputError, writeRecord } from './store';
import { type CellRecord } from '../formats/sweep/records';

/** Progress of a running cell, as the pool reads it from the child's stdout (one JSON line each). */
export const PROGRESS_TAG = '@@sweep-progress ';

/** The cell `index` of `plan`, or throw naming the valid range. */
export function cellAt(plan: SweepPlan, index: number): Cell {
  const c = plan.cells[index];
  if (!Number.isInteger(index) || !c)
    throw new SweepInputError([
      `--cell ${index}: the sweep has ${plan.cells.length} cells, indices 0 to ${plan.cells.length - 1} (npm run sweep -- --config FILE --list shows them)`,
    ]);
  return c;
}

/**
 * Run cell `index` of `plan` and write its record into `dir`. A failing experiment (NaN, crash, bad
 * checkpoint) is recorded with its error, not thrown. `progress` gets (units done, units in all).
 * `prereg`: the stamp of the pre-registration the caller checked (prereg.ts), written into the record.
 */
/** The environment variable by which the local pool gives a cell its share of the cores (model workers). */
export const MODEL_WORKERS_ENV = 'CORL_MODEL_WORKERS';

/** A cell's model workers: its share from the local pool, else 1 (a scheduler's cell runs in one thread, as its job asked). */
function cellWorkers(): number {
  const v = process.env[MODEL_WORKERS_ENV];
  return v === undefined ? 1 : workersArg(v);
}

export async function runCell(
  dir: string,
  plan: SweepPlan,
  index: number,
  progress?: (done: number, total: number) => void,
  prereg?: PreregStamp,
): Promise<CellRecord> {
  const cell = cellAt(plan, index);
  markRunning(dir, cell.id, process.pid);
  const startedAt = new Date().toISOString();
  const t0 = performance.now();
  let result: ExperimentResult | null = null;
  let error: string | null = null;
  try {
    const read = cacheReader(DEFAULT_CACHE_DIR, nodeReader()); // @cache/KEY.ckpt: agents by axes (checkpoints.ts)
    const v = await validateExperiment(cell.raw, read);
    if (!v.ok) throw new Error(`invalid cell config: ${v.errors.join('; ')}`);
    const be = await makeNodeBackend(plan.backend);
    const loader = new CohortLoader(read, v.specs);
    const models = v.config.methods.length * v.specs.length;
    result = await withNodePool(cellWorkers(), plan.backend, models, (factory) =>
      runExperiment(be, v.config, () => loader.load(be), {
        onProgress: (d, t) => progress?.(d, t),
        models: factory,
      }),
    );
    if (result.error) {
      const e = result.error;
      error = `${e.message}${e.method ? ` (method ${e.method}${e.agent ? `, agent ${e.agent}` : ''}${e.step ? `, step ${e.step}` : ''})` : ''}`;
    }
  } catch (e) {
    error = e instanceof Error ? e.message : String(e);
  }
  const rec = cellRecord(plan, index, {
    status: error ? 'failed' : 'done',
    error,
    startedAt,
    seconds: (performance.now() - t0) / 1000,
    result,
    ...(prereg ? { prereg } : {}),
  });

  writeRecord(dir, rec);
  return rec;
}
