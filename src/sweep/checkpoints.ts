// The sweep's pre-pass over its cells' agents: every base checkpoint a cell needs that is not on disk
// is built ONCE (however many cells share it) before any cell runs, then every cell is validated with
// its checkpoints (src/rl/cohortEnv.ts). The builder is a hook: today it pretrains agents whose path is
// the canonical one (src/cohort/presets.ts checkpointPath) on the CPU backend; an on-demand checkpoint
// cache (issue 12) plugs in as another builder.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentSpec } from '../cohort/agent';
import { checkpointPath, getFamily } from '../cohort';
import { nodeReader, PUBLIC_DIR, writeFileUnder } from '../cohort/nodeFiles';
import { validateExperiment } from '../rl/cohortEnv';
import type { TaskConfig } from '../tasks';
import type { Cell } from './grid';

/** A base agent a cell needs: its spec (with checkpoint path) and the task it was pretrained on. */
export interface NeededAgent {
  spec: AgentSpec & { checkpoint: string };
  task: TaskConfig;
  /** Indices of the cells that need it. */
  cells: number[];
}

/** Builds a missing base checkpoint under `root` (or throws saying why it cannot). */
export type CheckpointBuilder = (need: NeededAgent, root: string, log: (s: string) => void) => Promise<void>;

/** The distinct agents of the cells whose checkpoint file is missing under `root`. */
export function missingAgents(cells: readonly Cell[], root: string = PUBLIC_DIR): NeededAgent[] {
  const byPath = new Map<string, NeededAgent>();
  for (const c of cells) {
    for (const s of c.specs) {
      if (!s.checkpoint || existsSync(join(root, s.checkpoint))) continue;
      const have = byPath.get(s.checkpoint);
      if (have) have.cells.push(c.index);
      else
        byPath.set(s.checkpoint, { spec: s as NeededAgent['spec'], task: c.config.task!, cells: [c.index] });
    }
  }
  return [...byPath.values()];
}

/** The default builder: pretrain (CPU, deterministic) an agent whose checkpoint path is the canonical one. */
export const pretrainBuilder: CheckpointBuilder = async (need, root, log) => {
  const { spec, task } = need;
  const canonical = checkpointPath(task, spec.family, spec.size, spec.seed);
  if (spec.checkpoint !== canonical || spec.view !== getFamily(spec.family).view) {
    throw new Error(
      `checkpoint ${spec.checkpoint} is missing and cannot be built: only a family's own view at the canonical path (${canonical}) can be pretrained here; make it with npm run pretrain or fix the path`,
    );
  }
  const [{ CpuBackend }, { pretrainAgent }] = await Promise.all([
    import('../engine/cpu/cpuBackend'),
    import('../cohort/pretrain'),
  ]);
  const t0 = performance.now();
  const r = await pretrainAgent(new CpuBackend(), spec, task);
  r.agent.model.free();
  writeFileUnder(root, spec.checkpoint, r.bytes);
  log(
    `built ${spec.checkpoint} (${spec.family}.${spec.size} seed ${spec.seed}, ${r.meta.steps} steps, val acc ${r.meta.valAccuracy.toFixed(3)}) in ${((performance.now() - t0) / 1000).toFixed(0)} s, for cells ${need.cells.join(', ')}`,
  );
};

/**
 * Build every missing checkpoint once (`builder`, default pretrainBuilder), then check every cell's
 * checkpoints. Returns the problems, each naming its cell; [] when every cell can run.
 */
export async function prepareCheckpoints(
  cells: readonly Cell[],
  opts: { root?: string; builder?: CheckpointBuilder; log?: (s: string) => void } = {},
): Promise<string[]> {
  const root = opts.root ?? PUBLIC_DIR;
  const log = opts.log ?? ((s: string) => void process.stderr.write(`${s}\n`));
  const errs: string[] = [];
  const missing = missingAgents(cells, root);
  if (missing.length)
    log(
      `${missing.length} base checkpoint${missing.length > 1 ? 's' : ''} missing; building each once before the cells run`,
    );
  for (const need of missing) {
    try {
      await (opts.builder ?? pretrainBuilder)(need, root, log);
    } catch (e) {
      errs.push(`cells ${need.cells.join(', ')}: agent ${need.spec.id}: ${(e as Error).message}`);
    }
  }
  if (errs.length) return errs;
  const cache = new Map<string, Promise<Uint8Array>>();
  const base = nodeReader(root);
  const read = (p: string): Promise<Uint8Array> => cache.get(p) ?? (cache.set(p, base(p)), cache.get(p)!);
  for (const c of cells) {
    const v = await validateExperiment(c.raw, read);
    if (!v.ok) for (const e of v.errors) errs.push(`cell ${c.index} (${c.label}): ${e}`);
  }
  return errs;
}
